package io.hotpathbench.jmh;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The provenance file beside every result: when, which commit, which JDK and JVM options, which
 * host, which JMH options. Both ways of running write these fields; a trials run adds its
 * schedule to them.
 */
final class Provenance {

    private Provenance() {
    }

    static Map<String, Object> of(ResultFiles files, Instant start, Instant end, Environment.Git git,
                                  String selectedBy, String forkJava, Environment.Probe probe,
                                  ForkJvm.Described described, String jmhVersion, String java, List<String> jmhArgs,
                                  Map<String, String> properties, List<String> selected) {
        Map<String, Object> provenance = new LinkedHashMap<>();
        provenance.put("result", files.result().getFileName().toString());
        provenance.put("status", "complete");
        provenance.put("startedUtc", start.toString());
        provenance.put("finishedUtc", end.toString());
        provenance.put("durationSeconds", Duration.between(start, end).toSeconds());
        Map<String, Object> gitInfo = new LinkedHashMap<>();
        gitInfo.put("commit", git.commit());
        gitInfo.put("dirty", git.dirty());
        gitInfo.put("branch", git.branch());
        provenance.put("git", gitInfo);
        provenance.put("jdk", ForkJvm.jdk(selectedBy, forkJava, probe, described.jvms(), described.unreadable()));
        Map<String, Object> forks = new LinkedHashMap<>();
        forks.put("jvms", described.jvms());
        forks.put("jvmArgs", described.jvmArgs());
        provenance.put("forks", forks);
        provenance.put("mavenJdk", Environment.mavenJdk(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        provenance.put("host", Environment.host());
        Map<String, Object> jmh = new LinkedHashMap<>();
        jmh.put("version", jmhVersion);
        jmh.put("launcher", java);
        jmh.put("arguments", jmhArgs);
        jmh.put("mavenProperties", new TreeMap<>(properties));
        jmh.put("benchmarks", selected);
        provenance.put("jmh", jmh);
        return provenance;
    }
}
