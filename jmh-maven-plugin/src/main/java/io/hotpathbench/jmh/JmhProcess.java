package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The JMH the benchmarks were compiled with, as seen from outside its JVMs: its entry point, its
 * version on a class path, the benchmarks it lists, and what its output says when a JVM of it fails.
 * Both ways of running use it: JMH's own fork order ({@code -Djmh.f}) and trials.
 */
final class JmhProcess {

    static final String JMH_MAIN = "org.openjdk.jmh.Main";

    private JmhProcess() {
    }

    /** The jmh-core version on {@code classpath}, from its jar's name; "unknown" if none is there. */
    static String jmhVersion(List<String> classpath) {
        for (String element : classpath) {
            String name = Path.of(element).getFileName().toString();
            if (name.startsWith("jmh-core-") && name.endsWith(".jar")) {
                return name.substring("jmh-core-".length(), name.length() - ".jar".length());
            }
        }
        return "unknown";
    }

    /** The benchmarks {@code java -cp classpath org.openjdk.jmh.Main -l} lists. */
    static List<String> listBenchmarks(String java, String classpath) throws MojoFailureException {
        try {
            Process p = new ProcessBuilder(java, "-cp", classpath, JMH_MAIN, "-l")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new MojoFailureException("listing the benchmarks with " + java + " failed: " + firstError(out));
            }
            return parseList(out);
        } catch (IOException e) {
            throw new MojoFailureException("cannot start " + java + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoFailureException("interrupted while listing benchmarks", e);
        }
    }

    /** The names in the output of JMH's {@code -l}. */
    static List<String> parseList(String output) {
        List<String> names = new ArrayList<>();
        boolean started = false;
        for (String line : output.split("\\R")) {
            if (line.startsWith("Benchmarks:")) {
                started = true;
            } else if (started && !line.isBlank()) {
                names.add(line.trim());
            }
        }
        return names;
    }

    /** One line on why a JMH process ended with {@code exit}, from the tail of its output. */
    static String failureReason(int exit, String output) {
        if (output.contains("Unable to acquire the JMH lock")) {
            return "another JMH run holds /tmp/jmh.lock; wait for it to finish (never run two JMH processes at once)";
        }
        for (String line : output.split("\\R")) {
            if (line.startsWith("Error parsing command line")) {
                return "JMH rejected its options: " + line.trim();
            }
        }
        if (output.contains("<failure>") || output.contains("Benchmark had encountered error")
                || output.contains("caught the exception")) {
            return "a benchmark threw an exception (its stack trace is above); the run is failed and no result was stored";
        }
        return "JMH exited with code " + exit + " (see its output above); no result was stored";
    }

    /**
     * The line of a failed JVM's (or javac's) output that says what went wrong: the first error or
     * exception, else the last line.
     */
    static String firstError(String output) {
        String last = "no output";
        for (String line : output.split("\\R")) {
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("Error") || t.startsWith("Exception") || t.contains("Exception:") || t.contains("Error:")
                    || t.contains(": error:")) {
                return t;
            }
            last = t;
        }
        return last;
    }
}
