package io.hotpathbench.jmh;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The instrument each side's forks run, and the driver's half of {@link ForkContract}. The
 * instrument is the plugin's code that runs on the benchmarks' class path ({@link TrialPlan},
 * {@link TrialFork}, {@link TrialMerge}, {@link NoiseProfiler}). This commit's forks run the
 * plugin's own jar. In a two-commit run the other commit's forks run that commit's copy, compiled
 * from its {@code jmh-maven-plugin/} sources in its worktree against its own class path (never
 * installed), so a change to the instrument is measured on one side only, like any other change.
 * Where the other commit predates this driver's contract version, or speaks another, its forks run
 * this commit's copy instead, and the log and the provenance say so.
 */
final class Instrument {

    /** The plugin's source root in a checkout, and the instrument's package under it. */
    static final Path SOURCE_ROOT = Path.of("jmh-maven-plugin", "src", "main", "java");
    static final Path PACKAGE = Path.of("io", "hotpathbench", "jmh");

    /** Java release the instrument is compiled for: the suite's own, so every fork JVM it supports loads it. */
    static final String RELEASE = "17";

    private static final Pattern VERSION = Pattern.compile("\\bint\\s+VERSION\\s*=\\s*(\\d+)\\s*;");

    /** The class path entry a side's forks get for the instrument, and how the provenance describes it. */
    record Copy(String classPath, String describe) {
    }

    /** Whether the other commit's own instrument can run, and if not, why not. */
    record Decision(boolean own, String reason) {
    }

    private Instrument() {
    }

    /** This commit's instrument: the plugin's own jar. */
    static Copy head() throws MojoFailureException {
        return new Copy(headJar(), "own");
    }

    /**
     * The instrument of the commit checked out in {@code worktree}: its own, compiled against
     * {@code classPath} into its {@code target/}, where it speaks this driver's contract; else
     * this commit's.
     */
    static Copy base(Path worktree, String classPath, String commit, Consumer<String> log) throws MojoFailureException {
        Decision d = decide(worktree);
        String at = commit.substring(0, Math.min(7, commit.length()));
        if (!d.own()) {
            log.accept("the forks of " + at + " run this commit's instrument: " + d.reason());
            return new Copy(headJar(), "head's copy (" + d.reason() + ")");
        }
        Path out = worktree.resolve("target").resolve("hotpath-bench-instrument");
        compile(worktree.resolve(SOURCE_ROOT), classPath, out, at);
        log.accept("the forks of " + at + " run its own instrument (fork contract v" + ForkContract.VERSION
                + ", compiled from its jmh-maven-plugin/)");
        return new Copy(out.toString(), "own");
    }

    /** Whether the checkout at {@code worktree} has an instrument of this driver's contract version. */
    static Decision decide(Path worktree) {
        Path sources = worktree.resolve(SOURCE_ROOT).resolve(PACKAGE);
        Path contract = sources.resolve("ForkContract.java");
        String text;
        try {
            text = Files.readString(contract, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new Decision(false, "base predates fork contract v" + ForkContract.VERSION);
        }
        Matcher m = VERSION.matcher(text);
        if (!m.find()) {
            return new Decision(false, "base's ForkContract names no VERSION");
        }
        int version = Integer.parseInt(m.group(1));
        if (version != ForkContract.VERSION) {
            return new Decision(false, "base speaks fork contract v" + version + ", this driver v" + ForkContract.VERSION);
        }
        for (String source : ForkContract.SOURCES) {
            if (!Files.isRegularFile(sources.resolve(source))) {
                return new Decision(false, "base's instrument has no " + source);
            }
        }
        return new Decision(true, null);
    }

    /** Compiles the instrument's sources under {@code sourceRoot} into {@code out}, against {@code classPath}. */
    static void compile(Path sourceRoot, String classPath, Path out, String commit) throws MojoFailureException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new MojoFailureException("Maven runs on a JRE: the instrument of " + commit + " needs javac to compile");
        }
        List<String> options = List.of("--release", RELEASE, "-proc:none", "-implicit:class", "-nowarn",
                "-encoding", "UTF-8", "-cp", classPath, "-sourcepath", sourceRoot.toString(), "-d", out.toString());
        List<String> sources = ForkContract.SOURCES.stream().map(f -> sourceRoot.resolve(PACKAGE).resolve(f).toString()).toList();
        StringWriter diagnostics = new StringWriter();
        boolean compiled;
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            Files.createDirectories(out);
            compiled = javac.getTask(diagnostics, files, null, options, null, files.getJavaFileObjectsFromStrings(sources)).call();
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException("cannot compile the instrument of " + commit + ": " + e.getMessage());
        }
        if (!compiled) {
            throw new MojoFailureException("the instrument of " + commit + " does not compile: "
                    + JmhProcess.firstError(diagnostics.toString()));
        }
    }

    /** The provenance's {@code instrument}: the contract version and which copy each side's forks ran. */
    static Map<String, Object> record(Copy base) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("contract", ForkContract.VERSION);
        m.put("head", "own");
        if (base != null) {
            m.put("base", base.describe());
        }
        return m;
    }

    /**
     * Writes the fork spec of {@code c} to {@code file}: the run's JMH arguments, its configuration,
     * its own warm-up (null when the class's holds) and where the fork's serialized result goes.
     */
    static void writeSpec(Path file, List<String> jmhArgs, TrialSchedule.Configuration c, Integer warmupIterations,
                          String warmupTime, Path ser) throws IOException {
        Properties spec = ForkContract.create();
        for (int i = 0; i < jmhArgs.size(); i++) {
            spec.setProperty("arg." + i, jmhArgs.get(i));
        }
        spec.setProperty("benchmark", c.benchmark());
        spec.setProperty("mode", c.mode());
        c.params().forEach((k, v) -> spec.setProperty("param." + k, v));
        if (warmupIterations != null) {
            spec.setProperty("warmup.iterations", String.valueOf(warmupIterations));
            spec.setProperty("warmup.time", warmupTime);
        }
        spec.setProperty("out.ser", ser.toString());
        ForkContract.store(spec, file);
    }

    /**
     * The configurations of a plan {@link TrialPlan} wrote, on {@code side} (null in a one-commit run).
     * The plan's {@code i.forks} is ignored: the technique files' minimum trials, through
     * {@code scripts/plan.py}, not {@code @Fork}, say how many forks a configuration gets.
     */
    static List<TrialSchedule.Configuration> readPlan(Path file, String side) throws IOException {
        Properties plan = ForkContract.load(file, "the plan");
        int count = Integer.parseInt(plan.getProperty("count"));
        List<TrialSchedule.Configuration> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String at = i + ".";
            Map<String, String> params = new LinkedHashMap<>();
            String names = plan.getProperty(at + "params");
            if (!names.isEmpty()) {
                for (String name : names.split(",")) {
                    params.put(name, plan.getProperty(at + "param." + name));
                }
            }
            out.add(new TrialSchedule.Configuration(plan.getProperty(at + "benchmark"), plan.getProperty(at + "class"),
                    plan.getProperty(at + "mode"), params, Double.parseDouble(plan.getProperty(at + "estimateSeconds")), side));
        }
        return out;
    }

    /** The plugin's own jar, which holds this commit's instrument. */
    static String headJar() throws MojoFailureException {
        try {
            return Path.of(Instrument.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new MojoFailureException("cannot locate the plugin's own jar for the instrument: " + e.getMessage());
        }
    }
}
