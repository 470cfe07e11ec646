package io.hotpathbench.cache;

/** A bounded cache of {@link UserFeatures} by user id, the one interface both variants implement. */
public interface FeatureCache extends AutoCloseable {

    /** The cached features, or {@code null} when absent or evicted. */
    UserFeatures get(long userId);

    void put(long userId, UserFeatures features);

    /** Entries held, after any pending eviction work has run. */
    long size();

    /** Native memory the cache holds for its entries; 0 for an on-heap cache. */
    long offHeapBytes();

    /** Releases the cache; off-heap memory is freed. */
    @Override
    void close();
}
