package io.hotpathbench.jmh;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoFailureException;

/**
 * One run of the trial protocol (see {@link TrialSchedule}): lists the configurations JMH
 * enumerates, asks the suite's rules ({@code scripts/plan.py}, {@link PlanScript}) what to measure
 * and how, runs every fork as its own JMH process ({@link TrialFork}, one fork, every param pinned),
 * merges the forks into one JMH JSON ({@link TrialMerge}) and writes the provenance with the
 * schedule. It computes no figure: the scripts do, from the result and the provenance. Nothing is left behind on failure or Ctrl-C: the fork in flight and its children are
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

    private static final String LOCK_WARNING = "WARNING: JMH lock is ignored by user request";

    private final AbstractMojo mojo;
    private final JmhOptions options;
    private final String java;
    private final String classpath;
    private final Path base;
    private final Path resultsDir;
    private volatile Process current;
    private volatile Against against;
    private OneCpu oneCpu;
    /** Configurations' own warm-ups from the technique files, through plan.py (none when the user gave one). */
    private Map<TrialSchedule.Configuration, Warmup> warmups = Map.of();
    private final StringBuilder tail = new StringBuilder();

    TrialRun(AbstractMojo mojo, JmhOptions options, String java, String classpath, Path base, Path resultsDir) {
        this.mojo = mojo;
        this.options = options;
        this.java = java;
        this.classpath = classpath;
        this.base = base;
        this.resultsDir = resultsDir;
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
        String driverPath = classpath + File.pathSeparator + Instrument.headJar();
        List<String> jmhArgs = baseArguments();
        String basePath = against == null ? null : against.classpath + File.pathSeparator + against.instrument.classPath();
        List<TrialSchedule.Configuration> configurations;
        if (against == null) {
            configurations = plan(work, driverPath, jmhArgs, null);
        } else {
            configurations = TrialSchedule.sides(plan(work, basePath, jmhArgs, "base"), plan(work, driverPath, jmhArgs, "head"),
                    line -> mojo.getLog().warn(line));
            if (configurations.isEmpty()) {
                throw new MojoFailureException("-Djmh.against=" + options.against()
                        + ": no configuration of the selection exists on both sides");
            }
        }
        PlanScript rules = new PlanScript(base);
        Map<?, ?> answer = rules.ask("schedule", scheduleRequest(configurations), work);
        List<TrialSchedule.Group> groups;
        try {
            groups = groups(answer, configurations);
            warmups = options.warmupGiven() ? Map.of() : warmups(answer, configurations);
        } catch (RuntimeException e) {
            throw new MojoFailureException(PlanScript.SCRIPT + " schedule answered what this plugin cannot read ("
                    + e + "): build the plugin from this checkout (mvn install)");
        }
        List<String> warmed = warmups.values().stream().map(Warmup::label).distinct().toList();
        long seed = options.seed() != null ? options.seed() : new SecureRandom().nextLong();
        boolean fixed = options.trials() != null && options.budget() == null;
        Duration budget = options.budget() != null ? options.budget() : fixed || options.gate() ? null : RunDefaults.BUDGET;
        TrialSchedule schedule = new TrialSchedule(groups, seed, budget, fixed, System::nanoTime);
        Map<?, ?> gate = answer.get("gate") instanceof Map<?, ?> g ? g : null;
        Map<String, Path> serByEntry = new LinkedHashMap<>();
        if (gate != null) {
            List<Integer> looks = ((List<?>) gate.get("looks")).stream().map(x -> ((Number) x).intValue()).toList();
            schedule.gate(looks, trials -> look(rules, work, driverPath, schedule, serByEntry, seed, gate, properties,
                    configurations, trials));
        }
        long citedGroups = groups.stream().filter(g -> !g.cited.isEmpty()).count();
        mojo.getLog().info("JMH " + jmhVersion + ": " + configurations.size() + " configuration(s), "
                + groups.stream().mapToInt(g -> g.members.size()).sum() + " measured, in " + groups.size()
                + " group(s), " + citedGroups + " holding a cited figure; shuffle seed " + seed);
        mojo.getLog().info("schedule (" + PlanScript.SCRIPT + "): " + answer.get("describe")
                + (budget == null ? "" : "; within " + budget.toMinutes() + " min" + (options.budget() == null
                ? " (the default budget; -Djmh.budget=T for another)" : "")));
        mojo.getLog().info("options: " + String.join(" ", jmhArgs));
        if (!warmed.isEmpty()) {
            mojo.getLog().info("warm-up from the technique files (-Djmh.wi/-Djmh.w override it): " + String.join("; ", warmed));
        }
        if (oneCpu != null) {
            mojo.getLog().info("forks of benchmarks matching '" + options.oneCpu() + "' run on CPU " + oneCpu.cpu
                    + " with every process they start (-Djmh.oneCpu: " + oneCpu.taskset + " -c " + oneCpu.cpu + ")");
        }

        int[] count = {0};
        try {
            schedule.run((c, g, trial, order) -> {
                count[0]++;
                String id = String.format("fork-%04d", count[0]);
                mojo.getLog().info(String.format("%strial %d of %s (min %d), fork %d, %s elapsed: %s",
                        g.current == null ? "" : "phase " + g.current.phase() + ", ", trial, g.id, g.minTrials, order + 1,
                        clock(schedule.elapsedSeconds()), c.label()));
                long t0 = System.nanoTime();
                fork(work, id, "base".equals(c.side()) ? basePath : driverPath, jmhArgs, c);
                serByEntry.put(g.id + "/" + trial + "/" + order, work.resolve(id + ".ser"));
                return (System.nanoTime() - t0) / 1e9;
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
        merge(work, driverPath, schedule, serByEntry, files.partial());
        Instant end = Instant.now();

        ForkJvm.Described described = ForkJvm.describe(files.partial(), mojo.getLog()::warn);
        Map<String, Object> provenance = Provenance.of(files, start, end, git, selectedBy, forkJava, probe, described,
                jmhVersion, java, jmhArgs, properties, selected);
        provenance.put("mavenJdk", Environment.mavenJdk(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        provenance.put("protocol", "trials");
        provenance.put("trialsEngine", ENGINE);
        provenance.put("instrument", Instrument.record(against == null ? null : against.instrument));
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
        if (gate != null) {
            provenance.put("gate", TrialRecord.gate(schedule, gate));
        }
        for (TrialSchedule.Group g : groups) {
            mojo.getLog().info(TrialRecord.summary(g));
        }
        logCited(answer, schedule, configurations);
        try {
            files.publish(Json.write(provenance));
        } catch (IOException e) {
            files.discard();
            throw new MojoFailureException("run finished but its result was not stored: " + e.getMessage());
        }
        String result = base.relativize(files.result().toAbsolutePath()).toString();
        mojo.getLog().info("results: " + result);
        mojo.getLog().info("provenance: " + base.relativize(files.provenance().toAbsolutePath()));
        mojo.getLog().info("figures: " + (gate != null ? "python3 scripts/gate.py " + result + " (the gate's verdicts)"
                : against != null ? "python3 scripts/compare.py " + result + " (each change, head against base)"
                : "python3 scripts/report.py (every run in results/: REPORT.md, cited.json, charts)"));
    }

    /** What plan.py's schedule needs: the configurations JMH enumerated and the run's options. */
    private Map<String, Object> scheduleRequest(List<TrialSchedule.Configuration> configurations) {
        List<Object> list = new ArrayList<>();
        configurations.forEach(c -> list.add(TrialRecord.configuration(c)));
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("claims", options.claims());
        o.put("gate", options.gate());
        o.put("gate_figure", options.gateBest() ? "best" : "mean");
        o.put("trials", options.trials());
        o.put("budget", options.budget() != null);
        o.put("quick", options.isQuick());
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("configurations", list);
        request.put("options", o);
        return request;
    }

    /** The schedule's groups from plan.py's answer: indices into {@code configurations}. */
    static List<TrialSchedule.Group> groups(Map<?, ?> answer, List<TrialSchedule.Configuration> configurations) {
        List<TrialSchedule.Group> out = new ArrayList<>();
        for (Object o : (List<?>) answer.get("groups")) {
            Map<?, ?> g = (Map<?, ?>) o;
            List<TrialSchedule.Step> steps = new ArrayList<>();
            for (Object s : (List<?>) g.get("steps")) {
                Map<?, ?> sm = (Map<?, ?>) s;
                steps.add(new TrialSchedule.Step(integer(sm.get("phase")), integer(sm.get("priority")),
                        members(sm.get("members"), configurations), integer(sm.get("trials"))));
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("params", g.get("params"));
            out.add(new TrialSchedule.Group((String) g.get("id"), (String) g.get("label"),
                    members(g.get("members"), configurations), steps, integer(g.get("min_trials")),
                    strings(g.get("cited")), Boolean.TRUE.equals(g.get("headline")), strings(g.get("checks")), record));
        }
        return out;
    }

    /** A configuration's own warm-up, from its technique file through plan.py. */
    record Warmup(int iterations, String time, String label) {
    }

    static Map<TrialSchedule.Configuration, Warmup> warmups(Map<?, ?> answer, List<TrialSchedule.Configuration> configurations) {
        Map<TrialSchedule.Configuration, Warmup> out = new LinkedHashMap<>();
        for (Object o : (List<?>) answer.get("warmups")) {
            Map<?, ?> w = (Map<?, ?>) o;
            out.put(configurations.get(integer(w.get("configuration"))),
                    new Warmup(integer(w.get("iterations")), (String) w.get("time"), (String) w.get("label")));
        }
        return out;
    }

    private static List<TrialSchedule.Configuration> members(Object indices, List<TrialSchedule.Configuration> configurations) {
        return ((List<?>) indices).stream().map(i -> configurations.get(integer(i))).toList();
    }

    private static List<String> strings(Object list) {
        return list == null ? List.of() : ((List<?>) list).stream().map(String::valueOf).toList();
    }

    private static int integer(Object o) {
        return ((Number) o).intValue();
    }

    /**
     * A gate's look: the forks so far merged into one JMH JSON with the provenance the scripts read
     * beside it (the rule, the schedule, the run's -Djmh properties), judged by plan.py.
     */
    private TrialSchedule.Look look(PlanScript rules, Path work, String driverPath, TrialSchedule schedule,
                                    Map<String, Path> serByEntry, long seed, Map<?, ?> gate, Map<String, String> properties,
                                    List<TrialSchedule.Configuration> configurations, int trials) throws MojoFailureException {
        Path json = work.resolve("look-" + trials + ".json");
        merge(work, driverPath, schedule, serByEntry, json);
        Map<String, Object> provenance = new LinkedHashMap<>();
        provenance.put("result", json.getFileName().toString());
        provenance.put("protocol", "trials");
        provenance.put("trialsEngine", ENGINE);
        provenance.put("trials", TrialRecord.of(schedule, seed, options, schedule.skippedClasses()));
        provenance.put("gate", TrialRecord.gate(schedule, gate));
        Map<String, Object> jmh = new LinkedHashMap<>();
        jmh.put("mavenProperties", new TreeMap<>(properties));
        provenance.put("jmh", jmh);
        try {
            Files.writeString(work.resolve("look-" + trials + ".provenance.json"), Json.write(provenance), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoFailureException("cannot write the look's provenance in " + work + ": " + e.getMessage(), e);
        }
        Map<?, ?> answer = rules.ask("look", Map.of("result", json.toString()), work);
        Set<TrialSchedule.Configuration> open = new LinkedHashSet<>();
        List<Map<String, Object>> checks = new ArrayList<>();
        try {
            for (Object key : (List<?>) answer.get("open")) {
                configurations.stream().filter(c -> c.is((Map<?, ?>) key)).forEach(open::add);
            }
            for (Object o : (List<?>) answer.get("checks")) {
                Map<String, Object> c = new LinkedHashMap<>();
                ((Map<?, ?>) o).forEach((k, v) -> c.put(String.valueOf(k), v));
                checks.add(c);
            }
        } catch (RuntimeException e) {
            throw new MojoFailureException(PlanScript.SCRIPT + " look answered what this plugin cannot read (" + e + ")");
        }
        mojo.getLog().info("look at " + trials + " trials (" + PlanScript.SCRIPT + " look): " + checks.stream()
                .map(c -> c.get("id") + " " + c.get("params") + " " + c.get("outcome")).collect(Collectors.joining("; "))
                + "; " + open.size() + " configuration(s) still needed");
        return new TrialSchedule.Look(open, checks);
    }

    /** How many trials each cited figure's two configurations ran together; no figure is computed here. */
    private void logCited(Map<?, ?> answer, TrialSchedule schedule, List<TrialSchedule.Configuration> configurations) {
        List<String> none = new ArrayList<>();
        int fewest = Integer.MAX_VALUE;
        String fewestId = null;
        int n = 0;
        for (Object o : (List<?>) answer.get("cited")) {
            Map<?, ?> c = (Map<?, ?>) o;
            TrialSchedule.Group g = schedule.groups().stream().filter(x -> x.id.equals(c.get("group"))).findFirst().orElse(null);
            if (g == null) {
                continue;
            }
            n++;
            int t = g.together(configurations.get(integer(c.get("variant"))), configurations.get(integer(c.get("baseline"))),
                    schedule.schedule());
            if (t == 0) {
                none.add((String) c.get("id"));
            } else if (t < fewest) {
                fewest = t;
                fewestId = (String) c.get("id");
            }
        }
        if (n > 0) {
            mojo.getLog().info(n + " cited figure(s) in this selection" + (fewestId == null ? ""
                    : "; the fewest paired trials: " + fewest + " (" + fewestId + ")")
                    + (none.isEmpty() ? "" : "; without a trial: " + String.join(", ", none)));
        }
    }

    /** The run's JMH arguments; each fork adds its benchmark, mode and params. */
    private List<String> baseArguments() {
        List<String> args = new ArrayList<>(options.arguments());
        if (!options.profilers().isEmpty()) {
            args.add("-prof");
            args.add(ForkContract.NOISE);
        }
        return args;
    }

    private List<TrialSchedule.Configuration> plan(Path work, String driverPath, List<String> jmhArgs, String side)
            throws MojoFailureException {
        Path out = work.resolve("plan" + (side == null ? "" : "-" + side) + ".properties");
        List<String> command = new ArrayList<>(List.of(java, "-cp", driverPath, ForkContract.PLAN, out.toString()));
        command.addAll(jmhArgs);
        if (options.include() != null) {
            command.add(options.include());
        }
        String output = capture(command);
        List<TrialSchedule.Configuration> configurations;
        try {
            configurations = Instrument.readPlan(out, side);
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException("listing the configurations failed: " + JmhProcess.firstError(output)
                    + (e instanceof IllegalStateException ? " (" + e.getMessage() + ")" : ""));
        }
        if (configurations.isEmpty()) {
            throw new MojoFailureException("the selection holds no configuration (check -Djmh.include and -Djmh.p values)");
        }
        return configurations;
    }

    private void fork(Path work, String id, String driverPath, List<String> jmhArgs,
                      TrialSchedule.Configuration c) throws Exception {
        Path specFile = work.resolve(id + ".properties");
        Warmup warmup = warmups.get(c);
        Instrument.writeSpec(specFile, jmhArgs, c, warmup == null ? null : warmup.iterations(),
                warmup == null ? null : warmup.time(), work.resolve(id + ".ser"));
        List<String> command = List.of(java, "-cp", driverPath, ForkContract.FORK, specFile.toString());
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
            throw new MojoFailureException(JmhProcess.failureReason(exit, out));
        }
    }

    /** Merges the forks run so far into one JMH JSON at {@code out} (TrialMerge, JMH's own writer). */
    private void merge(Path work, String driverPath, TrialSchedule schedule, Map<String, Path> serByEntry,
                       Path out) throws MojoFailureException {
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
        String output = capture(List.of(java, "-cp", driverPath, ForkContract.MERGE, out.toString(), listFile.toString()));
        if (!Files.isRegularFile(out)) {
            throw new MojoFailureException("merging the forks failed: " + JmhProcess.firstError(output));
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
                throw new MojoFailureException(command.get(3) + " failed: " + JmhProcess.firstError(out));
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
