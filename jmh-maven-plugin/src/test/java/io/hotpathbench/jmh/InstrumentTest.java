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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
                "thrpt", params, 20.0, "base");
        Path spec = dir.resolve("fork.properties");
        Instrument.writeSpec(spec, List.of("-prof", "gc", "-foe", "true"), c, 5, "2s", dir.resolve("s"));
        Properties p = ForkContract.load(spec, "the spec");
        assertEquals("1", p.getProperty("contract"));
        assertEquals(List.of("-prof", "gc", "-foe", "true"),
                List.of(p.getProperty("arg.0"), p.getProperty("arg.1"), p.getProperty("arg.2"), p.getProperty("arg.3")));
        assertNull(p.getProperty("arg.4"));
        assertEquals(",", p.getProperty("param.delimiter"));
        assertEquals("5", p.getProperty("warmup.iterations"));
        assertEquals("2s", p.getProperty("warmup.time"));
        assertEquals(dir.resolve("s").toString(), p.getProperty("out.ser"));
        assertNull(p.getProperty("out.result"), "the driver reads no figure of a fork");
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
        assertEquals(new TrialSchedule.Configuration("io.x.ColdBenchmark.start", "io.x.ColdBenchmark", "ss", Map.of(),
                3.0, "head"), read.get(1));
    }

    @Test
    void aPlanOfAnotherVersionIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("plan.properties");
        Files.writeString(file, "contract=2\ncount=0\n", StandardCharsets.UTF_8);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Instrument.readPlan(file, null));
        assertEquals("the plan speaks fork contract v2, this instrument v1", e.getMessage());
        Files.writeString(file, "count=0\n", StandardCharsets.UTF_8);
        e = assertThrows(IllegalStateException.class, () -> Instrument.readPlan(file, null));
        assertEquals("the plan speaks fork contract none, this instrument v1", e.getMessage());
    }
}
