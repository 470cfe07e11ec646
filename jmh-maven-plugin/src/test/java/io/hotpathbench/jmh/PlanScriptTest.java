package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract between the plugin and scripts/plan.py, on the real script and the repository's own
 * technique files: the answer's version and shape, and that what the plugin reads of it is what the
 * technique files say (scripts/tests/test_plan.py holds the scripts' side).
 */
class PlanScriptTest {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final String SPLIT = "io.hotpathbench.split.SplitBenchmark";
    private static final String VALIDATOR = "io.hotpathbench.validation.ValidatorBenchmark";

    static boolean python() {
        try {
            return new ProcessBuilder("python3", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @BeforeAll
    static void needsPython() {
        assumeTrue(python(), "python3 is not on the PATH: the plugin's contract with scripts/plan.py is not checked here");
    }

    private static TrialSchedule.Configuration conf(String cls, String method, String mode, String side, String... params) {
        Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) {
            p.put(params[i], params[i + 1]);
        }
        return new TrialSchedule.Configuration(cls + "." + method, cls, mode, p, 10, side);
    }

    /** The split at "||" and "," (16 fields, three variants), the first-token method pair at "||", the validator's validate. */
    static List<TrialSchedule.Configuration> configurations() {
        List<TrialSchedule.Configuration> cs = new ArrayList<>();
        for (String d : List.of("||", ",")) {
            for (String v : List.of("JDK_SPLIT", "INDEX_OF", "GUAVA")) {
                cs.add(conf(SPLIT, "split", "thrpt", null, "delimiter", d, "fields", "16", "variant", v));
            }
        }
        for (String m : List.of("jdkSplitFirst", "jdkSplitLimitFirst", "splitFirst")) {
            cs.add(conf(SPLIT, m, "thrpt", null, "delimiter", "||", "fields", "16"));
        }
        for (String v : List.of("PER_CALL", "SHARED", "AVAJE_GENERATED", "HAND_WRITTEN")) {
            cs.add(conf(VALIDATOR, "validate", "avgt", null, "invalidPercent", "25", "variant", v));
        }
        return cs;
    }

    static Map<String, Object> request(List<TrialSchedule.Configuration> cs, Map<String, Object> options) {
        List<Object> list = new ArrayList<>();
        cs.forEach(c -> list.add(TrialRecord.configuration(c)));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("configurations", list);
        r.put("options", options);
        return r;
    }

    @Test
    void aDefaultRunsAnswerHasTheContractsShapeAndTheTechniqueFilesCounts(@TempDir Path work) throws Exception {
        List<TrialSchedule.Configuration> cs = configurations();
        Map<?, ?> answer = new PlanScript(REPO).ask("schedule", request(cs, Map.of()), work);
        assertEquals(1, ((Number) answer.get("contract")).intValue());
        for (String key : List.of("groups", "cited", "warmups", "gate", "describe")) {
            assertTrue(answer.containsKey(key), "the answer has " + key + ": " + answer.keySet());
        }
        List<TrialSchedule.Group> groups = TrialRun.groups(answer, cs);
        assertEquals(4, groups.size(), "split at ||, split at ',', the first-token methods at ||, validate");
        TrialSchedule.Group bars = groups.stream().filter(g -> g.cited.contains("split-2char")).findFirst().orElseThrow();
        assertTrue(bars.headline, "split-2char is split's answer.cite");
        assertEquals(8, bars.minTrials, "split.json's min_trials");
        assertEquals(List.of(1, 2), bars.steps.stream().map(TrialSchedule.Step::phase).distinct().toList());
        TrialSchedule.Step first = bars.steps.get(0);
        assertEquals(3, first.trials());
        assertEquals(List.of("JDK_SPLIT", "INDEX_OF"), first.members().stream().map(c -> c.params().get("variant")).toList(),
                "phase 1 runs just the pair the figure compares");
        TrialSchedule.Group pair = groups.stream().filter(g -> g.cited.contains("split-first")).findFirst().orElseThrow();
        assertEquals(3, pair.members.size(), "a method pair is one group");
        TrialSchedule.Group validate = groups.stream().filter(g -> g.first().cls().equals(VALIDATOR)).findFirst().orElseThrow();
        assertEquals(4, validate.minTrials, "validation.json's min_trials for validate");
        Map<TrialSchedule.Configuration, TrialRun.Warmup> warmups = TrialRun.warmups(answer, cs);
        assertEquals(1, warmups.size());
        TrialRun.Warmup shared = warmups.get(cs.get(10));
        assertEquals("SHARED", cs.get(10).params().get("variant"));
        assertEquals(5, shared.iterations());
        assertEquals("2s", shared.time());
        assertEquals(null, answer.get("gate"));
        for (Object o : (List<?>) answer.get("cited")) {
            Map<?, ?> c = (Map<?, ?>) o;
            TrialSchedule.Group g = groups.stream().filter(x -> x.id.equals(c.get("group"))).findFirst().orElseThrow();
            assertTrue(g.members.contains(cs.get(((Number) c.get("variant")).intValue())), c.toString());
            assertTrue(g.members.contains(cs.get(((Number) c.get("baseline")).intValue())), c.toString());
        }
    }

    @Test
    void aGateRunsAnswerCarriesTheRuleFromSuiteJsonAndTheChecksOfEachGroup(@TempDir Path work) throws Exception {
        List<TrialSchedule.Configuration> cs = new ArrayList<>();
        for (String d : List.of("||", ",")) {
            for (String v : List.of("JDK_SPLIT", "INDEX_OF", "GUAVA")) {
                for (String side : List.of("base", "head")) {
                    cs.add(conf(SPLIT, "split", "thrpt", side, "delimiter", d, "fields", "16", "variant", v));
                }
            }
        }
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("gate", true);
        options.put("gate_figure", "best");
        Map<?, ?> answer = new PlanScript(REPO).ask("schedule", request(cs, options), work);
        Map<?, ?> gate = (Map<?, ?>) answer.get("gate");
        assertEquals(List.of(5.0, 10.0, 20.0), gate.get("looks"), "suite.json's rule.looks");
        assertEquals("best", gate.get("forkFigure"));
        for (String key : List.of("alphaPerLook", "marginPct", "alpha")) {
            assertTrue(gate.containsKey(key), "scripts/hpb/twocommit.py's rule_of reads " + key);
        }
        List<TrialSchedule.Group> groups = TrialRun.groups(answer, cs);
        assertEquals(1, groups.size(), "split-indexof-2char-2x names || and ::; ',' is not claimed");
        assertEquals(4, groups.get(0).members.size(), "INDEX_OF and JDK_SPLIT on both sides; GUAVA is not compared");
        assertEquals(List.of("split-indexof-2char-2x"), groups.get(0).checks);
        assertEquals(20, groups.get(0).steps.get(0).trials(), "one step up to the last look");
    }

    @Test
    void anUnknownClaimIdFailsInOneLineNamingTheKnownOnes(@TempDir Path work) {
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> new PlanScript(REPO)
                .ask("schedule", request(configurations(), Map.of("claims", List.of("no-such-claim"))), work));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("no-such-claim") && e.getMessage().contains("split-2char")
                && e.getMessage().contains("split-indexof-2char-2x"), "names the cited figures and claims it knows: " + e.getMessage());
    }

    @Test
    void claimsTakeClaimIdsAndCitedFigureIdsAlike(@TempDir Path work) throws Exception {
        List<TrialSchedule.Configuration> cs = configurations();
        Map<?, ?> answer = new PlanScript(REPO).ask("schedule",
                request(cs, Map.of("claims", List.of("split-first", "validator-shared-50x"))), work);
        List<TrialSchedule.Group> groups = TrialRun.groups(answer, cs);
        List<String> measured = groups.stream().flatMap(g -> g.members.stream())
                .map(c -> c.method() + " " + c.params().getOrDefault("variant", "")).toList();
        assertEquals(List.of("jdkSplitFirst ", "splitFirst ", "validate PER_CALL", "validate SHARED"), measured);
    }

    @Test
    void withoutPythonOrWithAnotherContractTheRunFailsInOneClearLine(@TempDir Path dir) throws Exception {
        MojoFailureException none = assertThrows(MojoFailureException.class,
                () -> new PlanScript(REPO, "no-such-python3-here").ask("schedule", request(configurations(), Map.of()), dir));
        assertTrue(none.getMessage().contains("install python3") && none.getMessage().contains("-Djmh.f"), none.getMessage());
        assertFalse(none.getMessage().contains("\n"));

        Path other = Files.createDirectories(dir.resolve("checkout").resolve("scripts"));
        Files.writeString(other.resolve("plan.py"), "import json, sys\n"
                + "json.dump({'contract': 2}, open(sys.argv[3], 'w'))\n");
        MojoFailureException contract = assertThrows(MojoFailureException.class,
                () -> new PlanScript(other.getParent()).ask("schedule", Map.of(), dir));
        assertTrue(contract.getMessage().contains("contract 2") && contract.getMessage().contains("speaks 1"), contract.getMessage());

        Files.writeString(other.resolve("plan.py"), "import sys\nprint('some warning')\n"
                + "print('plan.py: -Djmh.claims: no claim x', file=sys.stderr)\nsys.exit(2)\n");
        MojoFailureException bad = assertThrows(MojoFailureException.class,
                () -> new PlanScript(other.getParent()).ask("schedule", Map.of(), dir));
        assertEquals("scripts/plan.py schedule: plan.py: -Djmh.claims: no claim x", bad.getMessage());

        MojoFailureException missing = assertThrows(MojoFailureException.class,
                () -> new PlanScript(dir.resolve("nowhere")).ask("schedule", Map.of(), dir));
        assertTrue(missing.getMessage().contains("-Djmh.f=N"), missing.getMessage());
    }
}
