package io.hotpathbench;

import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Posting a per-trial figure (bytes per entry, live heap) through an
 * {@code @AuxCounters(Type.EVENTS)} field. JMH zeroes such a field before each iteration and sums
 * what it holds after each measured iteration over iterations, forks and threads; posting
 * {@code value / reports} from every reporting thread's iteration tear-down makes that sum, the
 * score in the JSON, the mean over forks. The per-iteration rawData are these shares.
 */
public final class EventShares {

    private EventShares() {
    }

    /** The share of {@code value} one reporting thread posts per measured iteration. */
    public static double share(double value, BenchmarkParams params, int reportingThreads) {
        double reports = (double) Math.max(1, params.getForks()) * params.getMeasurement().getCount() * reportingThreads;
        return value / reports;
    }

    /** Forks of the run, at least 1: a figure posted once per fork divided by this sums to the mean. */
    public static double forks(BenchmarkParams params) {
        return Math.max(1, params.getForks());
    }
}
