package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

class InstrumentTest {

    /** This checkout: the module's folder is jmh-maven-plugin/. */
    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    private static Path instrument(Path worktree, String contract, List<String> sources) throws Exception {
        Path dir = Files.createDirectories(worktree.resolve(Instrument.SOURCE_ROOT).resolve(Instrument.PACKAGE));
        for (String source : sources) {
            Files.writeString(dir.resolve(source), "package io.hotpathbench.jmh;\n");
        }
        if (contract != null) {
            Files.writeString(dir.resolve("ForkContract.java"), contract);
        }
        return worktree;
    }

    @Test
    void aBaseWithoutTheContractRunsHeadsCopyAndSaysWhy(@TempDir Path dir) throws Exception {
        Instrument.Decision d = Instrument.decide(instrument(dir, null, List.of("TrialFork.java", "NoiseProfiler.java")));
        assertFalse(d.own());
        assertEquals("base predates fork contract v1", d.reason());
        assertEquals("head's copy (base predates fork contract v1)",
                new Instrument.Copy("/p/plugin.jar", "head's copy (" + d.reason() + ")").describe());
        assertFalse(Instrument.decide(dir.resolve("no-checkout")).own());
    }

    @Test
    void aBaseOfAnotherContractVersionRunsHeadsCopy(@TempDir Path dir) throws Exception {
        Instrument.Decision d = Instrument.decide(instrument(dir,
                "public final class ForkContract {\n    public static final int VERSION = 2;\n}\n", ForkContract.SOURCES));
        assertFalse(d.own());
        assertEquals("base speaks fork contract v2, this driver v1", d.reason());
        d = Instrument.decide(instrument(dir, "public final class ForkContract {\n    static int version() { return 1; }\n}\n",
                ForkContract.SOURCES));
        assertEquals("base's ForkContract names no VERSION", d.reason());
    }

    @Test
    void aBaseOfThisContractRunsItsOwnCopyIfItHasEverySource(@TempDir Path dir) throws Exception {
        String contract = "public final class ForkContract {\n    public static final int VERSION = 1;\n}\n";
        Instrument.Decision d = Instrument.decide(instrument(dir.resolve("a"), contract, ForkContract.SOURCES));
        assertTrue(d.own());
        assertNull(d.reason());
        d = Instrument.decide(instrument(dir.resolve("b"), contract, List.of("ForkContract.java", "TrialFork.java")));
        assertFalse(d.own());
        assertEquals("base's instrument has no TrialPlan.java", d.reason());
    }

    @Test
    void thisCheckoutSpeaksItsOwnContract() {
        assertTrue(Instrument.decide(CHECKOUT).own(), "the driver must read VERSION from this checkout's ForkContract.java");
    }

    @Test
    void theInstrumentCompilesAgainstJmhAlone(@TempDir Path out) throws Exception {
        String jmhOnly = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.contains("jmh-core") || e.contains("jopt-simple") || e.contains("commons-math3"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(jmhOnly.contains("jmh-core"), jmhOnly);
        Instrument.compile(CHECKOUT.resolve(Instrument.SOURCE_ROOT), jmhOnly, out, "this checkout");
        for (String source : ForkContract.SOURCES) {
            String cls = source.replace(".java", ".class");
            assertTrue(Files.isRegularFile(out.resolve(Instrument.PACKAGE).resolve(cls)), cls);
        }
        try (var classes = Files.list(out.resolve(Instrument.PACKAGE))) {
            List<String> names = classes.map(p -> p.getFileName().toString().replaceAll("\\$.*", ".class"))
                    .distinct().sorted().toList();
            assertEquals(List.of("ForkContract.class", "NoiseProfiler.class", "TrialFork.class", "TrialMerge.class",
                    "TrialPlan.class"), names, "the instrument uses none of the driver's classes");
        }
    }

    @Test
    void theForkSpecCarriesTheContractAndEveryValueWhole(@TempDir Path dir) throws Exception {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("delimiter", ",");
        params.put("fields", "16");
        TrialSchedule.Configuration c = new TrialSchedule.Configuration("io.x.SplitBenchmark.split", "io.x.SplitBenchmark",
                "thrpt", params, 5, 20.0, "base");
        Path spec = dir.resolve("fork.properties");
        Instrument.writeSpec(spec, List.of("-prof", "gc", "-foe", "true"), c, 5, "2s", dir.resolve("r"), dir.resolve("s"));
        Properties p = ForkContract.load(spec, "the spec");
        assertEquals("1", p.getProperty("contract"));
        assertEquals(List.of("-prof", "gc", "-foe", "true"),
                List.of(p.getProperty("arg.0"), p.getProperty("arg.1"), p.getProperty("arg.2"), p.getProperty("arg.3")));
        assertNull(p.getProperty("arg.4"));
        assertEquals(",", p.getProperty("param.delimiter"));
        assertEquals("5", p.getProperty("warmup.iterations"));
        assertEquals("2s", p.getProperty("warmup.time"));
        assertEquals(dir.resolve("r").toString(), p.getProperty("out.result"));
    }

    @Test
    void aPlanIsReadWithItsParamsInOrder(@TempDir Path dir) throws Exception {
        Properties plan = ForkContract.create();
        plan.setProperty("count", "2");
        plan.setProperty("0.benchmark", "io.x.SplitBenchmark.split");
        plan.setProperty("0.class", "io.x.SplitBenchmark");
        plan.setProperty("0.mode", "thrpt");
        plan.setProperty("0.params", "fields,delimiter");
        plan.setProperty("0.param.fields", "16");
        plan.setProperty("0.param.delimiter", ",");
        plan.setProperty("0.forks", "5");
        plan.setProperty("0.estimateSeconds", "33.0");
        plan.setProperty("1.benchmark", "io.x.ColdBenchmark.start");
        plan.setProperty("1.class", "io.x.ColdBenchmark");
        plan.setProperty("1.mode", "ss");
        plan.setProperty("1.params", "");
        plan.setProperty("1.forks", "10");
        plan.setProperty("1.estimateSeconds", "3.0");
        Path file = dir.resolve("plan.properties");
        ForkContract.store(plan, file);
        List<TrialSchedule.Configuration> read = Instrument.readPlan(file, "head");
        assertEquals(2, read.size());
        assertEquals(List.of("fields", "delimiter"), List.copyOf(read.get(0).params().keySet()));
        assertEquals(",", read.get(0).params().get("delimiter"));
        assertEquals(new TrialSchedule.Configuration("io.x.ColdBenchmark.start", "io.x.ColdBenchmark", "ss", Map.of(), 10,
                3.0, "head"), read.get(1));
    }

    @Test
    void aForksFiguresAreJmhsOwnAndItsBestIterationIsTheDriversRule(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("fork.result.properties");
        ForkContract.store(TrialFork.figures(run(Mode.Throughput, 2.0, 3.5, 1.0)), file);
        Map<String, Double> figures = Instrument.readFigures(file);
        assertEquals(2.1666, figures.get(TrialSchedule.PRIMARY), 1e-3, "JMH's score of the fork: its iterations' mean");
        assertEquals(3.5, figures.get(TrialSchedule.BEST));
        assertEquals(48.0, figures.get("gc.alloc.rate.norm"));
        assertEquals(3, figures.size());
    }

    @Test
    void aResultOfAnotherVersionIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("fork.result.properties");
        Files.writeString(file, "contract=2\nscore=1.0\nmode=thrpt\niterations=1.0\n", StandardCharsets.UTF_8);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Instrument.readFigures(file));
        assertEquals("the fork result fork.result.properties speaks fork contract v2, this instrument v1", e.getMessage());
        Files.writeString(file, "score=1.0\n", StandardCharsets.UTF_8);
        e = assertThrows(IllegalStateException.class, () -> Instrument.readFigures(file));
        assertEquals("the fork result fork.result.properties speaks fork contract none, this instrument v1", e.getMessage());
    }

    /** A one-fork RunResult as JMH builds it, one measured iteration per score (ops/us), each allocating 48 B/op. */
    private static RunResult run(Mode mode, double... scores) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, scores.length, TimeValue.seconds(1), 1);
        BenchmarkParams params = new BenchmarkParams("io.x.SplitBenchmark.split", "io.x.jmh_generated.Split", false, 1,
                new int[] {1}, List.of(), 1, 0, warmup, measurement, mode, new WorkloadParams(), TimeUnit.MICROSECONDS, 1,
                "java", List.of(), "17", "VM", "17", "1.37", TimeValue.minutes(10));
        List<IterationResult> iterations = new java.util.ArrayList<>();
        for (double s : scores) {
            IterationResult r = new IterationResult(params, measurement, new IterationResultMetaData(1, 1));
            r.addResult(new ThroughputResult(ResultRole.PRIMARY, "split", s * 1_000_000, 1_000_000_000L, TimeUnit.MICROSECONDS));
            r.addResult(new ScalarResult("gc.alloc.rate.norm", 48.0, "B/op", AggregationPolicy.AVG));
            iterations.add(r);
        }
        return new RunResult(params, List.of(new BenchmarkResult(params, iterations)));
    }
}
