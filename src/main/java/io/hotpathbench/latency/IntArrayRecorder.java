package io.hotpathbench.latency;

import java.util.Arrays;

/**
 * Response times in a growable {@code int[]} that grows as {@code ArrayList} does (10, then 1.5x),
 * so it holds the same slack as {@link BoxedListRecorder}'s backing array after the same count;
 * the summary sorts a copy.
 */
final class IntArrayRecorder implements LatencyRecorder {

    /** ArrayList's first capacity. */
    static final int INITIAL_CAPACITY = 10;

    /** The largest array length every JVM allocates (ArrayList's limit). */
    private static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private int[] millis = new int[INITIAL_CAPACITY];
    private int size;

    @Override
    public void record(int millis) {
        if (size == this.millis.length) {
            this.millis = Arrays.copyOf(this.millis, grownLength(size));
        }
        this.millis[size++] = millis;
    }

    @Override
    public long count() {
        return size;
    }

    @Override
    public LatencySummary summary() {
        int[] sorted = Arrays.copyOf(millis, size);
        Arrays.sort(sorted);
        long sum = 0;
        for (int value : sorted) {
            sum += value;
        }
        return LatencySummary.ofSorted(size, sum, i -> sorted[i]);
    }

    /** The next length of a full array of {@code length}: 1.5 times as long, as ArrayList grows. */
    static int grownLength(int length) {
        if (length == MAX_LENGTH) {
            throw new OutOfMemoryError("a recorder holds at most " + MAX_LENGTH + " values");
        }
        return (int) Math.min(MAX_LENGTH, length + (length >> 1));
    }
}
