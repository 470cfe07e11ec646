package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the benchmark forks ran on, for the provenance file: the JDK probed before the run, checked
 * against what JMH's result says each fork reported ({@code jvm}, {@code jdkVersion},
 * {@code vmName}, {@code vmVersion}), and the JVM options each benchmark's forks got
 * ({@code jvmArgs}). Where the probe and the result disagree, the result wins: it was written by
 * the forks themselves.
 */
final class ForkJvm {

    /** The result fields that name the JVM a fork ran on. */
    static final List<String> RESULT_JVM_FIELDS = List.of("jvm", "jdkVersion", "vmName", "vmVersion");

    private ForkJvm() {
    }

    /** What a finished result file says of its forks' JVMs; {@code unreadable} says why not, when it could not be read. */
    record Described(List<Map<String, Object>> jvms, List<Map<String, Object>> jvmArgs, String unreadable) {
    }

    /**
     * Reads the forks' JVMs and options from a finished result file. A file that cannot be read is
     * said to {@code warn} and recorded, never thrown: a finished run is not lost to bookkeeping
     * (publishing judges the file itself).
     */
    static Described describe(Path result, Consumer<String> warn) {
        try {
            List<?> results = (List<?>) Json.read(Files.readString(result, StandardCharsets.UTF_8));
            return new Described(jvms(results), jvmArgs(results), null);
        } catch (IOException | RuntimeException e) {
            String unreadable = "cannot read " + result.getFileName() + ": " + e.getMessage();
            warn.accept(unreadable);
            return new Described(null, null, unreadable);
        }
    }

    /** Each distinct fork JVM in the result (its {@link #RESULT_JVM_FIELDS}) with the benchmarks that ran on it. */
    static List<Map<String, Object>> jvms(List<?> results) {
        return group(results, r -> {
            Map<String, Object> key = new LinkedHashMap<>();
            RESULT_JVM_FIELDS.forEach(f -> key.put(f, r.get(f)));
            return key;
        });
    }

    /** Each distinct list of fork JVM options in the result, with the benchmarks whose forks got it. */
    static List<Map<String, Object>> jvmArgs(List<?> results) {
        return group(results, r -> {
            Map<String, Object> key = new LinkedHashMap<>();
            key.put("jvmArgs", r.get("jvmArgs") == null ? List.of() : r.get("jvmArgs"));
            return key;
        });
    }

    private static List<Map<String, Object>> group(List<?> results, Function<Map<?, ?>, Map<String, Object>> keyOf) {
        Map<Map<String, Object>, Set<String>> groups = new LinkedHashMap<>();
        for (Object o : results) {
            if (o instanceof Map<?, ?> r) {
                groups.computeIfAbsent(keyOf.apply(r), k -> new LinkedHashSet<>())
                        .add(String.valueOf(r.get("benchmark")));
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        groups.forEach((key, benchmarks) -> {
            Map<String, Object> entry = new LinkedHashMap<>(key);
            entry.put("benchmarks", List.copyOf(benchmarks));
            out.add(entry);
        });
        return out;
    }

    /**
     * The provenance's {@code jdk} entry.
     *
     * @param selectedBy  how the fork JVM was chosen, in words
     * @param executable  the java the forks were meant to run
     * @param probe       what that java said about itself before the run
     * @param resultJvms  {@link #jvms} of the result, or null when the result could not be read
     * @param unreadable  why the result could not be read (when {@code resultJvms} is null)
     */
    static Map<String, Object> jdk(String selectedBy, String executable, Environment.Probe probe,
                                   List<Map<String, Object>> resultJvms, String unreadable) {
        Map<String, Object> probed = Environment.jdk(executable, probe.properties()::get);
        if (resultJvms == null || resultJvms.isEmpty()) {
            Map<String, Object> m = withSelection(selectedBy, probed);
            m.put("source", "probe, not checked against the result: "
                    + (resultJvms == null ? unreadable : "the result names no benchmark"));
            if (probe.error() != null) {
                m.put("probeError", probe.error());
            }
            return m;
        }
        boolean agree = probe.error() == null && resultJvms.stream().allMatch(j ->
                Objects.equals(j.get("jdkVersion"), probed.get("version"))
                        && Objects.equals(j.get("vmName"), probed.get("vmName"))
                        && Objects.equals(j.get("vmVersion"), probed.get("vmVersion")));
        if (agree) {
            Map<String, Object> m = withSelection(selectedBy, probed);
            m.put("source", "probe, confirmed by the result's jdkVersion, vmName and vmVersion");
            return m;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("selectedBy", selectedBy);
        m.put("executable", joined(resultJvms, "jvm"));
        m.put("version", joined(resultJvms, "jdkVersion"));
        m.put("vmName", joined(resultJvms, "vmName"));
        m.put("vmVersion", joined(resultJvms, "vmVersion"));
        m.put("source", "result");
        m.put("disagreement", probe.error() != null
                ? "the probe of " + executable + " failed (" + probe.error() + "); the forks' own report is recorded"
                : "the probe of " + executable + " reported " + describe(probed.get("version"), probed.get("vmName"),
                        probed.get("vmVersion")) + " but the forks reported "
                        + resultJvms.stream().map(j -> describe(j.get("jdkVersion"), j.get("vmName"), j.get("vmVersion")))
                                .collect(Collectors.joining(" and "))
                        + "; the forks' own report is recorded");
        m.put("probe", probe.error() != null ? Map.of("error", probe.error()) : probed);
        return m;
    }

    private static Map<String, Object> withSelection(String selectedBy, Map<String, Object> jdk) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("selectedBy", selectedBy);
        m.putAll(jdk);
        return m;
    }

    private static String joined(List<Map<String, Object>> jvms, String field) {
        return jvms.stream().map(j -> String.valueOf(j.get(field))).distinct().collect(Collectors.joining(", "));
    }

    private static String describe(Object version, Object vmName, Object vmVersion) {
        return version + " (" + vmName + " " + vmVersion + ")";
    }
}
