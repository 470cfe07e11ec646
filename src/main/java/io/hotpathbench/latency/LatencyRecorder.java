package io.hotpathbench.latency;

/**
 * Where a load generator puts each request's response time: {@link #record} once per request on
 * the hot path, {@link #summary} once at the end of the test. Values are milliseconds, never
 * negative; each implementation says what it does with values it cannot hold.
 */
public interface LatencyRecorder {

    void record(int millis);

    /** Values recorded so far. */
    long count();

    /** Count, min, max, mean and percentiles of everything recorded; leaves the recorded values as they are. */
    LatencySummary summary();
}
