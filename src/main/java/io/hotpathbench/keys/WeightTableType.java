package io.hotpathbench.keys;

/**
 * The weight tables under comparison, baseline first; each builds an empty table for {@code size}
 * entries and knows how much heap its build needs.
 */
public enum WeightTableType {

    /** {@link StringWeightTable}: {@code HashMap<String, Double>} keyed by the cross string, the original. */
    STRING_KEY(220) {
        @Override
        public WeightTable create(int size) {
            return new StringWeightTable(size);
        }
    },

    /** {@link BoxedLongWeightTable}: {@code HashMap<Long, Double>} keyed by the boxed {@link CrossHash}. */
    BOXED_LONG_KEY(140) {
        @Override
        public WeightTable create(int size) {
            return new BoxedLongWeightTable(size);
        }
    },

    /** {@link LongWeightTable}: fastutil's {@code Long2DoubleOpenHashMap}, keys and values in two arrays, the fix. */
    LONG_KEY(60) {
        @Override
        public WeightTable create(int size) {
            return new LongWeightTable(size);
        }
    },

    /** {@link AgronaWeightTable}: Agrona's {@code Long2LongHashMap}, each key beside its value in one array. */
    AGRONA_LONG_KEY(60) {
        @Override
        public WeightTable create(int size) {
            return new AgronaWeightTable(size);
        }
    };

    private final int buildBytesPerEntry;

    WeightTableType(int buildBytesPerEntry) {
        this.buildBytesPerEntry = buildBytesPerEntry;
    }

    /** An empty table that holds {@code size} entries without growing. */
    public abstract WeightTable create(int size);

    /** A generous bound on the heap one entry needs while the table is built, inputs included. */
    public int buildBytesPerEntry() {
        return buildBytesPerEntry;
    }
}
