package io.hotpathbench.latency;

import org.HdrHistogram.Histogram;

/**
 * What teams pick instead: an HdrHistogram {@link Histogram} tracking 0 to one hour in milliseconds
 * with 3 significant digits. Its counts array is sized once, so its memory does not grow with the
 * number of values. Values up to 2,047 ms are kept exactly; above, each value shares a bucket
 * narrower than 1/1,000 of it, and the summary reports the top of the bucket for the max and the
 * percentiles, the bottom for the min and each bucket's middle for the mean. A value beyond the
 * range HdrHistogram sizes for one hour (4,192,255 ms, about 70 minutes) throws
 * {@code ArrayIndexOutOfBoundsException}.
 */
final class HdrHistogramRecorder implements LatencyRecorder {

    static final long HIGHEST_TRACKABLE_MILLIS = 3_600_000;
    static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_MILLIS, SIGNIFICANT_DIGITS);

    @Override
    public void record(int millis) {
        histogram.recordValue(millis);
    }

    @Override
    public long count() {
        return histogram.getTotalCount();
    }

    @Override
    public LatencySummary summary() {
        if (histogram.getTotalCount() == 0) {
            return LatencySummary.EMPTY;
        }
        int[] perMille = LatencySummary.PER_MILLE;
        long[] p = new long[perMille.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = histogram.getValueAtPercentile(perMille[i] / 10.0);
        }
        return new LatencySummary(histogram.getTotalCount(), histogram.getMinValue(), histogram.getMaxValue(),
                histogram.getMean(), p[0], p[1], p[2], p[3]);
    }

    /** The largest value HdrHistogram counts as equal to {@code value}: what it reports for it. */
    long highestEquivalentValue(long value) {
        return histogram.highestEquivalentValue(value);
    }
}
