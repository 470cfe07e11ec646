package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The schedule executes what plan.py answers: steps phase by phase, a budget, a gate's looks. The
 * groups and steps here are written as plan.py writes them (PlanScriptTest checks the real answer);
 * which configurations a step holds and when a check is decided are the scripts' (scripts/tests).
 */
class TrialScheduleTest {

    private static final String SPLIT = "io.hotpathbench.split.SplitBenchmark";

    private static TrialSchedule.Configuration split(String variant, String delimiter, double seconds, String side) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("delimiter", delimiter);
        p.put("variant", variant);
        return new TrialSchedule.Configuration(SPLIT + ".split", SPLIT, "thrpt", p, seconds, side);
    }

    private static TrialSchedule.Configuration split(String variant, String delimiter, double seconds) {
        return split(variant, delimiter, seconds, null);
    }

    private static TrialSchedule.Group group(String id, List<TrialSchedule.Configuration> members, int min,
                                             List<TrialSchedule.Step> steps, String... cited) {
        return new TrialSchedule.Group(id, id, members, steps, min, List.of(cited), false, List.of(), Map.of());
    }

    private static TrialSchedule.Step step(int phase, int priority, List<TrialSchedule.Configuration> members, int trials) {
        return new TrialSchedule.Step(phase, priority, members, trials);
    }

    /** A fake machine: a clock advanced by each fork's estimate; records what ran. */
    private static final class FakeForks implements TrialSchedule.Forks {
        long now;
        final List<String> ran = new ArrayList<>();

        @Override
        public double run(TrialSchedule.Configuration c, TrialSchedule.Group g, int trial, int order) {
            now += (long) (c.estimateSeconds() * 1e9);
            ran.add(g.id + "/" + trial + "/" + c.params().get("delimiter") + "/" + c.params().get("variant")
                    + (c.side() == null ? "" : "/" + c.side()));
            return c.estimateSeconds();
        }
    }

    @Test
    void fixedTrialsRunEveryMemberOnceAPerTrialAdjacentInAFreshOrder() throws Exception {
        List<TrialSchedule.Configuration> cs = List.of(split("JDK_SPLIT", "||", 1), split("INDEX_OF", "||", 1),
                split("GUAVA", "||", 1));
        FakeForks forks = new FakeForks();
        TrialSchedule s = new TrialSchedule(List.of(group("g01", cs, 8, List.of(step(1, 0, cs, 8)))), 42, null, true,
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
        assertEquals("fixed", s.ended());
    }

    /**
     * Three groups as plan.py answers a default run: the headline split at "||" (its cited pair
     * INDEX_OF and JDK_SPLIT, then the whole group with GUAVA), the other cited figure at "," and a
     * group nothing cites at "::"; minimum 4 each, forks of 10 s.
     */
    private static TrialSchedule defaultRun(int budgetSeconds, FakeForks forks) throws Exception {
        List<TrialSchedule.Group> groups = new ArrayList<>();
        int n = 0;
        for (String d : List.of("::", ",", "||")) {
            TrialSchedule.Configuration jdk = split("JDK_SPLIT", d, 10);
            TrialSchedule.Configuration indexOf = split("INDEX_OF", d, 10);
            TrialSchedule.Configuration guava = split("GUAVA", d, 10);
            List<TrialSchedule.Configuration> all = List.of(jdk, indexOf, guava);
            List<TrialSchedule.Step> steps;
            if (d.equals("::")) {
                steps = List.of(step(3, 0, all, 4));
            } else {
                int priority = d.equals("||") ? 0 : 1;
                steps = List.of(step(1, priority, List.of(jdk, indexOf), 3), step(2, priority, all, 1),
                        step(2, priority, List.of(jdk, guava), 3));
            }
            groups.add(new TrialSchedule.Group(String.format("g%02d", ++n), d, all, steps, 4,
                    d.equals("::") ? List.of() : List.of("split-" + d), d.equals("||"), List.of(), Map.of()));
        }
        TrialSchedule s = new TrialSchedule(groups, 5, Duration.ofSeconds(budgetSeconds), false, () -> forks.now);
        s.run(forks);
        return s;
    }

    @Test
    void phaseOneRunsEachCitedPairHeadlinesFirstThenTheCitedGroupsWholeThenTheRest() throws Exception {
        FakeForks forks = new FakeForks();
        TrialSchedule s = defaultRun(3600, forks);
        List<String> ran = forks.ran;
        // phase 1: the headline's pair (2 forks a trial) for 3 trials, then the other cited pair
        assertTrue(ran.subList(0, 6).stream().allMatch(r -> r.startsWith("g03/") && !r.endsWith("GUAVA")), ran.toString());
        assertTrue(ran.subList(6, 12).stream().allMatch(r -> r.startsWith("g02/") && !r.endsWith("GUAVA")), ran.toString());
        // phase 2: the headline group whole, and GUAVA with its baseline until GUAVA has its minimum
        assertTrue(ran.subList(12, 21).stream().allMatch(r -> r.startsWith("g03/")), ran.toString());
        assertEquals(4, ran.subList(12, 21).stream().filter(r -> r.endsWith("GUAVA")).count());
        assertTrue(ran.subList(21, 30).stream().allMatch(r -> r.startsWith("g02/")), ran.toString());
        // phase 3: the uncited group, whole, to its minimum
        assertTrue(ran.subList(30, ran.size()).stream().allMatch(r -> r.startsWith("g01/")), ran.toString());
        assertEquals(42, ran.size());
        for (TrialSchedule.Group g : s.groups()) {
            assertEquals("minimum", g.ended);
            g.members.forEach(c -> assertTrue(g.forks.get(c) >= 4, g.id + " " + c.label() + ": " + g.forks.get(c)));
        }
        TrialSchedule.Group headline = s.groups().get(2);
        assertEquals(7, headline.trials);
        assertEquals(4, headline.together(headline.members.get(0), headline.members.get(1), s.schedule()),
                "the cited pair ran together in phase 1's 3 trials and phase 2's first");
        assertEquals(4, headline.together(headline.members.get(0), headline.members.get(2), s.schedule()),
                "every GUAVA fork has a baseline fork in its trial");
        assertEquals("minimum", s.ended());
    }

    @Test
    void theBudgetEndsAGroupWhoseNextTrialDoesNotFitAndSkipsThoseThatNeverStart() throws Exception {
        FakeForks forks = new FakeForks();
        // phase 1 costs 120 s; 150 s leaves one trial of the headline's phase 2 (20 or 30 s), not two
        TrialSchedule s = defaultRun(150, forks);
        assertTrue(forks.ran.subList(0, 12).stream().noneMatch(r -> r.endsWith("GUAVA")), "phase 1 ran whole");
        assertTrue(forks.ran.size() == 14 || forks.ran.size() == 15, forks.ran.toString());
        TrialSchedule.Group headline = s.groups().get(2);
        TrialSchedule.Group other = s.groups().get(1);
        assertEquals(4, headline.trials);
        assertEquals("budget", headline.ended, "its next trial did not fit");
        assertEquals(3, other.trials, "phase 1 gave the other cited pair its trials before phase 2 began");
        assertEquals("budget", other.ended);
        assertEquals("skipped: the budget was spent", s.groups().get(0).ended);
        assertEquals("budget", s.ended());
        assertTrue(s.elapsedSeconds() <= 150);
    }

    @Test
    void aTechniqueThatCannotRunIsSkippedWholeAndTheRestRuns() throws Exception {
        TrialSchedule.Configuration redis = new TrialSchedule.Configuration("x.RedisBenchmark.get", "x.RedisBenchmark",
                "thrpt", Map.of("variant", "GET_EACH"), 1, null);
        List<TrialSchedule.Configuration> pair = List.of(split("JDK_SPLIT", "||", 1), split("INDEX_OF", "||", 1));
        FakeForks ok = new FakeForks();
        TrialSchedule s = new TrialSchedule(List.of(group("g01", List.of(redis), 2, List.of(step(1, 0, List.of(redis), 2))),
                group("g02", pair, 2, List.of(step(1, 0, pair, 2)))), 3, null, true, () -> ok.now);
        s.run((c, g, trial, order) -> {
            if (c.cls().equals("x.RedisBenchmark")) {
                throw new TrialSchedule.Unavailable("no redis-server could start");
            }
            return ok.run(c, g, trial, order);
        });
        assertEquals(Map.of("x.RedisBenchmark", "no redis-server could start"), s.skippedClasses());
        assertEquals(4, s.schedule().size());
        assertTrue(s.schedule().stream().noneMatch(e -> e.configuration().cls().equals("x.RedisBenchmark")));
        assertEquals("skipped: no redis-server could start", s.groups().get(0).ended);
        assertEquals("fixed", s.groups().get(1).ended);
    }

    @Test
    void aTwoCommitRunMeasuresWhatBothSidesHaveAndNamesTheRest() {
        List<String> warned = new ArrayList<>();
        List<TrialSchedule.Configuration> cs = TrialSchedule.sides(
                List.of(split("JDK_SPLIT", "||", 1, "base"), split("INDEX_OF", "||", 1, "base"), split("GUAVA", "||", 1, "base")),
                List.of(split("JDK_SPLIT", "||", 1, "head"), split("INDEX_OF", "||", 1, "head")), warned::add);
        assertEquals(4, cs.size());
        assertEquals(List.of("base", "head", "base", "head"), cs.stream().map(TrialSchedule.Configuration::side).toList());
        assertEquals(1, warned.size());
        assertTrue(warned.get(0).contains("GUAVA"), warned.get(0));
    }

    @Test
    void aConfigurationKnowsItselfByTheKeyPlanPyNamesItWith() {
        TrialSchedule.Configuration c = split("INDEX_OF", "::", 1, "head");
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("benchmark", SPLIT + ".split");
        key.put("mode", "thrpt");
        key.put("params", Map.of("delimiter", "::", "variant", "INDEX_OF"));
        key.put("side", "head");
        assertTrue(c.is(key));
        key.put("side", "base");
        assertTrue(!c.is(key), "the other side is another configuration");
    }

    /** A gate run of two groups ("||" and "::", INDEX_OF and JDK_SPLIT on both sides), forks of 10 s. */
    private static List<TrialSchedule.Group> gateGroups(int lastLook) {
        List<TrialSchedule.Group> groups = new ArrayList<>();
        int n = 0;
        for (String d : List.of("||", "::")) {
            List<TrialSchedule.Configuration> cs = new ArrayList<>();
            for (String side : List.of("base", "head")) {
                cs.add(split("JDK_SPLIT", d, 10, side));
                cs.add(split("INDEX_OF", d, 10, side));
            }
            groups.add(new TrialSchedule.Group(String.format("g%02d", ++n), d, cs, List.of(step(1, 0, cs, lastLook)), lastLook,
                    List.of(), false, List.of("split-2x"), Map.of()));
        }
        return groups;
    }

    /** A judge that keeps {@code open} open at every look and records the trial counts it was asked at. */
    private static TrialSchedule.Judge judge(List<Integer> asked, java.util.function.IntFunction<Set<TrialSchedule.Configuration>> open) {
        return trials -> {
            asked.add(trials);
            return new TrialSchedule.Look(open.apply(trials), List.of(Map.of("id", "split-2x", "decided", false)));
        };
    }

    @Test
    void aGateStopsAGroupAtTheFirstLookThatLeavesNoneOfItsConfigurationsOpen() throws Exception {
        List<TrialSchedule.Group> groups = gateGroups(20);
        FakeForks forks = new FakeForks();
        List<Integer> asked = new ArrayList<>();
        TrialSchedule s = new TrialSchedule(groups, 3, null, false, () -> forks.now)
                .gate(List.of(5, 10, 20), judge(asked, t -> Set.of()));
        s.run(forks);
        assertEquals(List.of(5), asked, "every check decided at the first look: no later look is judged");
        for (TrialSchedule.Group g : groups) {
            assertEquals(5, g.trials);
            assertEquals("decided at 5 trials", g.ended);
        }
        assertEquals(40, forks.ran.size());
        assertEquals("gate", s.ended());
        assertEquals(1, s.looksReached());
    }

    @Test
    void aGroupWithConfigurationsStillNeededGoesOnToTheNextLookWithJustThose() throws Exception {
        List<TrialSchedule.Group> groups = gateGroups(20);
        TrialSchedule.Group bars = groups.get(0);
        Set<TrialSchedule.Configuration> still = new LinkedHashSet<>(bars.members.subList(0, 2));
        FakeForks forks = new FakeForks();
        List<Integer> asked = new ArrayList<>();
        new TrialSchedule(groups, 3, null, false, () -> forks.now)
                .gate(List.of(5, 10, 20), judge(asked, t -> t < 10 ? still : Set.of())).run(forks);
        assertEquals(List.of(5, 10), asked);
        assertEquals(10, bars.trials);
        assertEquals("decided at 10 trials", bars.ended);
        assertEquals(5, groups.get(1).trials, "the other group was decided at 5");
        List<String> later = forks.ran.stream().filter(r -> r.startsWith("g01/") && Integer.parseInt(r.split("/")[1]) > 5).toList();
        assertEquals(10, later.size(), "trials 6-10 ran the two configurations still needed: " + later);
        assertTrue(later.stream().allMatch(r -> r.endsWith("/base")), later.toString());
    }

    @Test
    void aGateOfOneLookEndsEveryGroupThereDecidedOrNot() throws Exception {
        List<TrialSchedule.Group> groups = gateGroups(5);
        FakeForks forks = new FakeForks();
        Set<TrialSchedule.Configuration> all = new LinkedHashSet<>(groups.get(0).members);
        new TrialSchedule(groups, 3, null, false, () -> forks.now).gate(List.of(5), judge(new ArrayList<>(), t -> all))
                .run(forks);
        assertTrue(groups.stream().allMatch(g -> g.trials == 5), "one look: 5 trials, whatever the judge says");
        assertEquals("undecided at the last look", groups.get(0).ended);
        assertEquals("decided at 5 trials", groups.get(1).ended);
    }

    @Test
    void aCappedGateBringsTheLookThatDoesNotFitForwardToTheRoundsThatDoAndJudgesThere() throws Exception {
        // a trial of a group (4 forks of 10 s) takes 40 s, a round of both groups 80 s; every check
        // stays undecided, so the look at 10 needs 400 s more after the first 400
        for (long capSeconds : new long[] {450, 600, 3600}) {
            List<TrialSchedule.Group> groups = gateGroups(20);
            Set<TrialSchedule.Configuration> all = new LinkedHashSet<>();
            groups.forEach(g -> all.addAll(g.members));
            FakeForks forks = new FakeForks();
            List<Integer> asked = new ArrayList<>();
            new TrialSchedule(groups, 3, Duration.ofSeconds(capSeconds), false, () -> forks.now)
                    .gate(List.of(5, 10, 20), judge(asked, t -> all)).run(forks);
            assertTrue(forks.now / 1e9 <= Math.max(capSeconds, 400), "the cap is never overrun: " + forks.now / 1e9 + " s");
            for (TrialSchedule.Group g : groups) {
                if (capSeconds == 450) {
                    assertEquals(5, g.trials, "400 s in, not one more round of 80 s fits in 450");
                    assertEquals("budget: undecided at 5 trials; the look at 10 needed 7 min more, past the 7-min cap", g.ended);
                    assertEquals(List.of(5), asked);
                } else if (capSeconds == 600) {
                    assertEquals(7, g.trials, "two rounds of 80 s fit in 600: the look at 10 is brought forward to 7");
                    assertEquals("budget: undecided at 7 trials, the look at 10 brought forward "
                            + "(the look at 10 needed 7 min more, past the 10-min cap)", g.ended);
                    assertEquals(List.of(5, 7), asked, "the look brought forward is judged, by the scripts' rule");
                } else {
                    assertEquals(20, g.trials, "an hour lets the undecided groups go on to the last look");
                    assertEquals("undecided at the last look", g.ended);
                    assertEquals(List.of(5, 10, 20), asked);
                }
            }
        }
    }

    @Test
    void aLookBroughtForwardThatDecidesEndsItsGroupsDecided() throws Exception {
        List<TrialSchedule.Group> groups = gateGroups(20);
        Set<TrialSchedule.Configuration> all = new LinkedHashSet<>();
        groups.forEach(g -> all.addAll(g.members));
        FakeForks forks = new FakeForks();
        new TrialSchedule(groups, 3, Duration.ofSeconds(600), false, () -> forks.now)
                .gate(List.of(5, 10, 20), judge(new ArrayList<>(), t -> t < 7 ? all : Set.of())).run(forks);
        for (TrialSchedule.Group g : groups) {
            assertEquals("budget: decided at 7 trials, the look at 10 brought forward "
                    + "(the look at 10 needed 7 min more, past the 10-min cap)", g.ended);
        }
    }
}
