package io.hotpathbench.keys;

import java.util.HashMap;
import java.util.Map;

/** The original: {@code HashMap<String, Double>} keyed by the cross string {@code user#item}. */
public final class StringWeightTable implements WeightTable {

    private final Map<String, Double> weights;

    public StringWeightTable(int expectedSize) {
        weights = new HashMap<>(capacity(expectedSize));
    }

    static int capacity(int expectedSize) {
        return (int) Math.ceil(expectedSize / 0.75);
    }

    static String cross(String userFeature, String itemFeature) {
        return userFeature + '#' + itemFeature;
    }

    @Override
    public void put(String userFeature, String itemFeature, double weight) {
        weights.put(cross(userFeature, itemFeature), weight);
    }

    @Override
    public double weight(String userFeature, String itemFeature) {
        return weights.getOrDefault(cross(userFeature, itemFeature), 0.0);
    }

    @Override
    public Probe probe(String[] userFeatures, String[] itemFeatures) {
        String[] keys = new String[userFeatures.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = cross(userFeatures[i], itemFeatures[i]);
            // A key built once caches its hash, as a key held by the caller would.
            keys[i].hashCode();
        }
        return i -> weights.getOrDefault(keys[i], 0.0);
    }

    @Override
    public int size() {
        return weights.size();
    }
}
