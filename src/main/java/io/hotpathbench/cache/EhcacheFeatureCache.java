package io.hotpathbench.cache;

import java.nio.ByteBuffer;
import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.MemoryUnit;
import org.ehcache.core.internal.statistics.DefaultStatisticsService;
import org.ehcache.core.spi.service.StatisticsService;
import org.ehcache.core.statistics.TierStatistics;
import org.ehcache.spi.serialization.Serializer;

/**
 * A maintained off-heap alternative to OHC: Ehcache 3 with a single off-heap tier (Terracotta's
 * offheap-store, pages of direct {@link ByteBuffer}s allocated up front, no {@code sun.misc.Unsafe}),
 * bounded by bytes, values in {@link UserFeaturesSerializer}'s form. Like OHC, every get copies the
 * value's bytes onto the heap and builds a new record; every put serializes. The direct buffers
 * are released by the collector once {@link #close} has dropped them.
 */
final class EhcacheFeatureCache implements FeatureCache {

    /**
     * Off-heap bytes budgeted per entry: value (~300 on average), key, Ehcache's value header
     * (times, id) and the segments' hash tables, with headroom so that the fill evicts nothing.
     */
    static final long BYTES_PER_ENTRY = 640;

    private static final String ALIAS = "features";

    private final StatisticsService statistics = new DefaultStatisticsService();
    private final CacheManager manager;
    private final Cache<Long, UserFeatures> cache;
    private boolean closed;

    EhcacheFeatureCache(long maximumEntries) {
        long megabytes = Math.max(1, (maximumEntries * BYTES_PER_ENTRY + (1 << 20) - 1) >> 20);
        this.manager = CacheManagerBuilder.newCacheManagerBuilder().using(statistics).build(true);
        this.cache = manager.createCache(ALIAS, CacheConfigurationBuilder
                .newCacheConfigurationBuilder(Long.class, UserFeatures.class,
                        ResourcePoolsBuilder.newResourcePoolsBuilder().offheap(megabytes, MemoryUnit.MB))
                .withValueSerializer(new ValueSerializer()));
    }

    @Override
    public UserFeatures get(long userId) {
        return cache.get(userId);
    }

    @Override
    public void put(long userId, UserFeatures features) {
        cache.put(userId, features);
    }

    @Override
    public long size() {
        return offHeapTier().getMappings();
    }

    @Override
    public long offHeapBytes() {
        return closed ? 0 : offHeapTier().getOccupiedByteSize();
    }

    /** Entries evicted since the cache was built, for tests. */
    long evictions() {
        return offHeapTier().getEvictions();
    }

    private TierStatistics offHeapTier() {
        return statistics.getCacheStatistics(ALIAS).getTierStatistics().get("OffHeap");
    }

    @Override
    public void close() {
        closed = true;
        manager.close();
    }

    /** Ehcache's serializer contract over {@link UserFeaturesSerializer}'s binary form. */
    private static final class ValueSerializer implements Serializer<UserFeatures> {

        private final UserFeaturesSerializer format = new UserFeaturesSerializer();

        @Override
        public ByteBuffer serialize(UserFeatures value) {
            ByteBuffer buf = ByteBuffer.allocate(format.serializedSize(value));
            format.serialize(value, buf);
            return buf.flip();
        }

        @Override
        public UserFeatures read(ByteBuffer binary) {
            return format.deserialize(binary);
        }

        @Override
        public boolean equals(UserFeatures value, ByteBuffer binary) {
            return value.equals(read(binary));
        }
    }
}
