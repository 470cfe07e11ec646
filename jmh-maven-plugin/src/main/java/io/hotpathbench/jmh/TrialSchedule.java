package io.hotpathbench.jmh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * The trials of one run, blocked by pair: which forks run, in which order, and when to stop.
 *
 * <p>A <em>group</em> is the configurations that one comparison needs: the variants of one method at
 * the same mode and other params, or the methods of one method pair (e.g. {@code jdkSplitFirst},
 * {@code jdkSplitLimitFirst} and {@code splitFirst}), each once per side in a two-commit run. In a trial a group runs one fork of every member back to back, in a fresh random
 * order; the groups of a round come in random order too. So both sides of every pair share the same
 * minutes of the machine, and fork k of every member of a group belongs to the group's trial k.
 *
 * <p>How trials, budget and quick combine:
 * <ul>
 *   <li>{@code -Djmh.trials=N} (or {@code -Djmh.quick}, which means one trial unless trials are
 *       given): every group runs exactly N trials, round by round; no budget applies.
 *   <li>Otherwise the budget ({@code -Djmh.budget}, default 35m) is spent in this order: first
 *       every cited group gets its minimum (the class's {@code @Fork} value), the groups holding a
 *       technique's headline figure ({@code answer.cite} in its file under
 *       {@code scripts/techniques/}) before those holding the other cited figures; then the same
 *       groups, headline ones first, get more trials until their cited figures are within their
 *       technique's precision; last, every other group gets trials up to its minimum. Each step runs
 *       one trial of the open group furthest from its minimum (fewest trials for its minimum, ties
 *       in random order), so cheap and expensive groups advance together; a group closes when its
 *       next trial no longer fits the budget, and one that never started is named as skipped in the
 *       log and the provenance. So one figure that never reaches its precision (a noisy variant)
 *       cannot starve the other cited figures of their minimum, and a small budget still gives
 *       every headline figure first.
 *   <li>{@code -Djmh.trials=N} together with an explicit {@code -Djmh.budget} makes N the minimum
 *       and keeps the budgeted extra trials.
 * </ul>
 */
final class TrialSchedule {

    /** One configuration: a benchmark method, a mode, its params and (two-commit runs) a side. */
    record Configuration(String benchmark, String cls, String mode, Map<String, String> params, int forks,
                         double estimateSeconds, String side) {

        String method() {
            return benchmark.substring(benchmark.lastIndexOf('.') + 1);
        }

        /** The params that place this configuration in its group: every param but the variant. */
        Map<String, String> shared() {
            Map<String, String> m = new LinkedHashMap<>(params);
            m.remove(VARIANT);
            return m;
        }

        String label() {
            return benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1)
                    + " " + params + (side == null ? "" : " side=" + side);
        }
    }

    /**
     * A figure the README or report cites: {@code variant} against {@code baseline} in one group, on
     * {@code metric} (null: the primary score).
     */
    record Pair(String id, Configuration variant, Configuration baseline, String metric, double target,
                boolean headline) {
    }

    /**
     * A gated claim's change of gain between two commits ({@code -Djmh.gate}): head's gain
     * ({@code variantHead} against {@code baselineHead}) over base's, paired by trial.
     */
    record Check(String id, Configuration variantHead, Configuration baselineHead, Configuration variantBase,
                 Configuration baselineBase) {
    }

    /**
     * The gate's looks (trial counts at which groups are judged), the share of alpha (0.05) each
     * spends, its non-inferiority margin and the fork figure its checks compare: each fork's mean
     * ({@link #PRIMARY}) or its best iteration ({@link #BEST}, -Djmh.gateFigure=best: the fast state
     * scripts/gate.py --fork-figure best judges). Look k is judged at one-sided level 1 - spend(k);
     * the spends sum to at most alpha, so by Bonferroni's inequality a loss at the margin passes at
     * any of the looks with probability at most alpha, however the looks fall.
     */
    record Gate(List<Integer> looks, List<Double> spend, double marginPct, String figure) {

        Gate {
            looks = List.copyOf(looks);
            spend = List.copyOf(spend);
            if (looks.isEmpty() || looks.size() != spend.size()) {
                throw new IllegalArgumentException("the gate needs one alpha share per look: looks " + looks + ", spend " + spend);
            }
            for (int i = 0; i < looks.size(); i++) {
                if (looks.get(i) < 2 || (i > 0 && looks.get(i) <= looks.get(i - 1))) {
                    throw new IllegalArgumentException("the gate's looks must rise from at least 2 trials: " + looks);
                }
                if (!(spend.get(i) > 0)) {
                    throw new IllegalArgumentException("each look must spend some alpha: " + spend);
                }
            }
            if (spend.stream().mapToDouble(Double::doubleValue).sum() > ALPHA + 1e-12) {
                throw new IllegalArgumentException("the looks spend more than alpha = " + ALPHA + ": " + spend);
            }
        }

        Gate(List<Integer> looks, double marginPct, String figure) {
            this(looks, even(looks.size()), marginPct, figure);
        }

        Gate(List<Integer> looks, double marginPct) {
            this(looks, marginPct, PRIMARY);
        }

        /** alpha spent evenly over n looks (plain Bonferroni). */
        static List<Double> even(int n) {
            return java.util.Collections.nCopies(n, ALPHA / n);
        }

        /** The one-sided level of look {@code index} (0-based): 1 - its share of alpha. */
        double level(int index) {
            return 1 - spend.get(index);
        }

        /**
         * The level a change of {@code n} trials is judged at: that of the look at n (the first
         * look's below it, the last's above it). Between two looks n is a look the gate's cap
         * brought forward (runGate): judged at the stricter of the two looks' levels, so that it
         * spends no more alpha than the look it replaced.
         */
        double levelAt(int n) {
            int index = 0;
            for (int i = 0; i < looks.size(); i++) {
                if (looks.get(i) <= n) {
                    index = i;
                }
            }
            if (looks.get(index) < n && index + 1 < looks.size()) {
                return Math.max(level(index), level(index + 1));
            }
            return level(index);
        }

        /**
         * The change's one-sided bounds at {@link #levelAt(int)} its trials, {low, high}: its 95%
         * two-sided interval (level 0.975) rescaled from its half-width by the ratio of t
         * quantiles, exactly that interval at level 0.975. NaN below two trials.
         */
        double[] bounds(PairedRatio change) {
            if (change.n() < 2) {
                return new double[] {Double.NaN, Double.NaN};
            }
            double level = levelAt(change.n());
            if (Math.abs(level - 0.975) < 1e-12) {
                return new double[] {change.low(), change.high()};
            }
            double scale = PairedRatio.tQuantile(level, change.n() - 1) / PairedRatio.t975(change.n() - 1);
            double mid = Math.log(change.ratio());
            double half = (Math.log(change.high()) - mid) * scale;
            return new double[] {Math.exp(mid - half), Math.exp(mid + half)};
        }

        /** Decided: the bounds lie wholly above 1 - margin (shown within it) or wholly below (shown beyond). */
        boolean decided(PairedRatio change) {
            double bar = 1 - marginPct / 100;
            double[] b = bounds(change);
            return b[0] > bar || b[1] < bar;
        }
    }

    /** The gate's alpha: the share of pairs that lost exactly the margin and may still pass. */
    static final double ALPHA = 1 - PairedRatio.CONFIDENCE;

    /** The key of the primary score in {@link Outcome#scores()}. */
    static final String PRIMARY = "";

    /**
     * The key of the primary score's best measured iteration in {@link Outcome#scores()} (the
     * highest throughput, the lowest time): no JMH metric is named with a leading space.
     */
    static final String BEST = " best iteration";

    /**
     * What one fork measured: the mean of its measured iterations for the primary score (key
     * {@link #PRIMARY}) and every secondary metric, and how long the fork took, setup included.
     */
    record Outcome(Map<String, Double> scores, double seconds) {
    }

    /** Thrown by a fork whose technique cannot run here (e.g. no Redis can start). */
    static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason);
        }
    }

    /** Runs one fork. */
    interface Forks {
        Outcome run(Configuration c, Group g, int trial, int order) throws Unavailable, Exception;
    }

    static final String VARIANT = "variant";

    /** No group runs more trials than this, whatever the budget: a figure that is not precise by then is reported as it is. */
    static final int MAX_TRIALS = 50;

    /** A group's state as the schedule runs it. */
    static final class Group {
        final String id;
        final List<Configuration> members;
        final List<Pair> cited = new ArrayList<>();
        final List<Check> checks = new ArrayList<>();
        final int minTrials;
        final Map<Configuration, List<Map<String, Double>>> scores = new LinkedHashMap<>();
        final Map<Configuration, Double> seconds = new LinkedHashMap<>();
        int trials;
        String ended = "";

        Group(String id, List<Configuration> members, int minTrials) {
            this.id = id;
            this.members = members;
            this.minTrials = minTrials;
            members.forEach(m -> scores.put(m, new ArrayList<>()));
        }

        Configuration first() {
            return members.get(0);
        }

        List<Double> values(Configuration c, String metric) {
            String key = metric == null ? PRIMARY : metric;
            return scores.get(c).stream().map(m -> m.getOrDefault(key, Double.NaN)).toList();
        }

        PairedRatio ratio(Pair p) {
            return PairedRatio.of(values(p.variant(), p.metric()), values(p.baseline(), p.metric()));
        }

        /**
         * Whether every cited pair is within its precision. A pair with a value that is not positive
         * (a GC pause of 0 s per minute off heap) has no log ratio and cannot steer the sampling.
         */
        boolean precise() {
            return !cited.isEmpty() && cited.stream()
                    .filter(p -> logScale(values(p.variant(), p.metric())) && logScale(values(p.baseline(), p.metric())))
                    .allMatch(p -> ratio(p).within(p.target()));
        }

        private static boolean logScale(List<Double> xs) {
            return xs.stream().allMatch(x -> x > 0 && Double.isFinite(x));
        }

        /**
         * A check's change of gain, head over base, paired by trial, oriented so that above 1 is
         * better whatever the mode (a time's gain is baseline over variant).
         */
        PairedRatio change(Check k) {
            return change(k, PRIMARY);
        }

        /** The same, on fork figure {@code figure} ({@link #PRIMARY} or {@link #BEST}). */
        PairedRatio change(Check k, String figure) {
            boolean higherIsBetter = "thrpt".equals(k.variantHead().mode());
            return PairedRatio.of(gains(k.variantHead(), k.baselineHead(), higherIsBetter, figure),
                    gains(k.variantBase(), k.baselineBase(), higherIsBetter, figure));
        }

        private List<Double> gains(Configuration variant, Configuration baseline, boolean higherIsBetter, String figure) {
            List<Double> v = values(variant, figure);
            List<Double> b = values(baseline, figure);
            List<Double> out = new ArrayList<>();
            for (int i = 0; i < Math.min(v.size(), b.size()); i++) {
                out.add(higherIsBetter ? v.get(i) / b.get(i) : b.get(i) / v.get(i));
            }
            return out;
        }

        /** Expected seconds of one more trial: each member's last fork, else its estimate. */
        double estimate() {
            double s = 0;
            for (Configuration c : members) {
                s += seconds.getOrDefault(c, c.estimateSeconds());
            }
            return s;
        }
    }

    /** One executed fork, for the provenance. */
    record Entry(int trial, String group, int order, Configuration configuration, int fork, String startedUtc,
                 double seconds) {
    }

    private final List<Group> groups;
    private final Random random;
    private final Integer fixedTrials;
    private final Duration budget;
    private final LongSupplier nanos;
    private final List<Entry> schedule = new ArrayList<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final long start;
    private Gate gate;

    TrialSchedule(List<Group> groups, long seed, Integer fixedTrials, Duration budget, LongSupplier nanos) {
        this.groups = groups;
        this.random = new Random(seed);
        this.fixedTrials = fixedTrials;
        this.budget = budget;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
    }

    /**
     * Forms the comparison groups of {@code configurations} (in their order): the configurations
     * of one method that differ only in {@code variant}, or of the methods of one method pair
     * ({@code catalog}), at the same mode and other params; each side of a two-commit run joins the
     * same group. Each cited pair is attached to the group holding both its sides.
     * {@code minTrials} overrides every group's minimum when not null; otherwise a group's minimum
     * is its members' largest fork count (the class's {@code @Fork}).
     */
    static List<Group> groups(List<Configuration> configurations, Techniques.Catalog catalog, Integer minTrials) {
        Map<List<Object>, List<Configuration>> byKey = new LinkedHashMap<>();
        for (Configuration c : configurations) {
            String family = catalog.family(c.cls(), c.method());
            byKey.computeIfAbsent(List.of(c.cls(), family, c.mode(), c.shared()), k -> new ArrayList<>()).add(c);
        }
        List<Group> groups = new ArrayList<>();
        int n = 0;
        for (List<Configuration> members : byKey.values()) {
            int min = minTrials != null ? minTrials
                    : Math.max(1, members.stream().mapToInt(Configuration::forks).max().orElse(1));
            Group g = new Group(String.format("g%02d", ++n), members, min);
            for (Techniques.Cited spec : catalog.cited()) {
                g.cited.addAll(spec.pairs(members));
            }
            groups.add(g);
        }
        return groups;
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

    /** In a two-commit run, every configuration's change (head against base) is a figure to sample. */
    static List<Pair> changes(List<Configuration> members, double precisionPct) {
        List<Pair> out = new ArrayList<>();
        for (Configuration h : members) {
            if (!"head".equals(h.side())) {
                continue;
            }
            for (Configuration b : members) {
                if ("base".equals(b.side()) && b.benchmark().equals(h.benchmark()) && b.params().equals(h.params())) {
                    out.add(new Pair(h.label().replace(" side=head", ""), h, b, null, PairedRatio.target(precisionPct), true));
                }
            }
        }
        return out;
    }

    /** Makes this a gate's schedule: rounds up to each look, and a group stops at the first look where its checks are decided. */
    TrialSchedule gate(Gate g) {
        this.gate = g;
        return this;
    }

    /**
     * The checks of a gate run: for each gated claim, each group that holds its variant and its
     * baseline on both sides.
     */
    static List<Check> checks(List<Configuration> members, List<Techniques.Gated> claims) {
        List<Check> out = new ArrayList<>();
        for (Techniques.Gated claim : claims) {
            Configuration vh = null, bh = null, vb = null, bb = null;
            for (Configuration c : members) {
                if (!claim.names(c)) {
                    continue;
                }
                boolean variant = claim.variant().equals(c.params().get(VARIANT));
                if ("head".equals(c.side())) {
                    if (variant) {
                        vh = c;
                    } else {
                        bh = c;
                    }
                } else if ("base".equals(c.side())) {
                    if (variant) {
                        vb = c;
                    } else {
                        bb = c;
                    }
                }
            }
            if (vh != null && bh != null && vb != null && bb != null) {
                out.add(new Check(claim.id(), vh, bh, vb, bb));
            }
        }
        return out;
    }

    /** Runs the whole schedule. */
    void run(Forks forks) throws Exception {
        if (gate != null) {
            runGate(forks);
            return;
        }
        boolean fixed = fixedTrials != null && budget == null;
        if (fixed) {
            for (int round = 1; round <= fixedTrials; round++) {
                for (Group g : shuffled(groups)) {
                    trial(g, forks);
                }
            }
            groups.forEach(g -> g.ended = "fixed");
            return;
        }
        List<Group> headline = groups.stream().filter(g -> g.cited.stream().anyMatch(Pair::headline)).toList();
        List<Group> cited = groups.stream().filter(g -> !g.cited.isEmpty() && !headline.contains(g)).toList();
        List<Group> rest = groups.stream().filter(g -> g.cited.isEmpty()).toList();
        spend(headline, forks, false, false);
        spend(cited, forks, false, false);
        spend(headline, forks, true, true);
        spend(cited, forks, true, true);
        spend(rest, forks, false, true);
    }

    /**
     * The gate's schedule: every open group gets one trial per round, in a fresh random order,
     * until it reaches the next look; there a group whose checks are all decided stops, and the
     * others go on to the next look. A group still undecided at the last look is judged there.
     * With a budget (-Djmh.budget), the gate is capped: when the open groups cannot all reach the
     * next look within it (their trials still to run, at their last trials' durations), the cap
     * brings that look forward: the open groups run the whole rounds that still fit and are judged
     * there, at the stricter of the two looks' levels (Gate.levelAt), and end, decided or not
     * ("budget: ..."; undecided, the gate judges them INCONCLUSIVE). Where the look falls is set by
     * the clock, never by the changes measured, and it spends no more alpha than the look it
     * replaces, so the cap cannot make a loss pass more often than the rule allows.
     */
    private void runGate(Forks forks) throws Exception {
        for (int look : gate.looks()) {
            List<Group> toGo = groups.stream().filter(g -> g.ended.isEmpty() && !skipped.containsKey(g.id)).toList();
            if (budget != null && !toGo.isEmpty() && toGo.stream().allMatch(g -> g.trials > 0)) {
                double need = toGo.stream().mapToDouble(g -> Math.max(0, look - g.trials) * g.estimate()).sum();
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
                    trial(g, forks);
                }
            }
            for (Group g : groups) {
                if (g.ended.isEmpty() && g.trials >= look && decided(g)) {
                    g.ended = "decided at " + look + " trials";
                }
            }
        }
        groups.stream().filter(g -> g.ended.isEmpty()).forEach(g -> g.ended = "undecided at the last look");
    }

    /**
     * The cap's end of a gate: {@code look} does not fit, so the open groups run the whole rounds
     * that do (each round's cost from their last trials, checked before it starts), stopping a
     * trial short of the look, and end there, judged at the trials they reached.
     */
    private void bringForward(List<Group> open, int look, double need, Forks forks) throws Exception {
        int from = open.stream().mapToInt(g -> g.trials).max().orElse(0);
        int rounds = 0;
        while (from + rounds + 1 < look && fits(open.stream().mapToDouble(Group::estimate).sum())) {
            for (Group g : shuffled(open)) {
                trial(g, forks);
            }
            rounds++;
        }
        String past = "the look at " + look + " needed " + Math.round(need / 60) + " min more, past the "
                + budget.toMinutes() + "-min cap";
        for (Group g : open) {
            if (rounds == 0) {
                g.ended = "budget: undecided at " + g.trials + " trials; " + past;
            } else {
                g.ended = "budget: " + (decided(g) ? "decided" : "undecided") + " at " + g.trials + " trials, the look at "
                        + look + " brought forward (" + past + ")";
            }
        }
    }

    private boolean decided(Group g) {
        return g.checks.stream().allMatch(k -> gate.decided(g.change(k, gate.figure())));
    }

    /**
     * Spends the budget on {@code list}: each step runs one trial of the open group that is
     * furthest from its minimum (fewest trials for its minimum; ties in random order), so cheap and
     * expensive groups advance together. A group is open until it has its minimum and, with
     * {@code untilPrecise}, until its cited figures are within their precision; it closes when its
     * next trial (its members' last fork durations, else their estimates) no longer fits the budget.
     * With {@code last}, a group that needs nothing more is closed ("precision" or "minimum");
     * otherwise a later phase may give it more.
     */
    private void spend(List<Group> list, Forks forks, boolean untilPrecise, boolean last) throws Exception {
        while (true) {
            List<Group> open = new ArrayList<>();
            for (Group g : shuffled(list)) {
                if (!g.ended.isEmpty() || skipped.containsKey(g.id)) {
                    continue;
                }
                boolean needed = g.trials < g.minTrials || (untilPrecise && !g.precise());
                if (!needed) {
                    if (last) {
                        g.ended = untilPrecise ? "precision" : "minimum";
                    }
                } else if (g.trials >= MAX_TRIALS) {
                    g.ended = "cap";
                } else if (!fits(g.estimate())) {
                    g.ended = g.trials == 0 ? "skipped: the budget was spent" : "budget";
                } else {
                    open.add(g);
                }
            }
            if (open.isEmpty()) {
                return;
            }
            Group next = open.stream()
                    .min(java.util.Comparator.comparingDouble(g -> (double) g.trials / g.minTrials))
                    .orElseThrow();
            trial(next, forks);
        }
    }

    private boolean fits(double seconds) {
        return elapsedSeconds() + seconds <= budget().toSeconds();
    }

    /** The budget given with -Djmh.budget (a gate's cap), or null. */
    Duration cap() {
        return budget;
    }

    private Duration budget() {
        return budget != null ? budget : RunDefaults.BUDGET;
    }

    double elapsedSeconds() {
        return (nanos.getAsLong() - start) / 1e9;
    }

    private void trial(Group g, Forks forks) throws Exception {
        if (skipped.containsKey(g.id)) {
            return;
        }
        int trial = g.trials + 1;
        int order = 0;
        for (Configuration c : shuffled(g.members)) {
            String started = java.time.Instant.now().toString();
            long t0 = nanos.getAsLong();
            Outcome o;
            try {
                o = forks.run(c, g, trial, order);
            } catch (Unavailable e) {
                skipClass(c.cls(), e.getMessage());
                return;
            }
            double secs = o.seconds() > 0 ? o.seconds() : (nanos.getAsLong() - t0) / 1e9;
            g.seconds.put(c, secs);
            List<Map<String, Double>> s = g.scores.get(c);
            s.add(o.scores());
            schedule.add(new Entry(trial, g.id, order, c, s.size() - 1, started, secs));
            order++;
        }
        g.trials = trial;
    }

    /**
     * A technique that cannot run here is skipped whole, with its reason; forks of it that already
     * ran are dropped from the groups, so no group is left with unequal trials.
     */
    private void skipClass(String cls, String reason) {
        for (Group g : groups) {
            if (g.first().cls().equals(cls)) {
                skipped.put(g.id, reason);
                g.ended = "skipped: " + reason;
                g.scores.values().forEach(List::clear);
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

    /** The gate this schedule runs, or null. */
    Gate gate() {
        return gate;
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

    /** How the run as a whole ended. */
    String ended() {
        if (gate != null) {
            return "gate";
        }
        if (fixedTrials != null && budget == null) {
            return "fixed";
        }
        return groups.stream().anyMatch(g -> g.ended.equals("budget") || g.ended.startsWith("skipped: the budget"))
                ? "budget" : "precision";
    }
}
