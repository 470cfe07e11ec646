package io.hotpathbench.latency;

import java.util.Arrays;

/**
 * The write-up's fix: response times in a growable {@code short[]}, half the bytes of an
 * {@code int[]}, grown as {@link IntArrayRecorder} grows. A {@code short} holds up to 32,767 ms
 * (32.8 s): a larger value is stored as 32,767 (saturated), so the max and every percentile above
 * that point read 32,767 and the mean reads low. A plain {@code (short)} cast would instead wrap
 * 40,000 to -25,536 and corrupt the min and the low percentiles. The summary sorts a copy, which
 * {@code Arrays.sort} does by counting for a large {@code short[]}.
 */
final class ShortArrayRecorder implements LatencyRecorder {

    private short[] millis = new short[IntArrayRecorder.INITIAL_CAPACITY];
    private int size;

    @Override
    public void record(int millis) {
        if (size == this.millis.length) {
            this.millis = Arrays.copyOf(this.millis, IntArrayRecorder.grownLength(size));
        }
        this.millis[size++] = (short) Math.min(millis, Short.MAX_VALUE);
    }

    @Override
    public long count() {
        return size;
    }

    @Override
    public LatencySummary summary() {
        short[] sorted = Arrays.copyOf(millis, size);
        Arrays.sort(sorted);
        long sum = 0;
        for (short value : sorted) {
            sum += value;
        }
        return LatencySummary.ofSorted(size, sum, i -> sorted[i]);
    }
}
