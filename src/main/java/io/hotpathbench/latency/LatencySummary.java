package io.hotpathbench.latency;

import java.util.function.IntUnaryOperator;

/**
 * What a load test reports at the end: how many response times, their min, max and mean, and the
 * p50, p90, p99 and p99.9 in milliseconds. A percentile is the nearest-rank value: the smallest
 * recorded value that at least p% of all values are at or below, which is also the value whose
 * bucket HdrHistogram's {@code getValueAtPercentile} reports. Every field is 0 when nothing was
 * recorded.
 */
public record LatencySummary(long count, long min, long max, double mean, long p50, long p90, long p99, long p999) {

    /** The reported percentiles in tenths of a percent, in field order: p50, p90, p99, p99.9. */
    static final int[] PER_MILLE = {500, 900, 990, 999};

    static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0.0, 0, 0, 0, 0);

    /**
     * The summary of {@code count} values whose sum is {@code sum}, given the {@code i}-th smallest
     * of them (0-based) by {@code sortedAt}.
     */
    static LatencySummary ofSorted(int count, long sum, IntUnaryOperator sortedAt) {
        if (count == 0) {
            return EMPTY;
        }
        long[] p = new long[PER_MILLE.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = sortedAt.applyAsInt(rank(PER_MILLE[i], count) - 1);
        }
        return new LatencySummary(count, sortedAt.applyAsInt(0), sortedAt.applyAsInt(count - 1),
                (double) sum / count, p[0], p[1], p[2], p[3]);
    }

    /** The 1-based nearest rank of the {@code perMille}/1000 quantile of {@code count} values: ceil(q * count), at least 1. */
    static int rank(int perMille, int count) {
        return (int) Math.max(1, ((long) perMille * count + 999) / 1000);
    }
}
