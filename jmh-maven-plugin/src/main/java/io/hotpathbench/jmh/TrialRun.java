package io.hotpathbench.jmh;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;

/**
 * One run of the trial protocol (see {@link TrialSchedule}): lists the configurations, forms the
 * groups, runs every fork as its own JMH process ({@link TrialFork}, one fork, every param pinned),
 * merges the forks into one JMH JSON ({@link TrialMerge}) and writes the provenance with the
 * schedule. Nothing is left behind on failure or Ctrl-C: the fork in flight and its children are
 * stopped, the work folder and the partial result removed.
 */
final class TrialRun {

    /**
     * The trial engine's revision, in every provenance it writes. 2: the noise profiler no longer
     * runs java.util.regex in the benchmark's JVM. Revision 1 (every trials run before it, no field)
     * did, and that polluted the type profiles of the benchmarks that use regex themselves:
     * String.split at "||" ran at 1.07 instead of 1.69 ops/us and allocated 48-72 bytes more per
     * call, so the scripts keep revision 1 runs as history, out of every figure.
     */
    static final int ENGINE = 2;

    /** A benchmark that cannot run here throws with a message starting with this marker. */
    static final String UNAVAILABLE = "HOTPATH_UNAVAILABLE:";

    // The driver classes run in the benchmarks' JVMs, next to jmh-core; named, never loaded, here.
    static final String PLAN = "io.hotpathbench.jmh.TrialPlan";
    static final String FORK = "io.hotpathbench.jmh.TrialFork";
    static final String MERGE = "io.hotpathbench.jmh.TrialMerge";
    static final String NOISE = "io.hotpathbench.jmh.NoiseProfiler";

    private static final String LOCK_WARNING = "WARNING: JMH lock is ignored by user request";

    private final AbstractMojo mojo;
    private final JmhOptions options;
    private final String java;
    private final String classpath;
    private final Path base;
    private final Path resultsDir;
    private final Path techniques;
    private volatile Process current;
    private volatile Against against;
    private OneCpu oneCpu;
    /** Configurations' own warm-ups from the technique files (none when the user gave one). */
    private List<Techniques.Warmup> warmups = List.of();
    private final StringBuilder tail = new StringBuilder();

    TrialRun(AbstractMojo mojo, JmhOptions options, String java, String classpath, Path base, Path resultsDir,
             Path techniques) {
        this.mojo = mojo;
        this.options = options;
        this.java = java;
        this.classpath = classpath;
        this.base = base;
        this.resultsDir = resultsDir;
        this.techniques = techniques;
    }

    void run(Environment.Git git, String jmhVersion, String selectedBy, String forkJava, Environment.Probe probe,
             Map<String, String> properties, List<String> selected) throws MojoFailureException {
        if (options.oneCpu() != null) {
            try {
                oneCpu = OneCpu.resolve(System.getenv("PATH"), Path.of("/proc/self/status"));
            } catch (IllegalArgumentException e) {
                throw new MojoFailureException(e.getMessage());
            }
        }
        Instant start = Instant.now();
        ResultFiles files;
        Path work;
        try {
            files = ResultFiles.reserve(resultsDir, start, git.shortCommit(), git.dirty());
            work = Files.createDirectories(resultsDir.resolve("." + files.stem() + ".forks"));
        } catch (IOException e) {
            throw new MojoFailureException("cannot create " + resultsDir + ": " + e.getMessage(), e);
        }
        Thread hook = new Thread(() -> {
            Process p = current;
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            files.discard();
            delete(work);
            Against a = against;
            if (a != null) {
                a.close();
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (options.against() != null) {
                against = Against.prepare(options.against(), base, mvn(), mojo.getLog()::info);
                if (!against.jmhVersion().equals(jmhVersion)) {
                    throw new MojoFailureException("-Djmh.against=" + options.against() + " builds with JMH "
                            + against.jmhVersion() + " and this tree with " + jmhVersion + "; one file cannot hold both");
                }
            }
            runIn(work, files, start, git, jmhVersion, selectedBy, forkJava, probe, properties, selected);
        } finally {
            Against a = against;
            against = null;
            if (a != null) {
                a.close();
            }
            delete(work);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // The JVM is shutting down; the hook cleans up.
            }
        }
    }

    private void runIn(Path work, ResultFiles files, Instant start, Environment.Git git, String jmhVersion,
                       String selectedBy, String forkJava, Environment.Probe probe, Map<String, String> properties,
                       List<String> selected) throws MojoFailureException {
        String driverPath = classpath + File.pathSeparator + pluginJar();
        List<String> jmhArgs = baseArguments();
        String basePath = against == null ? null : against.classpath + File.pathSeparator + pluginJar();
        List<TrialSchedule.Configuration> configurations;
        List<TrialSchedule.Group> groups;
        if (against == null) {
            configurations = named(plan(work, driverPath, jmhArgs, null), false);
            Techniques.Catalog catalog;
            try {
                catalog = Techniques.catalog(techniques);
            } catch (IOException e) {
                throw new MojoFailureException("cannot read the cited figures: " + e.getMessage(), e);
            }
            groups = TrialSchedule.groups(configurations, catalog, options.trials());
        } else {
            configurations = TrialSchedule.sides(plan(work, basePath, jmhArgs, "base"), plan(work, driverPath, jmhArgs, "head"),
                    line -> mojo.getLog().warn(line));
            if (configurations.isEmpty()) {
                throw new MojoFailureException("-Djmh.against=" + options.against()
                        + ": no configuration of the selection exists on both sides");
            }
            Techniques.Catalog catalog;
            try {
                catalog = new Techniques.Catalog(List.of(), Techniques.catalog(techniques).pairedMethods());
            } catch (IOException e) {
                throw new MojoFailureException("cannot read the method pairs: " + e.getMessage(), e);
            }
            configurations = named(configurations, options.gate());
            List<Techniques.Gated> gated = options.gate()
                    ? selectedClaims(true).stream().filter(Techniques.Gated::gain).toList() : List.of();
            groups = TrialSchedule.groups(configurations, catalog, options.trials());
            for (TrialSchedule.Group g : groups) {
                g.cited.addAll(TrialSchedule.changes(g.members, RunDefaults.PRECISION_PCT));
                g.checks.addAll(TrialSchedule.checks(g.members, gated));
            }
        }
        try {
            warmups = options.warmupGiven() ? List.of() : Techniques.warmups(techniques);
        } catch (IOException e) {
            throw new MojoFailureException("cannot read the warm-ups: " + e.getMessage(), e);
        }
        List<String> warmed = new ArrayList<>();
        for (Techniques.Warmup w : warmups) {
            if (configurations.stream().anyMatch(w::covers)) {
                warmed.add(w.describe());
            }
        }
        long seed = options.seed() != null ? options.seed() : new SecureRandom().nextLong();
        TrialSchedule schedule = new TrialSchedule(groups, seed, options.trials(), options.budget(), System::nanoTime);
        if (options.gate()) {
            String figure = options.gateBest() ? TrialSchedule.BEST : TrialSchedule.PRIMARY;
            schedule.gate(options.trials() != null
                    ? new TrialSchedule.Gate(List.of(options.trials()), RunDefaults.GATE_MARGIN_PCT, figure)
                    : new TrialSchedule.Gate(RunDefaults.GATE_LOOKS, RunDefaults.GATE_SPEND, RunDefaults.GATE_MARGIN_PCT, figure));
        }
        long citedGroups = groups.stream().filter(g -> !g.cited.isEmpty()).count();
        mojo.getLog().info("JMH " + jmhVersion + ": " + configurations.size() + " configuration(s) in " + groups.size()
                + " group(s), " + citedGroups + " holding a cited figure; " + describe(schedule) + "; shuffle seed " + seed);
        mojo.getLog().info("options: " + String.join(" ", jmhArgs));
        if (!warmed.isEmpty()) {
            mojo.getLog().info("warm-up from the technique files (-Djmh.wi/-Djmh.w override it): " + String.join("; ", warmed));
        }
        if (oneCpu != null) {
            mojo.getLog().info("forks of benchmarks matching '" + options.oneCpu() + "' run on CPU " + oneCpu.cpu
                    + " with every process they start (-Djmh.oneCpu: " + oneCpu.taskset + " -c " + oneCpu.cpu + ")");
        }

        Map<String, Path> serByEntry = new LinkedHashMap<>();
        int[] count = {0};
        try {
            schedule.run((c, g, trial, order) -> {
                count[0]++;
                String id = String.format("fork-%04d", count[0]);
                mojo.getLog().info(String.format("trial %d of %s (min %d), fork %d of %d in the group, %s elapsed: %s",
                        trial, g.id, g.minTrials, order + 1, g.members.size(),
                        clock(schedule.elapsedSeconds()), c.label()));
                long t0 = System.nanoTime();
                Map<String, Double> scores = fork(work, id, "base".equals(c.side()) ? basePath : driverPath, jmhArgs, c);
                serByEntry.put(g.id + "/" + trial + "/" + order, work.resolve(id + ".ser"));
                return new TrialSchedule.Outcome(scores, (System.nanoTime() - t0) / 1e9);
            });
        } catch (MojoFailureException e) {
            files.discard();
            throw e;
        } catch (Exception e) {
            files.discard();
            throw new MojoFailureException("the trial schedule failed: " + e.getMessage(), e);
        }
        Map<String, String> skipped = schedule.skippedClasses();
        skipped.forEach((cls, why) -> mojo.getLog().warn("skipped " + cls + ": " + why));
        if (!skipped.isEmpty() && "true".equals(System.getenv("CI"))) {
            throw new MojoFailureException("CI: a technique could not run here (" + skipped.values().iterator().next() + ")");
        }
        if (schedule.schedule().isEmpty()) {
            throw new MojoFailureException("no fork ran" + (skipped.isEmpty() ? "" : ": " + String.join("; ", skipped.values())));
        }
        merge(work, driverPath, schedule, serByEntry, files);
        Instant end = Instant.now();

        ForkJvm.Described described = ForkJvm.describe(files.partial(), mojo.getLog()::warn);
        Map<String, Object> provenance = RunMojo.provenance(files, start, end, git, selectedBy, forkJava, probe, described,
                jmhVersion, java, jmhArgs, properties, selected);
        provenance.put("mavenJdk", Environment.mavenJdk(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        provenance.put("protocol", "trials");
        provenance.put("trialsEngine", ENGINE);
        provenance.put("trials", TrialRecord.of(schedule, seed, options, skipped));
        if (against != null) {
            Map<String, Object> sides = new LinkedHashMap<>();
            sides.put("ref", against.ref);
            sides.put("base", against.commit);
            sides.put("head", git.commit() + (git.dirty() ? " (dirty)" : ""));
            provenance.put("against", sides);
        }
        if (!warmed.isEmpty()) {
            provenance.put("warmup", warmed);
        }
        if (oneCpu != null) {
            Map<String, Object> placed = new LinkedHashMap<>();
            placed.put("benchmarks", options.oneCpu());
            placed.put("cpu", oneCpu.cpu);
            provenance.put("oneCpu", placed);
        }
        if (schedule.gate() != null) {
            provenance.put("gate", TrialRecord.gate(schedule));
        }
        for (TrialSchedule.Group g : groups) {
            for (String line : TrialRecord.summary(g)) {
                mojo.getLog().info(line);
            }
        }
        try {
            files.publish(Json.write(provenance));
        } catch (IOException e) {
            files.discard();
            throw new MojoFailureException("run finished but its result was not stored: " + e.getMessage());
        }
        mojo.getLog().info("results: " + base.relativize(files.result().toAbsolutePath()));
        mojo.getLog().info("provenance: " + base.relativize(files.provenance().toAbsolutePath()));
    }

    /**
     * The claims that select this run's configurations: {@code -Djmh.claims}, else with
     * {@code gate} every gain claim; null when neither narrows the selection.
     */
    private List<Techniques.Gated> selectedClaims(boolean gate) throws MojoFailureException {
        if (options.claims() == null && !gate) {
            return null;
        }
        List<Techniques.Gated> all;
        try {
            all = Techniques.claims(techniques);
        } catch (IOException e) {
            throw new MojoFailureException("cannot read the claims: " + e.getMessage(), e);
        }
        if (options.claims() == null) {
            return all.stream().filter(Techniques.Gated::gain).toList();
        }
        List<String> known = all.stream().map(Techniques.Gated::id).toList();
        List<String> unknown = options.claims().stream().filter(id -> !known.contains(id)).toList();
        if (!unknown.isEmpty()) {
            throw new MojoFailureException("-Djmh.claims: no claim " + String.join(", ", unknown) + "; known: " + String.join(", ", known));
        }
        return all.stream().filter(k -> options.claims().contains(k.id())).toList();
    }

    /** The configurations the selected claims name (all of them when no claim narrows the selection). */
    private List<TrialSchedule.Configuration> named(List<TrialSchedule.Configuration> configurations, boolean gate)
            throws MojoFailureException {
        List<Techniques.Gated> claims = selectedClaims(gate);
        if (claims == null) {
            return configurations;
        }
        List<TrialSchedule.Configuration> out = configurations.stream()
                .filter(c -> claims.stream().anyMatch(k -> k.names(c))).toList();
        if (out.isEmpty()) {
            throw new MojoFailureException((gate ? "-Djmh.gate" : "-Djmh.claims")
                    + ": no configuration the claims name is in the selection" + (against == null ? "" : " on both sides"));
        }
        return out;
    }

    private String describe(TrialSchedule schedule) {
        if (schedule.gate() != null) {
            return "gate: looks at " + schedule.gate().looks() + " trials, alpha spent " + schedule.gate().spend() + ", margin "
                    + schedule.gate().marginPct() + "%" + (options.budget() != null ? ", capped at " + options.budget().toMinutes() + " min" : "");
        }
        Integer trials = options.trials();
        if (trials != null && options.budget() == null) {
            return trials + " trial(s) per group";
        }
        Duration budget = options.budget() != null ? options.budget() : RunDefaults.BUDGET;
        return (trials != null ? trials + " trial(s) per group at least" : "each group's @Fork value as its minimum trials")
                + ", cited groups sampled to their precision within a budget of " + budget.toMinutes() + " min";
    }

    /** The run's JMH arguments; each fork adds its benchmark, mode and params. */
    private List<String> baseArguments() {
        List<String> args = new ArrayList<>(options.arguments());
        if (!options.profilers().isEmpty()) {
            args.add("-prof");
            args.add(NOISE);
        }
        return args;
    }

    private List<TrialSchedule.Configuration> plan(Path work, String driverPath, List<String> jmhArgs, String side)
            throws MojoFailureException {
        Path out = work.resolve("plan" + (side == null ? "" : "-" + side) + ".json");
        List<String> command = new ArrayList<>(List.of(java, "-cp", driverPath, PLAN, out.toString()));
        command.addAll(jmhArgs);
        if (options.include() != null) {
            command.add(options.include());
        }
        String output = capture(command);
        List<TrialSchedule.Configuration> configurations = new ArrayList<>();
        try {
            for (Object o : (List<?>) Json.read(Files.readString(out, StandardCharsets.UTF_8))) {
                Map<?, ?> m = (Map<?, ?>) o;
                Map<String, String> params = new LinkedHashMap<>();
                ((Map<?, ?>) m.get("params")).forEach((k, v) -> params.put((String) k, (String) v));
                configurations.add(new TrialSchedule.Configuration((String) m.get("benchmark"), (String) m.get("class"),
                        (String) m.get("mode"), params, ((Double) m.get("forks")).intValue(),
                        (Double) m.get("estimateSeconds"), side));
            }
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException("listing the configurations failed: " + RunMojo.firstError(output));
        }
        if (configurations.isEmpty()) {
            throw new MojoFailureException("the selection holds no configuration (check -Djmh.include and -Djmh.p values)");
        }
        return configurations;
    }

    private Map<String, Double> fork(Path work, String id, String driverPath, List<String> jmhArgs,
                                     TrialSchedule.Configuration c) throws Exception {
        Properties spec = new Properties();
        for (int i = 0; i < jmhArgs.size(); i++) {
            spec.setProperty("arg." + i, jmhArgs.get(i));
        }
        spec.setProperty("benchmark", c.benchmark());
        spec.setProperty("mode", c.mode());
        c.params().forEach((k, v) -> spec.setProperty("param." + k, v));
        Techniques.Warmup warmup = Techniques.Warmup.of(warmups, c);
        if (warmup != null) {
            spec.setProperty("warmup.iterations", String.valueOf(warmup.iterations()));
            spec.setProperty("warmup.time", warmup.time());
        }
        Path json = work.resolve(id + ".json");
        spec.setProperty("out.json", json.toString());
        spec.setProperty("out.ser", work.resolve(id + ".ser").toString());
        Path specFile = work.resolve(id + ".properties");
        try (Writer w = Files.newBufferedWriter(specFile, StandardCharsets.UTF_8)) {
            spec.store(w, null);
        }
        List<String> command = List.of(java, "-cp", driverPath, FORK, specFile.toString());
        if (oneCpu != null && options.onOneCpu(c.benchmark())) {
            command = oneCpu.wrap(command);
        }
        tail.setLength(0);
        int exit = stream(command);
        if (exit != 0) {
            String out = tail.toString();
            int at = out.indexOf(UNAVAILABLE);
            if (at >= 0) {
                String reason = out.substring(at + UNAVAILABLE.length()).lines().findFirst().orElse("").trim();
                throw new TrialSchedule.Unavailable(reason);
            }
            throw new MojoFailureException(RunMojo.failureReason(exit, out));
        }
        return scores(json);
    }

    /**
     * The fork's primary score (key ""), its best measured iteration (key {@link TrialSchedule#BEST}:
     * the highest throughput or the lowest time; NaN in other modes) and every secondary metric's
     * score, from its JMH JSON.
     */
    static Map<String, Double> scores(Path json) throws IOException {
        List<?> results = (List<?>) Json.read(Files.readString(json, StandardCharsets.UTF_8));
        Map<?, ?> r = (Map<?, ?>) results.get(0);
        Map<String, Double> scores = new LinkedHashMap<>();
        Map<?, ?> primary = (Map<?, ?>) r.get("primaryMetric");
        scores.put(TrialSchedule.PRIMARY, number(primary.get("score")));
        scores.put(TrialSchedule.BEST, best(String.valueOf(r.get("mode")), primary.get("rawData")));
        if (r.get("secondaryMetrics") instanceof Map<?, ?> secondary) {
            secondary.forEach((k, v) -> scores.put((String) k, number(((Map<?, ?>) v).get("score"))));
        }
        return scores;
    }

    /** The best of a fork's measured iterations: the highest throughput, the lowest average time. */
    static double best(String mode, Object rawData) {
        boolean higher = "thrpt".equals(mode);
        if (!(higher || "avgt".equals(mode)) || !(rawData instanceof List<?> forks)) {
            return Double.NaN;
        }
        double out = Double.NaN;
        for (Object fork : forks) {
            if (fork instanceof List<?> iterations) {
                for (Object x : iterations) {
                    double v = number(x);
                    if (Double.isFinite(v) && (Double.isNaN(out) || (higher ? v > out : v < out))) {
                        out = v;
                    }
                }
            }
        }
        return out;
    }

    private static double number(Object o) {
        return o instanceof Double d ? d : Double.NaN;
    }

    private void merge(Path work, String driverPath, TrialSchedule schedule, Map<String, Path> serByEntry,
                       ResultFiles files) throws MojoFailureException {
        StringBuilder list = new StringBuilder();
        for (TrialSchedule.Entry e : schedule.schedule()) {
            String side = e.configuration().side() == null ? "-" : e.configuration().side();
            list.append(side).append('\t').append(serByEntry.get(e.group() + "/" + e.trial() + "/" + e.order())).append('\n');
        }
        Path listFile = work.resolve("forks.tsv");
        try {
            Files.writeString(listFile, list.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoFailureException("cannot write " + listFile + ": " + e.getMessage(), e);
        }
        String output = capture(List.of(java, "-cp", driverPath, MERGE,
                files.partial().toString(), listFile.toString()));
        if (!Files.isRegularFile(files.partial())) {
            throw new MojoFailureException("merging the forks failed: " + RunMojo.firstError(output));
        }
    }

    /** Runs a helper JVM to its end and returns its output; a non-zero exit fails with its first error. */
    private String capture(List<String> command) throws MojoFailureException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).directory(base.toFile()).start();
            current = p;
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            current = null;
            if (exit != 0) {
                throw new MojoFailureException(command.get(3) + " failed: " + RunMojo.firstError(out));
            }
            return out;
        } catch (IOException e) {
            throw new MojoFailureException("cannot start " + java + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoFailureException("interrupted; the run was stopped and nothing was stored", e);
        }
    }

    /** Runs one fork, streaming its output line by line (less JMH's lock warning) and keeping its tail. */
    private int stream(List<String> command) throws MojoFailureException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).directory(base.toFile()).start();
            current = p;
            copyLines(p.getInputStream(), System.out);
            int exit = p.waitFor();
            current = null;
            return exit;
        } catch (IOException e) {
            throw new MojoFailureException("cannot start a fork: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoFailureException("interrupted; the run was stopped and nothing was stored", e);
        }
    }

    private void copyLines(InputStream in, OutputStream out) throws IOException {
        StringBuilder line = new StringBuilder();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            String s = new String(buf, 0, n, StandardCharsets.UTF_8);
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                line.append(ch);
                if (ch == '\n') {
                    emit(line.toString(), out);
                    line.setLength(0);
                }
            }
            // JMH writes an iteration's label before its score: show it without waiting for the line's end.
            if (line.length() > 0 && !line.toString().contains(LOCK_WARNING.substring(0, 9))) {
                emit(line.toString(), out);
                line.setLength(0);
            }
        }
        if (line.length() > 0) {
            emit(line.toString(), out);
        }
        out.flush();
    }

    private void emit(String text, OutputStream out) throws IOException {
        tail.append(text);
        if (tail.length() > 200_000) {
            tail.delete(0, tail.length() - 100_000);
        }
        if (!text.contains(LOCK_WARNING)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    /** Maven's own launcher, for the build at the other ref. */
    private static String mvn() {
        String home = System.getProperty("maven.home");
        Path launcher = home == null ? null : Path.of(home, "bin", "mvn");
        return launcher != null && Files.isExecutable(launcher) ? launcher.toString() : "mvn";
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format("%d:%02d", s / 60, s % 60);
    }

    private static String pluginJar() throws MojoFailureException {
        try {
            return Path.of(TrialRun.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | RuntimeException e) {
            throw new MojoFailureException("cannot locate the plugin's own jar for the trial driver: " + e.getMessage());
        }
    }

    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // Best effort: the folder is hidden and named after the run.
                }
            });
        } catch (IOException ignored) {
            // Best effort, as above.
        }
    }
}
