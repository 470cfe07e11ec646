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
     * first look at which every gated claim in it is decided. Four looks, so each is judged at
     * one-sided level 1 - 0.05 / 4 (Bonferroni alpha spending: at most 5% of regressions at the
     * margin pass, however the looks fall). The first look is 5 because allocation over forks needs
     * 5 forks a side to reach p &lt;= 0.01 with an exact rank-sum test. Looks reach 20 because the
     * validator's and Redis's changes of gain move 12-16% from trial to trial on the 2-core CI
     * machines: resampled from real trials, a last look at 10 left them undecided in 2-14% of
     * unchanged runs, one at 20 in 0-1.8% (Redis MGET the most; results/gate-power.md). A check decided early
     * stops early: split's usually at 5. scripts/hpb/twocommit.py judges with the same rule and
     * reads these from the provenance.
     */
    static final List<Integer> GATE_LOOKS = List.of(5, 10, 15, 20);

    /** The gate's non-inferiority margin: a claimed pair's gain may not fall by 20% or more. */
    static final double GATE_MARGIN_PCT = 20;

    private RunDefaults() {
    }
}
