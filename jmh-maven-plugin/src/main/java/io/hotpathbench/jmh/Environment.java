package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Reads the facts a cited number needs beside it: commit, JDK, CPU, memory, OS. */
final class Environment {

    private Environment() {
    }

    record Git(String commit, String shortCommit, boolean dirty, String branch) {
    }

    static Git git(Path dir) {
        String commit = run(dir, "git", "rev-parse", "HEAD");
        if (commit == null) {
            return new Git(null, null, false, null);
        }
        // results/ is where runs land, so new result files alone do not make a tree dirty.
        String status = run(dir, "git", "status", "--porcelain", "--", ".", ":(exclude)results");
        String branch = run(dir, "git", "rev-parse", "--abbrev-ref", "HEAD");
        return new Git(commit, commit.substring(0, Math.min(7, commit.length())),
                status != null && !status.isBlank(), branch);
    }

    static Map<String, Object> host() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpuModel", cpuModel());
        m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        m.put("memTotalBytes", memTotal());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        return m;
    }

    static Map<String, Object> jdk(String javaExecutable) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executable", javaExecutable);
        m.put("vendor", System.getProperty("java.vendor"));
        m.put("version", System.getProperty("java.version"));
        m.put("runtimeVersion", System.getProperty("java.runtime.version"));
        m.put("vmName", System.getProperty("java.vm.name"));
        m.put("vmVersion", System.getProperty("java.vm.version"));
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // Not Linux: fall through.
        }
        return System.getProperty("os.arch");
    }

    private static Long memTotal() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("MemTotal:")) {
                    String[] parts = line.trim().split("\\s+");
                    return Long.parseLong(parts[1]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // Not Linux: unknown.
        }
        return null;
    }

    /** Runs a short command; null when it fails. */
    static String run(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(List.of(command)).directory(dir.toFile())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
