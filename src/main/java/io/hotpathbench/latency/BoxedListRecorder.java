package io.hotpathbench.latency;

import java.util.ArrayList;
import java.util.List;

/**
 * The usual "before": every response time boxed into an {@code ArrayList<Integer>}, and the summary
 * sorts a copy of the list. Each value outside {@code Integer}'s cache (-128..127) is a 16-byte
 * object plus its 4-byte reference.
 */
final class BoxedListRecorder implements LatencyRecorder {

    private final List<Integer> millis = new ArrayList<>();

    @Override
    public void record(int millis) {
        this.millis.add(millis);
    }

    @Override
    public long count() {
        return millis.size();
    }

    @Override
    public LatencySummary summary() {
        List<Integer> sorted = new ArrayList<>(millis);
        sorted.sort(null);
        long sum = 0;
        for (Integer value : sorted) {
            sum += value;
        }
        return LatencySummary.ofSorted(sorted.size(), sum, sorted::get);
    }
}
