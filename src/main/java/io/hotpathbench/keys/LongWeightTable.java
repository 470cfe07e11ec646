package io.hotpathbench.keys;

import it.unimi.dsi.fastutil.longs.Long2DoubleOpenHashMap;

/** The fix: fastutil's open-addressing {@code Long2DoubleOpenHashMap}, two flat arrays, no objects per entry. */
public final class LongWeightTable implements WeightTable {

    private final Long2DoubleOpenHashMap weights;

    public LongWeightTable(int expectedSize) {
        weights = new Long2DoubleOpenHashMap(expectedSize);
        weights.defaultReturnValue(0.0);
    }

    @Override
    public void put(String userFeature, String itemFeature, double weight) {
        weights.put(CrossHash.of(userFeature, itemFeature), weight);
    }

    @Override
    public double weight(String userFeature, String itemFeature) {
        return weights.get(CrossHash.of(userFeature, itemFeature));
    }

    @Override
    public Probe probe(String[] userFeatures, String[] itemFeatures) {
        long[] keys = new long[userFeatures.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = CrossHash.of(userFeatures[i], itemFeatures[i]);
        }
        return i -> weights.get(keys[i]);
    }

    @Override
    public int size() {
        return weights.size();
    }
}
