package io.hotpathbench.jmh;

import java.time.Duration;

/** The trial schedule's clock default, the one number of the schedule that is not a rule of the scripts. */
final class RunDefaults {

    /**
     * How long a default run (no -Djmh.trials, no -Djmh.gate) may take (-Djmh.budget): 50 minutes,
     * so that its first phase, three trials of the configurations every cited figure compares, fits
     * with room to spare. Replayed with the fork durations of the default runs committed in results/
     * (an Intel Xeon and an AMD EPYC machine of the kind the suite is run on), that phase takes 36
     * minutes at each configuration's median fork on the Intel machine and 34 on the AMD one; with
     * every fork 20% slower than the slowest recorded for its configuration, 46 and 42.5 minutes, still
     * inside 50 (docs/protocol.md; DefaultBudgetTest replays it).
     */
    static final Duration BUDGET = Duration.ofMinutes(50);

    private RunDefaults() {
    }
}
