package io.hotpathbench.jmh;

import java.time.Duration;

/** The trial schedule's clock default, the one number of the schedule that is not a rule of the scripts. */
final class RunDefaults {

    /**
     * How long a default run (no -Djmh.trials, no -Djmh.gate) may take (-Djmh.budget): 80 minutes,
     * the smallest whole ten minutes in which its first phase, three trials of the configurations
     * every cited figure compares, stays whole on every machine whose fork durations are committed
     * (results/: an Intel Xeon @ 2.50GHz, an AMD EPYC and an Intel Xeon machine) with every fork 20%
     * slower than the slowest recorded for its configuration. Nine techniques' cited figures need
     * more than 70 minutes so replayed; six needed 46, when this was 50 (docs/protocol.md;
     * DefaultBudgetTest replays it).
     */
    static final Duration BUDGET = Duration.ofMinutes(80);

    private RunDefaults() {
    }
}
