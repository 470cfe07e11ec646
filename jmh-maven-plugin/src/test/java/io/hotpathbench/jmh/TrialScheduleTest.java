package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TrialScheduleTest {

    private static final String SPLIT = "io.hotpathbench.split.SplitBenchmark";

    private static TrialSchedule.Configuration split(String variant, String delimiter, int forks, double seconds) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("delimiter", delimiter);
        p.put("variant", variant);
        return new TrialSchedule.Configuration(SPLIT + ".split", SPLIT, "thrpt", p, forks, seconds, null);
    }

    private static TrialSchedule.Configuration first(String method, String delimiter) {
        return new TrialSchedule.Configuration(SPLIT + "." + method, SPLIT, "thrpt", Map.of("delimiter", delimiter), 1, 1,
                null);
    }

    private static final Techniques.Cited CITED_2CHAR = new Techniques.Cited("split-2char", SPLIT, "split",
            Map.of("delimiter", "||"), "INDEX_OF", "JDK_SPLIT", null, 10, true);
    private static final Techniques.Cited CITED_FIRST = new Techniques.Cited("split-first", SPLIT, "jdkSplitFirst",
            Map.of("delimiter", "||"), "splitFirst", "jdkSplitFirst", null, 10, false);

    /** A fake machine: a fixed clock advanced by each fork, scores drawn around a per-configuration mean. */
    private static final class FakeForks implements TrialSchedule.Forks {
        long now;
        final Random random = new Random(1);
        final Map<String, Double> means;
        final double noise;
        final List<String> ran = new ArrayList<>();

        FakeForks(Map<String, Double> means, double noise) {
            this.means = means;
            this.noise = noise;
        }

        @Override
        public TrialSchedule.Outcome run(TrialSchedule.Configuration c, TrialSchedule.Group g, int trial, int order) {
            now += (long) (c.estimateSeconds() * 1e9);
            ran.add(g.id + "/" + trial + "/" + c.label());
            String key = c.params().getOrDefault("variant", c.method());
            double score = means.get(key) * Math.exp(noise * random.nextGaussian());
            return new TrialSchedule.Outcome(Map.of(TrialSchedule.PRIMARY, score), c.estimateSeconds());
        }
    }

    @Test
    void theVariantsOfOneMethodOrTheMethodsOfOnePairFormOneGroup() {
        List<TrialSchedule.Configuration> cs = List.of(split("JDK_SPLIT", "||", 1, 1), split("INDEX_OF", "||", 1, 1),
                split("JDK_SPLIT", ",", 1, 1), split("INDEX_OF", ",", 1, 1), first("jdkSplitFirst", "||"),
                first("splitFirst", "||"));
        Techniques.Catalog catalog = new Techniques.Catalog(List.of(CITED_2CHAR, CITED_FIRST),
                Map.of(SPLIT, Map.of("jdkSplitFirst", "jdkSplitFirst", "splitFirst", "jdkSplitFirst")));
        List<TrialSchedule.Group> groups = TrialSchedule.groups(cs, catalog, null);
        assertEquals(3, groups.size(), "split at ||, split at ',', and the first-token method pair at ||");
        assertEquals(2, groups.get(0).members.size());
        assertEquals(List.of("split-2char"), groups.get(0).cited.stream().map(TrialSchedule.Pair::id).toList());
        assertTrue(groups.get(1).cited.isEmpty());
        assertEquals(List.of("split-first"), groups.get(2).cited.stream().map(TrialSchedule.Pair::id).toList());
        assertEquals(2, groups.get(2).members.size());
    }

    @Test
    void fixedTrialsRunEveryMemberOnceAPerTrialAdjacentInAFreshOrder() throws Exception {
        List<TrialSchedule.Configuration> cs = List.of(split("JDK_SPLIT", "||", 1, 1), split("INDEX_OF", "||", 1, 1),
                split("GUAVA", "||", 1, 1));
        FakeForks forks = new FakeForks(Map.of("JDK_SPLIT", 1.0, "INDEX_OF", 3.0, "GUAVA", 2.0), 0.05);
        TrialSchedule s = new TrialSchedule(TrialSchedule.groups(cs, new Techniques.Catalog(List.of(CITED_2CHAR), Map.of()), 8), 42, 8, null,
                () -> forks.now);
        s.run(forks);
        assertEquals(24, s.schedule().size());
        Set<List<String>> orders = new HashSet<>();
        for (int t = 1; t <= 8; t++) {
            List<String> inTrial = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                TrialSchedule.Entry e = s.schedule().get((t - 1) * 3 + i);
                assertEquals(t, e.trial(), "a trial's forks are adjacent");
                assertEquals(t - 1, e.fork(), "fork k of a configuration is its trial k + 1");
                inTrial.add(e.configuration().params().get("variant"));
            }
            orders.add(inTrial);
        }
        assertTrue(orders.size() > 1, "the order is shuffled per trial");
        assertEquals("fixed", s.groups().get(0).ended);
    }

    @Test
    void citedGroupsGetMoreTrialsUntilPreciseAndOthersOnlyTheirMinimum() throws Exception {
        List<TrialSchedule.Configuration> cs = List.of(split("JDK_SPLIT", "||", 3, 1), split("INDEX_OF", "||", 3, 1),
                split("JDK_SPLIT", ",", 3, 1), split("INDEX_OF", ",", 3, 1));
        FakeForks forks = new FakeForks(Map.of("JDK_SPLIT", 1.0, "INDEX_OF", 3.0), 0.08);
        TrialSchedule s = new TrialSchedule(TrialSchedule.groups(cs, new Techniques.Catalog(List.of(CITED_2CHAR), Map.of()), null), 7, null,
                Duration.ofHours(1), () -> forks.now);
        s.run(forks);
        TrialSchedule.Group cited = s.groups().get(0);
        TrialSchedule.Group other = s.groups().get(1);
        assertEquals("precision", cited.ended);
        assertTrue(cited.trials > 3, "noise of 8% per fork needs more than 3 trials for +/-10%: " + cited.trials);
        PairedRatio r = cited.ratio(cited.cited.get(0));
        assertTrue(r.highOverLow() <= PairedRatio.target(10));
        assertTrue(r.low() < 3.0 && 3.0 < r.high(), r.toString());
        assertEquals(3, other.trials);
        assertEquals("minimum", other.ended);
    }

    @Test
    void theBudgetStopsExtraTrialsAndSkipsGroupsThatDoNotFit() throws Exception {
        List<TrialSchedule.Configuration> cs = List.of(split("JDK_SPLIT", "||", 2, 60), split("INDEX_OF", "||", 2, 60),
                split("JDK_SPLIT", ",", 2, 60), split("INDEX_OF", ",", 2, 60));
        FakeForks forks = new FakeForks(Map.of("JDK_SPLIT", 1.0, "INDEX_OF", 3.0), 0.5);
        TrialSchedule s = new TrialSchedule(TrialSchedule.groups(cs, new Techniques.Catalog(List.of(CITED_2CHAR), Map.of()), null), 7, null,
                Duration.ofMinutes(6), () -> forks.now);
        s.run(forks);
        TrialSchedule.Group cited = s.groups().get(0);
        assertEquals("budget", cited.ended);
        assertEquals(3, cited.trials, "2 minimum trials of 2 min each, one more fits in 6 min");
        assertTrue(s.groups().get(1).ended.startsWith("skipped"));
        assertEquals("budget", s.ended());
        assertTrue(s.elapsedSeconds() <= 360);
    }

    @Test
    void aTechniqueThatCannotRunIsSkippedWholeAndTheRestRuns() throws Exception {
        TrialSchedule.Configuration redis = new TrialSchedule.Configuration("x.RedisBenchmark.get", "x.RedisBenchmark",
                "thrpt", Map.of("variant", "GET_EACH"), 1, 1, null);
        List<TrialSchedule.Configuration> cs = List.of(redis, split("JDK_SPLIT", "||", 1, 1), split("INDEX_OF", "||", 1, 1));
        FakeForks ok = new FakeForks(Map.of("JDK_SPLIT", 1.0, "INDEX_OF", 3.0), 0.01);
        TrialSchedule s = new TrialSchedule(TrialSchedule.groups(cs, Techniques.Catalog.EMPTY, 2), 3, 2, null, () -> ok.now);
        s.run((c, g, trial, order) -> {
            if (c.cls().equals("x.RedisBenchmark")) {
                throw new TrialSchedule.Unavailable("no redis-server could start");
            }
            return ok.run(c, g, trial, order);
        });
        assertEquals(Map.of("x.RedisBenchmark", "no redis-server could start"), s.skippedClasses());
        assertEquals(4, s.schedule().size());
        assertTrue(s.schedule().stream().noneMatch(e -> e.configuration().cls().equals("x.RedisBenchmark")));
    }

    @Test
    void citedFiguresOnAMetricAreJudgedOnThatMetricAndZerosDoNotSteerTheSampling() {
        TrialSchedule.Configuration a = split("OHC", "||", 1, 1);
        TrialSchedule.Configuration b = split("CAFFEINE", "||", 1, 1);
        Techniques.Cited gc = new Techniques.Cited("gc", SPLIT, "split", Map.of(), "OHC", "CAFFEINE", "gcPause", 10, true);
        TrialSchedule.Group g = TrialSchedule.groups(List.of(a, b), new Techniques.Catalog(List.of(gc), Map.of()), 2).get(0);
        g.scores.get(a).add(Map.of("", 5.0, "gcPause", 0.0));
        g.scores.get(a).add(Map.of("", 5.0, "gcPause", 0.0));
        g.scores.get(b).add(Map.of("", 1.0, "gcPause", 9.0));
        g.scores.get(b).add(Map.of("", 1.0, "gcPause", 8.0));
        assertEquals(List.of(0.0, 0.0), g.values(a, "gcPause"));
        assertTrue(g.precise(), "a pair with a zero has no log ratio and cannot hold the group open");
    }

    private static TrialSchedule.Configuration sided(TrialSchedule.Configuration c, String side) {
        return new TrialSchedule.Configuration(c.benchmark(), c.cls(), c.mode(), c.params(), c.forks(),
                c.estimateSeconds(), side);
    }

    @Test
    void aTwoCommitRunMeasuresWhatBothSidesHaveInOneGroupAndNamesTheRest() {
        TrialSchedule.Configuration jdk = split("JDK_SPLIT", "||", 2, 1);
        TrialSchedule.Configuration indexOf = split("INDEX_OF", "||", 2, 1);
        TrialSchedule.Configuration guava = split("GUAVA", "||", 2, 1);
        List<String> warned = new ArrayList<>();
        List<TrialSchedule.Configuration> cs = TrialSchedule.sides(
                List.of(sided(jdk, "base"), sided(indexOf, "base"), sided(guava, "base")),
                List.of(sided(jdk, "head"), sided(indexOf, "head")), warned::add);
        assertEquals(4, cs.size());
        assertEquals(1, warned.size());
        assertTrue(warned.get(0).contains("GUAVA"), warned.get(0));
        List<TrialSchedule.Group> groups = TrialSchedule.groups(cs, Techniques.Catalog.EMPTY, null);
        assertEquals(1, groups.size(), "both sides of every configuration share one group, so they share the minutes");
        List<TrialSchedule.Pair> changes = TrialSchedule.changes(groups.get(0).members, 10);
        assertEquals(2, changes.size());
        for (TrialSchedule.Pair p : changes) {
            assertEquals("head", p.variant().side());
            assertEquals("base", p.baseline().side());
            assertEquals(p.variant().params(), p.baseline().params());
        }
    }

    /**
     * A schedule over JDK_SPLIT and INDEX_OF at each of {@code delimiters} (forks of 10 s, minimum
     * {@code minTrials}), citing split-2char ("||", the headline) and split-1char (","), run on
     * {@code forks} within {@code budgetSeconds}.
     */
    private static TrialSchedule headlineAndOneChar(List<String> delimiters, int minTrials, int budgetSeconds,
                                                    FakeForks forks) throws Exception {
        List<TrialSchedule.Configuration> cs = new ArrayList<>();
        for (String d : delimiters) {
            cs.add(split("JDK_SPLIT", d, minTrials, 10));
            cs.add(split("INDEX_OF", d, minTrials, 10));
        }
        Techniques.Cited oneChar = new Techniques.Cited("split-1char", SPLIT, "split", Map.of("delimiter", ","),
                "INDEX_OF", "JDK_SPLIT", null, 10, false);
        TrialSchedule s = new TrialSchedule(TrialSchedule.groups(cs,
                new Techniques.Catalog(List.of(CITED_2CHAR, oneChar), Map.of()), null), 5, null,
                Duration.ofSeconds(budgetSeconds), () -> forks.now);
        s.run(forks);
        return s;
    }

    @Test
    void headlineMinimumsComeFirstThenTheOtherCitedOnesThenTheRest() throws Exception {
        FakeForks forks = new FakeForks(Map.of("JDK_SPLIT", 1.0, "INDEX_OF", 3.0), 0.02);
        TrialSchedule s = headlineAndOneChar(List.of("::", ",", "||"), 2, 130, forks);
        List<String> order = s.schedule().stream().map(e -> e.configuration().params().get("delimiter")).toList();
        assertTrue(order.subList(0, 4).stream().allMatch("||"::equals), "the headline group's minimum comes first: " + order);
        assertEquals(4, order.indexOf(","), "the other cited group starts after the headline's minimum: " + order);
        assertTrue(s.groups().stream().filter(g -> g.first().params().get("delimiter").equals("::"))
                .allMatch(g -> g.ended.startsWith("skipped")), "the rest did not fit 130 s");
        assertTrue(s.elapsedSeconds() <= 130);
    }

    @Test
    void everyCitedGroupGetsItsMinimumBeforeAnyGetsTrialsForPrecision() throws Exception {
        // The headline pair is so noisy that it never reaches +/-10%; before this order it took the
        // whole budget and the other cited figure got one trial (the redis-pooled pair, 2026-11-25).
        FakeForks forks = new FakeForks(Map.of("JDK_SPLIT", 1.0, "INDEX_OF", 3.0), 0.6);
        TrialSchedule s = headlineAndOneChar(List.of(",", "||"), 3, 300, forks);
        TrialSchedule.Group headline = s.groups().get(1);
        TrialSchedule.Group other = s.groups().get(0);
        assertEquals("||", headline.first().params().get("delimiter"));
        assertTrue(other.trials >= 3, "the other cited group has its minimum: " + other.trials);
        assertTrue(headline.trials > 3, "the spare budget went to the headline's precision: " + headline.trials);
        assertEquals(15, headline.trials + other.trials, "300 s of 20 s trials");
        List<String> order = s.schedule().stream().map(e -> e.configuration().params().get("delimiter")).toList();
        assertTrue(order.subList(0, 6).stream().allMatch("||"::equals), "the headline's minimum comes first: " + order);
        assertTrue(order.subList(6, 12).stream().allMatch(","::equals), "then the other's minimum: " + order);
    }

    private static TrialSchedule.Configuration sided(String variant, String delimiter, String side) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("delimiter", delimiter);
        p.put("variant", variant);
        return new TrialSchedule.Configuration(SPLIT + ".split", SPLIT, "thrpt", p, 8, 1, side);
    }

    private static final Techniques.Gated GATED = new Techniques.Gated("split-2x", SPLIT, "split",
            Map.of("delimiter", List.of("||", "::")), "INDEX_OF", "JDK_SPLIT");

    /** A gate run of two groups: at "||" head's INDEX_OF is {@code headFactor} of base's; at "::" nothing changed. */
    private static List<TrialSchedule.Group> gateRun(double headFactor, double noise, List<String> ran) throws Exception {
        return gateRun(headFactor, noise, ran, List.of(5, 10));
    }

    private static List<TrialSchedule.Group> gateRun(double headFactor, double noise, List<String> ran, List<Integer> looks)
            throws Exception {
        List<TrialSchedule.Configuration> cs = new ArrayList<>();
        for (String d : List.of("||", "::")) {
            for (String side : List.of("base", "head")) {
                cs.add(sided("JDK_SPLIT", d, side));
                cs.add(sided("INDEX_OF", d, side));
                cs.add(sided("GUAVA", d, side));
            }
        }
        List<TrialSchedule.Configuration> selected = cs.stream().filter(GATED::names).toList();
        List<TrialSchedule.Group> groups = TrialSchedule.groups(selected, Techniques.Catalog.EMPTY, null);
        groups.forEach(g -> g.checks.addAll(TrialSchedule.checks(g.members, List.of(GATED))));
        Random random = new Random(7);
        TrialSchedule schedule = new TrialSchedule(groups, 3, null, null, () -> 0L)
                .gate(new TrialSchedule.Gate(looks, 20));
        schedule.run((c, g, trial, order) -> {
            ran.add(g.id + "/" + trial + "/" + c.label());
            double mean = c.params().get("variant").equals("INDEX_OF") ? 3.0 : 1.0;
            if (c.params().get("delimiter").equals("||") && c.params().get("variant").equals("INDEX_OF")
                    && "head".equals(c.side())) {
                mean *= headFactor;
            }
            return new TrialSchedule.Outcome(Map.of(TrialSchedule.PRIMARY, mean * Math.exp(noise * random.nextGaussian())), 1);
        });
        assertEquals("gate", schedule.ended());
        return groups;
    }

    @Test
    void aGateRunMeasuresOnlyTheClaimedVariantsOnBothSidesAndStopsAtTheFirstLookThatDecides() throws Exception {
        List<String> ran = new ArrayList<>();
        List<TrialSchedule.Group> groups = gateRun(1.0, 0.03, ran);
        assertEquals(2, groups.size());
        for (TrialSchedule.Group g : groups) {
            assertEquals(4, g.members.size(), "INDEX_OF and JDK_SPLIT, base and head; GUAVA is not claimed");
            assertEquals(1, g.checks.size());
            assertEquals(5, g.trials, "an unchanged commit with quiet forks is decided at the first look");
            assertEquals("decided at 5 trials", g.ended);
            PairedRatio change = g.change(g.checks.get(0));
            assertTrue(change.low() > 0.8, "the change's 95% interval lies above 1 - margin: " + change);
        }
        assertEquals(40, ran.size());
        assertTrue(ran.stream().noneMatch(r -> r.contains("GUAVA")));
    }

    @Test
    void aGroupThatTheFirstLookCannotDecideGoesOnToTheSecondAndAClearLossIsDecidedToo() throws Exception {
        List<TrialSchedule.Group> lost = gateRun(0.5, 0.03, new ArrayList<>());
        TrialSchedule.Group bars = lost.stream().filter(g -> g.first().params().get("delimiter").equals("||")).findFirst().orElseThrow();
        assertEquals(5, bars.trials);
        assertTrue(bars.change(bars.checks.get(0)).high() < 0.8, "half the gain lost: decided as a loss");

        List<TrialSchedule.Group> noisy = gateRun(0.8, 0.15, new ArrayList<>());
        TrialSchedule.Group atMargin = noisy.stream().filter(g -> g.first().params().get("delimiter").equals("||")).findFirst().orElseThrow();
        assertEquals(10, atMargin.trials, "a change at the margin with noisy forks is not decided at 5 and runs to the last look");
        assertTrue(List.of("decided at 10 trials", "undecided at the last look").contains(atMargin.ended), atMargin.ended);
    }

    @Test
    void aGateJudgedByEachForksBestIterationStopsWhereItsBestIsQuietThoughItsMeanIsNot() throws Exception {
        // every fork's mean wanders by 15% (slow spells of the core), its best iteration by 1%
        for (String figure : List.of(TrialSchedule.BEST, TrialSchedule.PRIMARY)) {
            List<TrialSchedule.Configuration> cs = new ArrayList<>();
            for (String side : List.of("base", "head")) {
                cs.add(sided("JDK_SPLIT", "||", side));
                cs.add(sided("INDEX_OF", "||", side));
            }
            List<TrialSchedule.Group> groups = TrialSchedule.groups(cs, Techniques.Catalog.EMPTY, null);
            groups.forEach(g -> g.checks.addAll(TrialSchedule.checks(g.members, List.of(GATED))));
            Random random = new Random(11);
            new TrialSchedule(groups, 3, null, null, () -> 0L).gate(new TrialSchedule.Gate(List.of(5, 10), 20, figure))
                    .run((c, g, trial, order) -> {
                        double speed = c.params().get("variant").equals("INDEX_OF") ? 3.0 : 1.0;
                        return new TrialSchedule.Outcome(Map.of(
                                TrialSchedule.PRIMARY, speed * Math.exp(0.15 * random.nextGaussian()),
                                TrialSchedule.BEST, speed * 1.4 * Math.exp(0.01 * random.nextGaussian())), 1);
                    });
            TrialSchedule.Group g = groups.get(0);
            if (figure.equals(TrialSchedule.BEST)) {
                assertEquals("decided at 5 trials", g.ended, "the best iterations agree: decided at the first look");
                assertTrue(g.change(g.checks.get(0), TrialSchedule.BEST).low() > 0.8);
            } else {
                assertEquals(10, g.trials, "the means wander: the first look cannot decide");
            }
        }
    }

    @Test
    void aForksBestIterationIsItsHighestThroughputOrLowestTime() {
        List<Object> raw = List.of(List.of(2.0, 3.5, 1.0));
        assertEquals(3.5, TrialRun.best("thrpt", raw));
        assertEquals(1.0, TrialRun.best("avgt", raw));
        assertTrue(Double.isNaN(TrialRun.best("ss", raw)), "a single shot has no fast state");
        assertTrue(Double.isNaN(TrialRun.best("thrpt", null)));
    }

    @Test
    void aGateOfOneLookStopsEveryGroupThereDecidedOrNot() throws Exception {
        List<TrialSchedule.Group> groups = gateRun(0.8, 0.15, new ArrayList<>(), List.of(5));
        assertTrue(groups.stream().allMatch(g -> g.trials == 5), "one look: 5 trials, whatever the noise");
        TrialSchedule.Group bars = groups.stream().filter(g -> g.first().params().get("delimiter").equals("||")).findFirst().orElseThrow();
        assertEquals("undecided at the last look", bars.ended);
    }

    @Test
    void eachLookIsJudgedAtOneMinusTheAlphaItSpends() {
        // 0.9x at 5 trials, its 95% interval [0.81, 1.0]: above the 0.8 bar at one side of a 95%
        // two-sided interval (level 0.975), below it at level 0.9875 (the half-width grows by
        // t(0.9875, 4) / t(0.975, 4) = 1.26, so the low end falls to 0.788)
        PairedRatio change = new PairedRatio(5, 0.9, 0.81, 1.0);
        assertTrue(new TrialSchedule.Gate(List.of(5, 10), 20).decided(change));
        assertFalse(new TrialSchedule.Gate(List.of(5, 10, 15, 20), 20).decided(change));
        assertTrue(new TrialSchedule.Gate(List.of(5, 10, 15, 20), 20).decided(new PairedRatio(5, 0.9, 0.85, 0.953)),
                "a tighter interval clears the bar at level 0.9875 too");
        TrialSchedule.Gate even = new TrialSchedule.Gate(List.of(5, 10, 15, 20), 20);
        double[] four = even.bounds(change);
        assertEquals(0.9875, even.level(0), 1e-12);
        assertEquals(0.9875, even.levelAt(17), 1e-12);
        assertEquals(0.9 * Math.exp(-Math.log(0.9 / 0.81) * 3.4954 / 2.7764), four[0], 1e-4);
        assertEquals(0.9 * Math.exp(Math.log(0.9 / 0.81) * 3.4954 / 2.7764), four[1], 1e-4);
        assertArrayEquals(new double[] {0.81, 1.0}, new TrialSchedule.Gate(List.of(5, 10), 20).bounds(change), 1e-12);

        // uneven shares: a quarter of alpha at 5 and 10 trials, half at 20
        TrialSchedule.Gate gate = new TrialSchedule.Gate(List.of(5, 10, 20), List.of(0.0125, 0.0125, 0.025), 20, TrialSchedule.PRIMARY);
        assertEquals(0.9875, gate.levelAt(5), 1e-12);
        assertEquals(0.9875, gate.levelAt(10), 1e-12);
        assertEquals(0.975, gate.levelAt(20), 1e-12);
        assertFalse(gate.decided(change), "at the first look the same change is judged at 0.9875");
        PairedRatio twenty = new PairedRatio(20, 0.9, 0.81, 1.0);
        assertTrue(gate.decided(twenty), "at the last look at 0.975: the 95% interval's own ends");
        assertArrayEquals(new double[] {0.81, 1.0}, gate.bounds(twenty), 1e-12);
    }

    @Test
    void aGateRefusesLooksThatSpendMoreThanAlphaOrDoNotRise() {
        assertThrows(IllegalArgumentException.class,
                () -> new TrialSchedule.Gate(List.of(5, 10), List.of(0.03, 0.03), 20, TrialSchedule.PRIMARY));
        assertThrows(IllegalArgumentException.class,
                () -> new TrialSchedule.Gate(List.of(10, 5), List.of(0.025, 0.025), 20, TrialSchedule.PRIMARY));
        assertThrows(IllegalArgumentException.class,
                () -> new TrialSchedule.Gate(List.of(5, 10), List.of(0.05), 20, TrialSchedule.PRIMARY));
    }

    @Test
    void aCappedGateBringsTheLookThatDoesNotFitForwardToTheRoundsThatDo() throws Exception {
        // every fork takes 10 s, so a trial of a split group (4 forks) 40 s and a round of both groups
        // 80 s; noisy forks leave a loss at the margin undecided at 5 trials (400 s in), and the 5
        // more trials of the look at 10 need 400 s more
        for (long capSeconds : new long[] {450, 600, 3600}) {
            List<TrialSchedule.Configuration> cs = new ArrayList<>();
            for (String d : List.of("||", "::")) {
                for (String side : List.of("base", "head")) {
                    cs.add(sided("JDK_SPLIT", d, side));
                    cs.add(sided("INDEX_OF", d, side));
                }
            }
            List<TrialSchedule.Group> groups = TrialSchedule.groups(cs, Techniques.Catalog.EMPTY, null);
            groups.forEach(g -> g.checks.addAll(TrialSchedule.checks(g.members, List.of(GATED))));
            Random random = new Random(7);
            long[] clock = {0};
            new TrialSchedule(groups, 3, null, java.time.Duration.ofSeconds(capSeconds), () -> clock[0])
                    .gate(new TrialSchedule.Gate(List.of(5, 10, 20), List.of(0.0125, 0.0125, 0.025), 20, TrialSchedule.PRIMARY))
                    .run((c, g, trial, order) -> {
                        clock[0] += 10_000_000_000L;
                        double mean = c.params().get("variant").equals("INDEX_OF") ? 3.0 * 0.8 : 1.0;
                        return new TrialSchedule.Outcome(Map.of(TrialSchedule.PRIMARY, mean * Math.exp(0.15 * random.nextGaussian())), 10);
                    });
            assertTrue(clock[0] / 1e9 <= Math.max(capSeconds, 400), "the cap is never overrun: " + clock[0] / 1e9 + " s");
            for (TrialSchedule.Group g : groups) {
                if (capSeconds == 450) {
                    assertEquals(5, g.trials, "400 s in, not one more round of 80 s fits in 450");
                    assertEquals("budget: undecided at 5 trials; the look at 10 needed 7 min more, past the 7-min cap", g.ended);
                } else if (capSeconds == 600) {
                    assertEquals(7, g.trials, "400 s in, two rounds of 80 s fit in 600: the look at 10 is brought forward to 7");
                    assertTrue(g.ended.matches("budget: (un)?decided at 7 trials, the look at 10 brought forward "
                            + "\\(the look at 10 needed 7 min more, past the 10-min cap\\)"), g.ended);
                } else {
                    assertTrue(g.trials >= 10, "an hour lets the undecided groups go on to their looks: " + g.ended);
                }
            }
        }
    }

    @Test
    void aLookBroughtForwardIsJudgedAtTheStricterOfTheTwoLooksLevels() {
        TrialSchedule.Gate gate = new TrialSchedule.Gate(List.of(5, 10, 20), List.of(0.0125, 0.0125, 0.025), 20, TrialSchedule.PRIMARY);
        assertEquals(0.9875, gate.levelAt(7), 1e-12, "between 5 and 10: both spend 0.0125");
        assertEquals(0.9875, gate.levelAt(15), 1e-12, "between 10 and 20: the look at 20 spends 0.025, the one at 10 less");
        assertEquals(0.975, gate.levelAt(20), 1e-12);
        assertEquals(0.975, gate.levelAt(25), 1e-12, "past the last look: the last look's");
        assertEquals(0.9875, gate.levelAt(3), 1e-12, "below the first look: the first look's");
        TrialSchedule.Gate falling = new TrialSchedule.Gate(List.of(5, 10), List.of(0.03, 0.01), 20, TrialSchedule.PRIMARY);
        assertEquals(0.99, falling.levelAt(7), 1e-12, "a later look that spends less: its own, the stricter");
    }
}
