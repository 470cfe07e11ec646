package io.hotpathbench.keys;

import java.util.HashMap;
import java.util.Map;

/** The half step: {@code HashMap<Long, Double>} keyed by the boxed {@link CrossHash}. */
public final class BoxedLongWeightTable implements WeightTable {

    private final Map<Long, Double> weights;

    public BoxedLongWeightTable(int expectedSize) {
        weights = new HashMap<>(StringWeightTable.capacity(expectedSize));
    }

    @Override
    public void put(String userFeature, String itemFeature, double weight) {
        weights.put(CrossHash.of(userFeature, itemFeature), weight);
    }

    @Override
    public double weight(String userFeature, String itemFeature) {
        return weights.getOrDefault(CrossHash.of(userFeature, itemFeature), 0.0);
    }

    @Override
    public Probe probe(String[] userFeatures, String[] itemFeatures) {
        Long[] keys = new Long[userFeatures.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = CrossHash.of(userFeatures[i], itemFeatures[i]);
        }
        return i -> weights.getOrDefault(keys[i], 0.0);
    }

    @Override
    public int size() {
        return weights.size();
    }
}
