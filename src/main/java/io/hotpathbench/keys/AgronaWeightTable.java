package io.hotpathbench.keys;

import it.unimi.dsi.fastutil.Hash;
import org.agrona.collections.Long2LongHashMap;

/**
 * The fix with another layout: Agrona's {@code Long2LongHashMap} keeps each key beside its value in
 * one {@code long[]}, so a hit reads one cache line where {@link LongWeightTable}'s two arrays read
 * two. The value is the weight's raw bits. It is sized with fastutil's load factor, so at every size
 * both tables have the same number of slots and differ in layout alone.
 */
public final class AgronaWeightTable implements WeightTable {

    /**
     * Agrona marks an empty slot by a value no entry may hold. Weights are numbers, so a NaN bit
     * pattern is free; {@link #put} refuses NaN weights outright.
     */
    static final long MISSING = Double.doubleToRawLongBits(Double.NaN);

    private static final long ZERO = Double.doubleToRawLongBits(0.0);

    private final Long2LongHashMap weights;

    public AgronaWeightTable(int expectedSize) {
        weights = new Long2LongHashMap((int) Math.ceil(expectedSize / (double) Hash.DEFAULT_LOAD_FACTOR),
                Hash.DEFAULT_LOAD_FACTOR, MISSING);
    }

    /** @throws IllegalArgumentException if {@code weight} is NaN */
    @Override
    public void put(String userFeature, String itemFeature, double weight) {
        if (Double.isNaN(weight)) {
            throw new IllegalArgumentException("a weight must be a number, got NaN for " + userFeature + '#' + itemFeature);
        }
        weights.put(CrossHash.of(userFeature, itemFeature), Double.doubleToRawLongBits(weight));
    }

    @Override
    public double weight(String userFeature, String itemFeature) {
        return Double.longBitsToDouble(weights.getOrDefault(CrossHash.of(userFeature, itemFeature), ZERO));
    }

    @Override
    public Probe probe(String[] userFeatures, String[] itemFeatures) {
        long[] keys = new long[userFeatures.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = CrossHash.of(userFeatures[i], itemFeatures[i]);
        }
        return i -> Double.longBitsToDouble(weights.getOrDefault(keys[i], ZERO));
    }

    @Override
    public int size() {
        return weights.size();
    }

    /** Slots in the table, for tests. */
    int capacity() {
        return weights.capacity();
    }
}
