package io.hotpathbench.jmh;

import java.time.Duration;

/** The trial protocol's defaults, in one place. */
final class RunDefaults {

    /** How long a run may spend on trials beyond the cited groups' minimum (-Djmh.budget). */
    static final Duration BUDGET = Duration.ofMinutes(35);

    /** The precision a cited figure is sampled to when its technique names none: +/-10%. */
    static final double PRECISION_PCT = 10;

    private RunDefaults() {
    }
}
