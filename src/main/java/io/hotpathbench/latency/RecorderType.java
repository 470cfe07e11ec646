package io.hotpathbench.latency;

/** Where the response times go, baseline first; each constant builds an empty {@link LatencyRecorder}. */
public enum RecorderType {

    /** {@code ArrayList<Integer>}: the usual "before". */
    BOXED_LIST {
        @Override
        public LatencyRecorder create() {
            return new BoxedListRecorder();
        }
    },

    /** A growable {@code int[]}. */
    INT_ARRAY {
        @Override
        public LatencyRecorder create() {
            return new IntArrayRecorder();
        }
    },

    /** A growable {@code short[]}, the write-up's fix; saturates at 32,767 ms. */
    SHORT_ARRAY {
        @Override
        public LatencyRecorder create() {
            return new ShortArrayRecorder();
        }
    },

    /** HdrHistogram, 3 significant digits up to one hour: constant memory. */
    HDR_HISTOGRAM {
        @Override
        public LatencyRecorder create() {
            return new HdrHistogramRecorder();
        }
    };

    public abstract LatencyRecorder create();
}
