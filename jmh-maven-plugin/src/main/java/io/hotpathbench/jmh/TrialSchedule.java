package io.hotpathbench.jmh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Runs the trials of one run: which fork runs when, in which order, and what the clock allows.
 * What to measure and how many trials each part gets is not decided here: {@code scripts/plan.py}
 * answers it from the suite's rules ({@link PlanScript}), as groups of configurations, each with its
 * steps (a number of trials that run the same members, in a phase and a priority), and for a
 * {@code -Djmh.gate} run its looks, at each of which it judges which configurations are still needed.
 *
 * <p>In a trial a group runs one fork of each member of the step back to back, in a fresh random
 * order, so the configurations one comparison needs share the same minutes of the machine. The steps
 * run phase by phase, priority by priority; within one, each next trial goes to the open step
 * furthest from its trials (the smallest share done, ties in random order), so cheap and expensive
 * groups advance together. With a budget, a group whose next trial no longer fits ends there
 * ("budget", or "skipped: the budget was spent" when it never started) and takes no later step.
 */
final class TrialSchedule {

    /** One configuration: a benchmark method, a mode, its params and (two-commit runs) a side. */
    record Configuration(String benchmark, String cls, String mode, Map<String, String> params,
                         double estimateSeconds, String side) {

        String method() {
            return benchmark.substring(benchmark.lastIndexOf('.') + 1);
        }

        String label() {
            return benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1)
                    + " " + params + (side == null ? "" : " side=" + side);
        }

        /** Whether {@code key} ({@code benchmark}, {@code mode}, {@code params}, {@code side}, as plan.py names one) is this. */
        boolean is(Map<?, ?> key) {
            return benchmark.equals(key.get("benchmark")) && mode.equals(key.get("mode"))
                    && params.equals(key.get("params")) && Objects.equals(side, key.get("side"));
        }
    }

    /** {@code trials} trials of one group that each run one fork of every one of {@code members}. */
    record Step(int phase, int priority, List<Configuration> members, int trials) {
    }

    /** Thrown by a fork whose technique cannot run here (e.g. no Redis can start). */
    static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason);
        }
    }

    /** Runs one fork and returns how long it took, setup included. */
    interface Forks {
        double run(Configuration c, Group g, int trial, int order) throws Unavailable, Exception;
    }

    /** What a gate's look found: the configurations an undecided check still needs, and each check's decision. */
    record Look(Set<Configuration> open, List<Map<String, Object>> checks) {
    }

    /** Judges a gate run at a look, from the forks run so far ({@code trials}: the trial count reached). */
    interface Judge {
        Look at(int trials) throws Exception;
    }

    /** A group as the schedule runs it. */
    static final class Group {
        final String id;
        final String label;
        final List<Configuration> members;
        final List<Step> steps;
        final int minTrials;
        final List<String> cited;
        final boolean headline;
        final List<String> checks;
        final Map<String, Object> record;
        final Map<Configuration, Integer> forks = new LinkedHashMap<>();
        final Map<Configuration, Double> seconds = new LinkedHashMap<>();
        final Map<Step, Integer> done = new java.util.IdentityHashMap<>();
        final Set<Configuration> open;
        /** The step whose trial runs now (null in a gate's rounds). */
        Step current;
        int trials;
        String ended = "";

        /**
         * {@code record}: what plan.py said of the group beyond what the schedule needs (its params),
         * for the provenance.
         */
        Group(String id, String label, List<Configuration> members, List<Step> steps, int minTrials, List<String> cited,
              boolean headline, List<String> checks, Map<String, Object> record) {
            this.id = id;
            this.label = label;
            this.members = List.copyOf(members);
            this.steps = List.copyOf(steps);
            this.minTrials = minTrials;
            this.cited = List.copyOf(cited);
            this.headline = headline;
            this.checks = List.copyOf(checks);
            this.record = record;
            this.open = new LinkedHashSet<>(members);
            members.forEach(m -> forks.put(m, 0));
            steps.forEach(s -> done.put(s, 0));
        }

        Configuration first() {
            return members.get(0);
        }

        /** Expected seconds of one trial of {@code which}: each one's last fork, else its estimate. */
        double estimate(Collection<Configuration> which) {
            double s = 0;
            for (Configuration c : which) {
                s += seconds.getOrDefault(c, c.estimateSeconds());
            }
            return s;
        }

        /** How many trials both {@code a} and {@code b} ran a fork in. */
        int together(Configuration a, Configuration b, List<Entry> schedule) {
            Set<Integer> ta = new LinkedHashSet<>();
            Set<Integer> tb = new LinkedHashSet<>();
            for (Entry e : schedule) {
                if (e.group().equals(id) && e.configuration().equals(a)) {
                    ta.add(e.trial());
                } else if (e.group().equals(id) && e.configuration().equals(b)) {
                    tb.add(e.trial());
                }
            }
            ta.retainAll(tb);
            return ta.size();
        }
    }

    /** One executed fork, for the provenance. */
    record Entry(int trial, String group, int order, Configuration configuration, int fork, String startedUtc,
                 double seconds) {
    }

    private final List<Group> groups;
    private final Random random;
    private final Duration budget;
    private final boolean fixed;
    private final LongSupplier nanos;
    private final List<Entry> schedule = new ArrayList<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final List<Map<String, Object>> checks = new ArrayList<>();
    private final long start;
    private List<Integer> looks;
    private Judge judge;
    private int looksReached;

    /**
     * {@code budget}: the time the schedule may take, null for none (a fixed number of trials, an
     * uncapped gate); {@code fixed}: the steps are a fixed number of trials, which a group that ran
     * them all is recorded as ("fixed" instead of "minimum").
     */
    TrialSchedule(List<Group> groups, long seed, Duration budget, boolean fixed, LongSupplier nanos) {
        this.groups = groups;
        this.random = new Random(seed);
        this.budget = budget;
        this.fixed = fixed;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
    }

    /**
     * The configurations of a two-commit run: each one that exists on both sides, once per side
     * ({@code base} first); one that exists on one side only is named through {@code warn} and left out.
     */
    static List<Configuration> sides(List<Configuration> base, List<Configuration> head,
                                     java.util.function.Consumer<String> warn) {
        Map<List<Object>, Configuration> heads = new LinkedHashMap<>();
        head.forEach(c -> heads.put(List.of(c.benchmark(), c.mode(), c.params()), c));
        List<Configuration> out = new ArrayList<>();
        for (Configuration b : base) {
            Configuration h = heads.remove(List.of(b.benchmark(), b.mode(), b.params()));
            if (h == null) {
                warn.accept("only at the other ref, not measured: " + b.label());
                continue;
            }
            out.add(b);
            out.add(h);
        }
        heads.values().forEach(h -> warn.accept("only in this tree, not measured: " + h.label()));
        return out;
    }

    /**
     * Makes this a gate's schedule: every group runs round by round to each of {@code looks}, where
     * {@code judge} says which configurations are still needed; a group none of whose members is
     * stops there.
     */
    TrialSchedule gate(List<Integer> looks, Judge judge) {
        this.looks = List.copyOf(looks);
        this.judge = judge;
        return this;
    }

    /** Runs the whole schedule. */
    void run(Forks forks) throws Exception {
        if (looks != null) {
            runGate(forks);
            return;
        }
        List<List<Integer>> buckets = groups.stream().flatMap(g -> g.steps.stream())
                .map(s -> List.of(s.phase(), s.priority())).distinct()
                .sorted(Comparator.<List<Integer>>comparingInt(b -> b.get(0)).thenComparingInt(b -> b.get(1))).toList();
        for (List<Integer> bucket : buckets) {
            List<Map.Entry<Group, Step>> steps = new ArrayList<>();
            for (Group g : groups) {
                for (Step s : g.steps) {
                    if (s.phase() == bucket.get(0) && s.priority() == bucket.get(1)) {
                        steps.add(Map.entry(g, s));
                    }
                }
            }
            spend(steps, forks);
        }
        groups.stream().filter(g -> g.ended.isEmpty()).forEach(g -> g.ended = fixed ? "fixed" : "minimum");
    }

    /**
     * Runs {@code steps} (one phase and priority) to their trials: each next trial goes to the open
     * step with the smallest share of its trials done (ties in random order). A group whose next
     * trial does not fit the budget ends, and takes no later step either.
     */
    private void spend(List<Map.Entry<Group, Step>> steps, Forks forks) throws Exception {
        while (true) {
            List<Map.Entry<Group, Step>> open = new ArrayList<>();
            for (Map.Entry<Group, Step> e : shuffled(steps)) {
                Group g = e.getKey();
                Step s = e.getValue();
                if (!g.ended.isEmpty() || skipped.containsKey(g.id) || g.done.get(s) >= s.trials()) {
                    continue;
                }
                if (!fits(g.estimate(s.members()))) {
                    g.ended = g.trials == 0 ? "skipped: the budget was spent" : "budget";
                    continue;
                }
                open.add(e);
            }
            if (open.isEmpty()) {
                return;
            }
            Map.Entry<Group, Step> next = open.stream()
                    .min(Comparator.comparingDouble(e -> (double) e.getKey().done.get(e.getValue()) / e.getValue().trials()))
                    .orElseThrow();
            Group g = next.getKey();
            g.current = next.getValue();
            if (trial(g, next.getValue().members(), forks)) {
                g.done.merge(next.getValue(), 1, Integer::sum);
            }
        }
    }

    /**
     * The gate's schedule: every open group gets one trial per round, in a fresh random order,
     * until it reaches the next look; there the judge says which configurations are still needed,
     * and a group left with none stops, the others go on with the members still needed. A group
     * still open at the last look ends there. With a budget (-Djmh.budget), the gate is capped: when
     * the open groups cannot all reach the next look within it (their trials still to run, at their
     * last forks' durations), the cap brings that look forward: the open groups run the whole rounds
     * that still fit and are judged there, and end, decided or not ("budget: ..."). Where the look
     * falls is set by the clock, never by the changes measured; the judge's rule says at which level
     * a count between two looks is judged.
     */
    private void runGate(Forks forks) throws Exception {
        for (int look : looks) {
            List<Group> toGo = groups.stream().filter(g -> g.ended.isEmpty() && !skipped.containsKey(g.id)).toList();
            if (toGo.isEmpty()) {
                break;
            }
            if (budget != null && toGo.stream().allMatch(g -> g.trials > 0)) {
                double need = toGo.stream().mapToDouble(g -> Math.max(0, look - g.trials) * g.estimate(g.open)).sum();
                if (!fits(need)) {
                    bringForward(toGo, look, need, forks);
                    return;
                }
            }
            while (true) {
                List<Group> open = groups.stream()
                        .filter(g -> g.ended.isEmpty() && !skipped.containsKey(g.id) && g.trials < look).toList();
                if (open.isEmpty()) {
                    break;
                }
                for (Group g : shuffled(open)) {
                    trial(g, List.copyOf(g.open), forks);
                }
            }
            judge(look);
            for (Group g : groups) {
                if (g.ended.isEmpty() && !skipped.containsKey(g.id) && g.open.isEmpty()) {
                    g.ended = (g.checks.isEmpty() ? "no gain check, stopped at " : "decided at ") + look + " trials";
                }
            }
        }
        groups.stream().filter(g -> g.ended.isEmpty()).forEach(g -> g.ended = "undecided at the last look");
    }

    /**
     * The cap's end of a gate: {@code look} does not fit, so the open groups run the whole rounds
     * that do (each round's cost from their last forks, checked before it starts), stopping a trial
     * short of the look, are judged there and end.
     */
    private void bringForward(List<Group> open, int look, double need, Forks forks) throws Exception {
        int from = open.stream().mapToInt(g -> g.trials).max().orElse(0);
        int rounds = 0;
        while (from + rounds + 1 < look && fits(open.stream().mapToDouble(g -> g.estimate(g.open)).sum())) {
            for (Group g : shuffled(open)) {
                trial(g, List.copyOf(g.open), forks);
            }
            rounds++;
        }
        if (rounds > 0) {
            judge(from + rounds);
        }
        String past = "the look at " + look + " needed " + Math.round(need / 60) + " min more, past the "
                + budget.toMinutes() + "-min cap";
        for (Group g : open) {
            if (rounds == 0) {
                g.ended = "budget: undecided at " + g.trials + " trials; " + past;
            } else {
                g.ended = "budget: " + (g.open.isEmpty() ? "decided" : "undecided") + " at " + g.trials
                        + " trials, the look at " + look + " brought forward (" + past + ")";
            }
        }
    }

    private void judge(int trials) throws Exception {
        Look answer = judge.at(trials);
        looksReached++;
        checks.clear();
        checks.addAll(answer.checks());
        for (Group g : groups) {
            if (g.ended.isEmpty()) {
                g.open.retainAll(answer.open());
            }
        }
    }

    private boolean fits(double seconds) {
        return budget == null || elapsedSeconds() + seconds <= budget.toSeconds();
    }

    /** The budget of this schedule (-Djmh.budget, the default one, or a gate's cap), or null for none. */
    Duration budget() {
        return budget;
    }

    double elapsedSeconds() {
        return (nanos.getAsLong() - start) / 1e9;
    }

    /** Runs one trial of {@code g} with {@code members}; false when its technique could not run here. */
    private boolean trial(Group g, List<Configuration> members, Forks forks) throws Exception {
        if (skipped.containsKey(g.id)) {
            return false;
        }
        int trial = g.trials + 1;
        int order = 0;
        for (Configuration c : shuffled(members)) {
            String started = java.time.Instant.now().toString();
            long t0 = nanos.getAsLong();
            double secs;
            try {
                secs = forks.run(c, g, trial, order);
            } catch (Unavailable e) {
                skipClass(c.cls(), e.getMessage());
                return false;
            }
            if (!(secs > 0)) {
                secs = (nanos.getAsLong() - t0) / 1e9;
            }
            g.seconds.put(c, secs);
            int fork = g.forks.merge(c, 1, Integer::sum) - 1;
            schedule.add(new Entry(trial, g.id, order, c, fork, started, secs));
            order++;
        }
        g.trials = trial;
        return true;
    }

    /**
     * A technique that cannot run here is skipped whole, with its reason; forks of it that already
     * ran are dropped from the schedule, so no group is left with unequal trials.
     */
    private void skipClass(String cls, String reason) {
        for (Group g : groups) {
            if (g.first().cls().equals(cls)) {
                skipped.put(g.id, reason);
                g.ended = "skipped: " + reason;
                g.forks.replaceAll((c, n) -> 0);
                g.trials = 0;
            }
        }
        schedule.removeIf(e -> Objects.equals(e.configuration().cls(), cls));
    }

    private <T> List<T> shuffled(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        Collections.shuffle(copy, random);
        return copy;
    }

    List<Group> groups() {
        return groups;
    }

    /** The gate's looks, or null when this is not a gate's schedule. */
    List<Integer> looks() {
        return looks;
    }

    /** How many looks the gate judged (a look brought forward included). */
    int looksReached() {
        return looksReached;
    }

    /** Each check's decision at the last look judged, as plan.py gave it. */
    List<Map<String, Object>> checks() {
        return checks;
    }

    List<Entry> schedule() {
        return schedule;
    }

    /** Benchmark classes skipped whole, with the reason. */
    Map<String, String> skippedClasses() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Group g : groups) {
            if (skipped.containsKey(g.id)) {
                out.put(g.first().cls(), skipped.get(g.id));
            }
        }
        return out;
    }

    /** How the run as a whole ended: gate, fixed, budget (some group was cut short) or minimum. */
    String ended() {
        if (looks != null) {
            return "gate";
        }
        if (fixed) {
            return "fixed";
        }
        return groups.stream().anyMatch(g -> g.ended.equals("budget") || g.ended.startsWith("skipped: the budget"))
                ? "budget" : "minimum";
    }
}
