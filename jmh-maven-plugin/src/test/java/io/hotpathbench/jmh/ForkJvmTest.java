package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ForkJvmTest {

    private static final String JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java";

    /** Two benchmarks with the default fork options, one with its own heap, all on JDK 25; as JMH writes them. */
    private static final String RESULT = """
            [
              {"jmhVersion": "1.37", "benchmark": "io.x.SplitBenchmark.split", "mode": "thrpt",
               "jvm": "%1$s", "jvmArgs": [], "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM",
               "vmVersion": "25.0.3+9-LTS", "params": {"fields": "4"},
               "primaryMetric": {"score": 1.5, "scoreError": "NaN", "scoreUnit": "ops/us"}},
              {"jmhVersion": "1.37", "benchmark": "io.x.SplitBenchmark.split", "mode": "thrpt",
               "jvm": "%1$s", "jvmArgs": [], "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM",
               "vmVersion": "25.0.3+9-LTS", "params": {"fields": "16"}},
              {"jmhVersion": "1.37", "benchmark": "io.x.CacheBenchmark.access", "mode": "thrpt",
               "jvm": "%1$s", "jvmArgs": ["-Xms4g", "-Xmx4g"], "jdkVersion": "25.0.3",
               "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS"},
              {"jmhVersion": "1.37", "benchmark": "io.x.SplitBenchmark.splitFirst", "mode": "thrpt",
               "jvm": "%1$s", "jvmArgs": [], "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM",
               "vmVersion": "25.0.3+9-LTS"}
            ]
            """.formatted(JDK25);

    private static List<?> results() {
        return (List<?>) Json.read(RESULT);
    }

    private static Environment.Probe probe(String version, String vmVersion) {
        return new Environment.Probe(Map.of("java.vendor", "Eclipse Adoptium", "java.version", version,
                "java.runtime.version", vmVersion, "java.vm.name", "OpenJDK 64-Bit Server VM",
                "java.vm.version", vmVersion, "java.home", "/usr/lib/jvm/temurin-25-jdk-amd64"), null);
    }

    @Test
    void groupsDistinctJvmArgsWithTheirBenchmarks() {
        assertEquals(List.of(
                Map.of("jvmArgs", List.of(), "benchmarks", List.of("io.x.SplitBenchmark.split", "io.x.SplitBenchmark.splitFirst")),
                Map.of("jvmArgs", List.of("-Xms4g", "-Xmx4g"), "benchmarks", List.of("io.x.CacheBenchmark.access"))),
                ForkJvm.jvmArgs(results()));
    }

    @Test
    void groupsDistinctForkJvmsWithTheirBenchmarks() {
        assertEquals(List.of(Map.of("jvm", JDK25, "jdkVersion", "25.0.3", "vmName", "OpenJDK 64-Bit Server VM",
                        "vmVersion", "25.0.3+9-LTS", "benchmarks",
                        List.of("io.x.SplitBenchmark.split", "io.x.CacheBenchmark.access", "io.x.SplitBenchmark.splitFirst"))),
                ForkJvm.jvms(results()));
    }

    @Test
    void aProbeTheResultConfirmsIsRecordedWhole() {
        Map<String, Object> jdk = ForkJvm.jdk("-Djmh.jdk=25 (JDK toolchain)", JDK25, probe("25.0.3", "25.0.3+9-LTS"),
                ForkJvm.jvms(results()), null);
        assertEquals("-Djmh.jdk=25 (JDK toolchain)", jdk.get("selectedBy"));
        assertEquals(JDK25, jdk.get("executable"));
        assertEquals("Eclipse Adoptium", jdk.get("vendor"));
        assertEquals("25.0.3", jdk.get("version"));
        assertEquals("25.0.3+9-LTS", jdk.get("runtimeVersion"));
        assertEquals("/usr/lib/jvm/temurin-25-jdk-amd64", jdk.get("home"));
        assertEquals("probe, confirmed by the result's jdkVersion, vmName and vmVersion", jdk.get("source"));
        assertFalse(jdk.containsKey("disagreement"));
    }

    @Test
    void whenTheProbeAndTheResultDisagreeTheResultWinsAndSaysSo() {
        Map<String, Object> jdk = ForkJvm.jdk("-Djmh.jvm", "/usr/bin/java", probe("17.0.15", "17.0.15+6"),
                ForkJvm.jvms(results()), null);
        assertEquals("result", jdk.get("source"));
        assertEquals(JDK25, jdk.get("executable"));
        assertEquals("25.0.3", jdk.get("version"));
        assertEquals("25.0.3+9-LTS", jdk.get("vmVersion"));
        assertFalse(jdk.containsKey("runtimeVersion"), "the probe's runtime version belongs to another JVM");
        assertEquals("the probe of /usr/bin/java reported 17.0.15 (OpenJDK 64-Bit Server VM 17.0.15+6) but the forks"
                + " reported 25.0.3 (OpenJDK 64-Bit Server VM 25.0.3+9-LTS); the forks' own report is recorded",
                jdk.get("disagreement"));
        assertEquals("17.0.15", ((Map<?, ?>) jdk.get("probe")).get("version"));
    }

    @Test
    void aFailedProbeLeavesTheResultsReport() {
        Map<String, Object> jdk = ForkJvm.jdk("-Djmh.jvm", "/opt/j", new Environment.Probe(Map.of(), "cannot run /opt/j: x"),
                ForkJvm.jvms(results()), null);
        assertEquals("result", jdk.get("source"));
        assertEquals("25.0.3", jdk.get("version"));
        assertEquals(Map.of("error", "cannot run /opt/j: x"), jdk.get("probe"));
    }

    @Test
    void anUnreadableResultLeavesTheProbeUnchecked() {
        Map<String, Object> jdk = ForkJvm.jdk("Maven's own JDK", JDK25, probe("25.0.3", "25.0.3+9-LTS"), null,
                "cannot read .x.json.partial: malformed JSON at offset 3: expected a key");
        assertEquals("25.0.3", jdk.get("version"));
        assertEquals("probe, not checked against the result: cannot read .x.json.partial: malformed JSON at offset 3:"
                + " expected a key", jdk.get("source"));
    }
}
