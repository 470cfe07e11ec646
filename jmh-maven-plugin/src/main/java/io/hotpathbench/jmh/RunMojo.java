package io.hotpathbench.jmh;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.ToolchainManager;

/**
 * {@code mvn jmh:run}: compiles main, test and benchmark sources, forks
 * {@code java -cp <test classpath> org.openjdk.jmh.Main} with the options mapped from
 * {@code -Djmh.*} (see {@link JmhOptions}), streams JMH's output and stores the JSON result plus a
 * provenance file under {@code results/}. JMH runs on Maven's JDK, or on the JDK toolchain
 * {@code -Djmh.jdk=N} names, and its forks inherit that JVM unless {@code -Djmh.jvm=PATH} gives
 * them another. Every failure is one line.
 */
@Mojo(name = "run", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = false)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class RunMojo extends AbstractMojo {

    static final String JMH_MAIN = "org.openjdk.jmh.Main";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    private MavenSession session;

    @Component
    private ToolchainManager toolchainManager;

    /** Folder for JSON results and provenance files. */
    @Parameter(property = "jmh.resultsDir", defaultValue = "${project.basedir}/results")
    private File resultsDir;

    @Override
    public void execute() throws MojoFailureException {
        Map<String, String> properties = jmhProperties();
        JmhOptions options;
        try {
            if (JmhOptions.skip(properties)) {
                getLog().info("-Djmh.skip: JMH run skipped, nothing written");
                return;
            }
            options = JmhOptions.parse(properties);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }

        String classpath;
        String jmhVersion;
        try {
            List<String> elements = project.getTestClasspathElements();
            classpath = String.join(File.pathSeparator, elements);
            jmhVersion = jmhVersion(elements);
        } catch (Exception e) {
            throw new MojoFailureException("cannot resolve the test classpath: " + e.getMessage(), e);
        }
        String mavenJava = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String java = mavenJava;
        String forkJava = mavenJava;
        String selectedBy = "Maven's own JDK (neither -Djmh.jdk nor -Djmh.jvm given)";
        if (options.jdk() != null) {
            java = JdkToolchain.java(toolchainManager, session, options.jdk(),
                    JdkToolchain.files(session), JdkToolchain.declaredVersions(session));
            forkJava = java;
            selectedBy = "-Djmh.jdk=" + options.jdk() + " (JDK toolchain)";
            getLog().info("-Djmh.jdk=" + options.jdk() + ": JMH and its forks run on " + java);
        } else if (options.jvm() != null) {
            forkJava = options.jvm();
            selectedBy = "-Djmh.jvm=" + forkJava;
        }
        Environment.Probe probe = Environment.probe(forkJava);
        if (probe.error() != null) {
            getLog().warn("could not probe the fork JVM (" + probe.error() + "); provenance will rely on JMH's result");
        }

        List<String> all = listBenchmarks(java, classpath);
        if (all.isEmpty()) {
            throw new MojoFailureException("no benchmarks were compiled: is src/jmh/java on the test source path?");
        }
        List<String> selected = options.select(all);
        if (selected.isEmpty()) {
            throw new MojoFailureException(noMatch(options.include(), options.exclude(), all));
        }
        Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
        Path base = project.getBasedir().toPath();
        Environment.Git git = Environment.git(base);
        if (!options.jmhForkOrder()) {
            try (MachineLock lock = MachineLock.hold(lockFile)) {
                new TrialRun(this, options, java, classpath, base, resultsDir.toPath())
                        .run(git, jmhVersion, selectedBy, forkJava, probe, properties, selected);
            }
            return;
        }
        checkLock(lockFile);
        Instant start = Instant.now();
        ResultFiles files;
        try {
            files = ResultFiles.reserve(resultsDir.toPath(), start, git.shortCommit(), git.dirty());
        } catch (IOException e) {
            throw new MojoFailureException("cannot create " + resultsDir + ": " + e.getMessage(), e);
        }

        List<String> command = new ArrayList<>(List.of(java, "-cp", classpath, JMH_MAIN));
        List<String> jmhArgs = options.arguments(files.partial().toString());
        command.addAll(jmhArgs);
        getLog().info("JMH " + jmhVersion + ": " + selected.size() + " benchmark method(s), results -> "
                + base.relativize(files.result().toAbsolutePath()));
        getLog().info("options: " + String.join(" ", jmhArgs));

        int exit = fork(command, files);
        Instant end = Instant.now();
        String tail = lastOutput.toString();
        if (exit != 0) {
            files.discard();
            throw new MojoFailureException(failureReason(exit, tail));
        }

        ForkJvm.Described described = ForkJvm.describe(files.partial(), getLog()::warn);

        Map<String, Object> provenance = provenance(files, start, end, git, selectedBy, forkJava, probe, described,
                jmhVersion, java, jmhArgs, properties, selected);
        try {
            files.publish(Json.write(provenance));
        } catch (IOException e) {
            files.discard();
            throw new MojoFailureException("run finished but its result was not stored: " + e.getMessage());
        }
        getLog().info("results: " + base.relativize(files.result().toAbsolutePath()));
        getLog().info("provenance: " + base.relativize(files.provenance().toAbsolutePath()));
    }

    /** The provenance every run writes: when, which commit, which JDK and JVM options, which host, which JMH options. */
    static Map<String, Object> provenance(ResultFiles files, Instant start, Instant end, Environment.Git git,
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

    private final StringBuilder lastOutput = new StringBuilder();

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

    private Map<String, String> jmhProperties() {
        Map<String, String> props = new TreeMap<>();
        addJmh(props, session.getSystemProperties());
        addJmh(props, session.getUserProperties());
        return props;
    }

    private static void addJmh(Map<String, String> into, Properties from) {
        for (String key : from.stringPropertyNames()) {
            if (key.startsWith("jmh.") && !key.equals("jmh.resultsDir")) {
                into.put(key, from.getProperty(key));
            }
        }
    }

    static String jmhVersion(List<String> classpath) {
        for (String element : classpath) {
            String name = Path.of(element).getFileName().toString();
            if (name.startsWith("jmh-core-") && name.endsWith(".jar")) {
                return name.substring("jmh-core-".length(), name.length() - ".jar".length());
            }
        }
        return "unknown";
    }

    /** One line naming the selection that matched nothing and every benchmark there is. */
    static String noMatch(String include, String exclude, List<String> all) {
        return "no benchmark matches"
                + (include == null ? "" : " include=" + include)
                + (exclude == null ? "" : " exclude=" + exclude)
                + "; benchmarks: " + String.join(", ", all);
    }

    /** Fails early, with a clear line, when another JMH process holds JMH's machine-wide lock. */
    static void checkLock(Path lock) throws MojoFailureException {
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock held = ch.tryLock();
            if (held == null) {
                throw new MojoFailureException("another JMH run holds " + lock
                        + "; wait for it to finish (never run two JMH processes at once)");
            }
            held.release();
        } catch (OverlappingFileLockException e) {
            throw new MojoFailureException("another JMH run in this JVM holds " + lock);
        } catch (IOException e) {
            // Cannot open the lock file: JMH itself will report the problem.
        }
    }

    List<String> listBenchmarks(String java, String classpath) throws MojoFailureException {
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

    /** The line of a failed JVM's output that says what went wrong: the first error or exception, else the last line. */
    static String firstError(String output) {
        String last = "no output";
        for (String line : output.split("\\R")) {
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("Error") || t.startsWith("Exception") || t.contains("Exception:") || t.contains("Error:")) {
                return t;
            }
            last = t;
        }
        return last;
    }

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

    private int fork(List<String> command, ResultFiles files) throws MojoFailureException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .directory(project.getBasedir()).start();
        } catch (IOException e) {
            throw new MojoFailureException("cannot start JMH: " + e.getMessage(), e);
        }
        // Ctrl-C on Maven: stop the benchmark JVMs and leave no partial result behind.
        Thread hook = new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            files.discard();
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            copy(process.getInputStream(), System.out);
            return process.waitFor();
        } catch (IOException e) {
            throw new MojoFailureException("lost JMH's output: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            files.discard();
            throw new MojoFailureException("interrupted; the run was stopped and nothing was stored", e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // The JVM is already shutting down; the hook does the clean-up.
            }
        }
    }

    /** Streams bytes as they come (JMH prints partial lines) and keeps the tail for diagnosis. */
    private void copy(InputStream in, PrintStream out) throws IOException {
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            out.flush();
            lastOutput.append(new String(buf, 0, n, StandardCharsets.UTF_8));
            if (lastOutput.length() > 200_000) {
                lastOutput.delete(0, lastOutput.length() - 100_000);
            }
        }
    }

}
