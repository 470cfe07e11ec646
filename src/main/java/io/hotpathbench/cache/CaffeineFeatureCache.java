package io.hotpathbench.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/** The baseline: values live on the Java heap as objects, bounded by entry count. */
final class CaffeineFeatureCache implements FeatureCache {

    private final Cache<Long, UserFeatures> cache;

    CaffeineFeatureCache(long maximumEntries) {
        this.cache = Caffeine.newBuilder().maximumSize(maximumEntries).build();
    }

    @Override
    public UserFeatures get(long userId) {
        return cache.getIfPresent(userId);
    }

    @Override
    public void put(long userId, UserFeatures features) {
        cache.put(userId, features);
    }

    @Override
    public long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    @Override
    public long offHeapBytes() {
        return 0;
    }

    /** Nothing to release: the entries are heap objects, reclaimed once the cache is unreachable. */
    @Override
    public void close() {
    }
}
