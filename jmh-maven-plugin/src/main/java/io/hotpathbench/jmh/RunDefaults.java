package io.hotpathbench.jmh;

import java.time.Duration;
import java.util.List;

/** The trial protocol's defaults, in one place. */
final class RunDefaults {

    /** How long a run may spend on trials beyond the cited groups' minimum (-Djmh.budget). */
    static final Duration BUDGET = Duration.ofMinutes(35);

    /** The precision a cited figure is sampled to when its technique names none: +/-10%. */
    static final double PRECISION_PCT = 10;

    /**
     * The gate's looks (-Djmh.gate): a group is judged after this many trials and stops at the
     * first look at which every gated claim in it is decided. The first look is 5 because allocation
     * over forks needs 5 forks a side to reach p &lt;= 0.01 with an exact rank-sum test. Looks reach
     * 20 because the validator's and Redis's changes of gain move 12-17% from trial to trial on the
     * 2-core CI machines: resampled from real trials, a last look at 10 left them undecided in 2-14%
     * of unchanged runs (results/gate-power.md). A check decided early stops early: split's usually
     * at 5. scripts/hpb/twocommit.py judges with the same rule and reads it from the provenance.
     */
    static final List<Integer> GATE_LOOKS = List.of(5, 10, 20);

    /**
     * The share of alpha (0.05) each of {@link #GATE_LOOKS} spends: a quarter at 5 and at 10 trials
     * (one-sided level 0.9875), half at 20 (0.975, the end of the 95% interval). They sum to alpha,
     * so by Bonferroni at most 5% of losses at the margin pass, however the looks fall. Half at the
     * last look because what an unchanged commit risks there is to end undecided (which fails): with
     * even shares over 5, 10, 15 and 20 trials, Redis MGET's check (its trials move 16.5%) was
     * undecided at 20 in 1.3-1.6% of resampled unchanged runs; with these, under 1%
     * (results/gate-power.md has today's figure).
     */
    static final List<Double> GATE_SPEND = List.of(0.0125, 0.0125, 0.025);

    /** The gate's non-inferiority margin: a claimed pair's gain may not fall by 20% or more. */
    static final double GATE_MARGIN_PCT = 20;

    private RunDefaults() {
    }
}
