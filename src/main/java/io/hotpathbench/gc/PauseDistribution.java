package io.hotpathbench.gc;

import java.util.Arrays;

/** Pause durations collected over several windows, and their percentiles. */
public final class PauseDistribution {

    private long[] nanos = new long[256];
    private int count;

    /** Adds these pauses (nanoseconds). */
    public void add(long[] pauses) {
        if (count + pauses.length > nanos.length) {
            nanos = Arrays.copyOf(nanos, Math.max(nanos.length * 2, count + pauses.length));
        }
        System.arraycopy(pauses, 0, nanos, count, pauses.length);
        count += pauses.length;
    }

    public int count() {
        return count;
    }

    /**
     * The nearest-rank {@code p}-th percentile (0 < p <= 100) of the pauses added, in milliseconds:
     * the smallest pause that at least {@code p}% of the pauses do not exceed; 0 when none was added.
     * With fewer than 100 pauses the 99th percentile is the longest pause.
     */
    public double percentileMs(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("a percentile lies in (0, 100], not " + p);
        }
        if (count == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * count);
        return sorted[Math.max(rank, 1) - 1] / 1e6;
    }
}
