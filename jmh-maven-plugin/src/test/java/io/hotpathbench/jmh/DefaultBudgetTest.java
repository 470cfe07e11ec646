package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default run measures every cited figure: the default schedule (plan.py's, on the repository's
 * technique files) replayed with the fork durations of the default runs committed in results/
 * (test resource default-run-forks.json), on each machine, gives every cited figure at least three
 * paired trials within {@link RunDefaults#BUDGET}, and still does when every fork is 20% slower
 * than the slowest one recorded for its configuration.
 *
 * <p>The configurations are those the compiled benchmarks enumerate (JMH's BenchmarkList under
 * ../target/test-classes, listed by TrialPlan as a run lists them), so a technique added later is
 * replayed too: a configuration never measured on a machine takes the other machine's slowest fork
 * scaled by how the two machines compare on the configurations both measured, else the estimate
 * TrialPlan makes from its annotations' warm-up and measurement. Without compiled benchmarks (the
 * plugin built on its own) the configurations are those the recorded runs measured.
 */
class DefaultBudgetTest {

    private static final Path LIST = PlanScriptTest.REPO.resolve("target/test-classes/META-INF/BenchmarkList");

    private static String key(String benchmark, String mode, Map<?, ?> params) {
        return benchmark + " " + mode + " " + new java.util.TreeMap<>(params);
    }

    /** machine -> configuration key -> slowest recorded fork, seconds. */
    private static Map<String, Map<String, Double>> recorded() throws IOException {
        String text;
        try (var in = DefaultBudgetTest.class.getResourceAsStream("/default-run-forks.json")) {
            text = new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        ((Map<?, ?>) ((Map<?, ?>) Json.read(text)).get("machines")).forEach((name, m) -> {
            Map<String, Double> forks = new LinkedHashMap<>();
            for (Object o : (List<?>) ((Map<?, ?>) m).get("forks")) {
                Map<?, ?> f = (Map<?, ?>) o;
                forks.put(key((String) f.get("benchmark"), (String) f.get("mode"), (Map<?, ?>) f.get("params")),
                        ((Number) f.get("max")).doubleValue());
            }
            out.put((String) name, forks);
        });
        return out;
    }

    /** The configurations of a default run: from the compiled benchmarks when there are some. */
    private static List<TrialSchedule.Configuration> configurations(Map<String, Map<String, Double>> recorded, Path work)
            throws Exception {
        List<TrialSchedule.Configuration> out = new ArrayList<>();
        if (Files.isRegularFile(LIST)) {
            Path plan = work.resolve("plan.properties");
            String cp = PlanScriptTest.REPO.resolve("target/test-classes") + java.io.File.pathSeparator
                    + System.getProperty("java.class.path");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                    ForkContract.PLAN, plan.toString()).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), "TrialPlan lists the compiled benchmarks: " + output);
            out.addAll(Instrument.readPlan(plan, null));
            return out;
        }
        java.util.Set<String> seen = new java.util.LinkedHashSet<>();
        recorded.values().forEach(m -> seen.addAll(m.keySet()));
        String text;
        try (var in = DefaultBudgetTest.class.getResourceAsStream("/default-run-forks.json")) {
            text = new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8);
        }
        for (Object m : ((Map<?, ?>) ((Map<?, ?>) Json.read(text)).get("machines")).values()) {
            for (Object o : (List<?>) ((Map<?, ?>) m).get("forks")) {
                Map<?, ?> f = (Map<?, ?>) o;
                String b = (String) f.get("benchmark");
                if (seen.remove(key(b, (String) f.get("mode"), (Map<?, ?>) f.get("params")))) {
                    Map<String, String> params = new LinkedHashMap<>();
                    ((Map<?, ?>) f.get("params")).forEach((k, v) -> params.put((String) k, (String) v));
                    out.add(new TrialSchedule.Configuration(b, b.substring(0, b.lastIndexOf('.')), (String) f.get("mode"),
                            params, ((Number) f.get("max")).doubleValue(), null));
                }
            }
        }
        return out;
    }

    /** Each configuration's fork on {@code machine}: recorded, else the other machine's scaled, else estimated. */
    private static Map<TrialSchedule.Configuration, Double> durations(List<TrialSchedule.Configuration> cs, String machine,
                                                                      Map<String, Map<String, Double>> recorded) {
        Map<String, Double> mine = recorded.get(machine);
        Map<TrialSchedule.Configuration, Double> out = new HashMap<>();
        for (TrialSchedule.Configuration c : cs) {
            String k = key(c.benchmark(), c.mode(), c.params());
            Double s = mine.get(k);
            for (Map.Entry<String, Map<String, Double>> other : recorded.entrySet()) {
                if (s == null && !other.getKey().equals(machine) && other.getValue().containsKey(k)) {
                    s = other.getValue().get(k) * ratio(mine, other.getValue());
                }
            }
            out.put(c, s != null ? s : c.estimateSeconds());
        }
        return out;
    }

    /** The median of a's fork over b's, over the configurations both measured. */
    private static double ratio(Map<String, Double> a, Map<String, Double> b) {
        List<Double> r = new ArrayList<>();
        a.forEach((k, v) -> {
            if (b.containsKey(k)) {
                r.add(v / b.get(k));
            }
        });
        r.sort(null);
        return r.isEmpty() ? 1 : r.get(r.size() / 2);
    }

    @Test
    void everyCitedFigureGetsThreeTrialsWithinTheDefaultBudgetOnEveryMachineAndWithForksAFifthSlower(@TempDir Path work)
            throws Exception {
        assumeTrue(PlanScriptTest.python(), "python3 is not on the PATH: the default schedule comes from scripts/plan.py");
        Map<String, Map<String, Double>> recorded = recorded();
        List<TrialSchedule.Configuration> cs = configurations(recorded, work);
        Map<?, ?> answer = new PlanScript(PlanScriptTest.REPO).ask("schedule", PlanScriptTest.request(cs, Map.of()), work);
        List<?> cited = (List<?>) answer.get("cited");
        assertTrue(cited.size() >= 20, "every technique cites figures: " + cited.size());
        double budget = RunDefaults.BUDGET.toSeconds();
        for (String machine : recorded.keySet()) {
            for (double slower : new double[] {1.0, 1.2}) {
                Map<TrialSchedule.Configuration, Double> seconds = durations(cs, machine, recorded);
                List<TrialSchedule.Group> groups = TrialRun.groups(answer, cs);
                long[] clock = {0};
                Map<String, Long> trialEnds = new HashMap<>();
                TrialSchedule s = new TrialSchedule(groups, 1, RunDefaults.BUDGET, false, () -> clock[0]);
                s.run((c, g, trial, order) -> {
                    double d = seconds.get(c) * slower;
                    clock[0] += (long) (d * 1e9);
                    trialEnds.put(g.id + "/" + trial, clock[0]);
                    return d;
                });
                List<String> short3 = new ArrayList<>();
                for (Object o : cited) {
                    Map<?, ?> c = (Map<?, ?>) o;
                    TrialSchedule.Configuration a = cs.get(((Number) c.get("variant")).intValue());
                    TrialSchedule.Configuration b = cs.get(((Number) c.get("baseline")).intValue());
                    TrialSchedule.Group g = groups.stream().filter(x -> x.id.equals(c.get("group"))).findFirst().orElseThrow();
                    List<TrialSchedule.Entry> done = s.schedule().stream()
                            .filter(e -> e.group().equals(g.id) && trialEnds.get(g.id + "/" + e.trial()) <= budget * 1e9).toList();
                    int together = g.together(a, b, done);
                    if (together < 3) {
                        short3.add(c.get("id") + " (" + together + ")");
                    }
                }
                assertTrue(short3.isEmpty(), machine + " forks x" + slower + ": cited figures with fewer than 3 trials within "
                        + RunDefaults.BUDGET.toMinutes() + " min: " + short3);
                assertTrue(clock[0] / 1e9 <= budget + 120, machine + " x" + slower + ": the schedule stays within its budget"
                        + " but for the last fork's misestimate: " + clock[0] / 1e9 + " s");
            }
        }
    }
}
