package io.hotpathbench.cache;

/** A bounded cache of {@link UserFeatures} by user id, the one interface every variant implements. */
public interface FeatureCache extends AutoCloseable {

    /** What {@link #score} returns for a user the cache does not hold. */
    double MISSING = Double.NaN;

    /** The cached features, or {@code null} when absent or evicted. */
    UserFeatures get(long userId);

    /**
     * {@link UserFeatures#score} of the cached features for one request, or {@link #MISSING}. By
     * default the record is fetched with {@link #get} and scored on the heap; a cache that can read
     * the fields where they are stored overrides this.
     */
    default double score(long userId, float[] request) {
        UserFeatures features = get(userId);
        return features == null ? MISSING : features.score(request);
    }

    void put(long userId, UserFeatures features);

    /** Entries held, after any pending eviction work has run. */
    long size();

    /** Native memory the cache holds for its entries; 0 for an on-heap cache. */
    long offHeapBytes();

    /** Releases the cache; off-heap memory is freed. */
    @Override
    void close();
}
