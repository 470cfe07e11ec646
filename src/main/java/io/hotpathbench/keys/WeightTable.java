package io.hotpathbench.keys;

/**
 * A feature-cross weight table: the weight of {@code userFeature#itemFeature}, or 0.0 when the cross
 * has none. The variants differ only in the key the map stores: the cross string, or its 64-bit
 * {@link CrossHash}, boxed or primitive.
 */
public interface WeightTable {

    void put(String userFeature, String itemFeature, double weight);

    /** What a serving request pays: builds this table's key from the two feature values, then looks it up. */
    double weight(String userFeature, String itemFeature);

    /**
     * Builds the keys of the given crosses ahead of time, in this table's own key type, so that
     * {@link Probe#weight(int)} costs the map lookup alone.
     */
    Probe probe(String[] userFeatures, String[] itemFeatures);

    int size();

    /** Weights of pre-built keys. */
    interface Probe {

        /** The weight of the {@code index}-th pre-built key, 0.0 when absent. */
        double weight(int index);
    }
}
