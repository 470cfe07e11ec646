package io.hotpathbench.jmh;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
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
 * {@code mvn jmh:run}: compiles main, test and benchmark sources, selects benchmarks and JMH options
 * from {@code -Djmh.*} ({@link JmhOptions}) and runs them one of two ways, holding JMH's machine
 * lock, then stores JMH's JSON result and a provenance file under {@code results/}.
 *
 * <ul>
 *   <li><b>Trials</b> (the default, {@link TrialRun}): every fork is its own JMH process; the forks
 *       of the configurations one comparison needs run back to back in a random order, trial after
 *       trial, until the trials asked for are made or the budget is spent; with
 *       {@code -Djmh.against=REF} beside the same configurations built at REF ({@link Against}).
 *       The forks are merged into one JMH JSON by JMH's own writer, and the provenance records the
 *       schedule (docs/protocol.md).
 *   <li><b>JMH's own fork order</b> ({@code -Djmh.f=N}): one {@code java -cp <test classpath>
 *       org.openjdk.jmh.Main} process with the mapped options, every fork of a configuration back to
 *       back, as JMH runs them anywhere else; its output is streamed as it comes.
 * </ul>
 * JMH runs on Maven's JDK, or on the JDK toolchain {@code -Djmh.jdk=N} names, and its forks inherit
 * that JVM unless {@code -Djmh.jvm=PATH} gives them another. Every failure is one line.
 */
@Mojo(name = "run", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = false)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class RunMojo extends AbstractMojo {

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
            jmhVersion = JmhProcess.jmhVersion(elements);
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

        List<String> all = JmhProcess.listBenchmarks(java, classpath);
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
        MachineLock.check(lockFile);
        Instant start = Instant.now();
        ResultFiles files;
        try {
            files = ResultFiles.reserve(resultsDir.toPath(), start, git.shortCommit(), git.dirty());
        } catch (IOException e) {
            throw new MojoFailureException("cannot create " + resultsDir + ": " + e.getMessage(), e);
        }

        List<String> command = new ArrayList<>(List.of(java, "-cp", classpath, JmhProcess.JMH_MAIN));
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
            throw new MojoFailureException(JmhProcess.failureReason(exit, tail));
        }

        ForkJvm.Described described = ForkJvm.describe(files.partial(), getLog()::warn);

        Map<String, Object> provenance = Provenance.of(files, start, end, git, selectedBy, forkJava, probe, described,
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

    private final StringBuilder lastOutput = new StringBuilder();

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

    /** One line naming the selection that matched nothing and every benchmark there is. */
    static String noMatch(String include, String exclude, List<String> all) {
        return "no benchmark matches"
                + (include == null ? "" : " include=" + include)
                + (exclude == null ? "" : " exclude=" + exclude)
                + "; benchmarks: " + String.join(", ", all);
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
