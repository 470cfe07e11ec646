package io.hotpathbench.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.caffinitas.ohc.Eviction;
import org.caffinitas.ohc.OHCache;
import org.caffinitas.ohc.OHCacheBuilder;

/**
 * The fix: entries live in native memory as bytes ({@link UserFeaturesSerializer}), bounded by bytes.
 * Every get copies the value out and builds a new object; every put serializes.
 */
class OhcFeatureCache implements FeatureCache {

    /** Bytes budgeted per entry: value (~300 on average), key and OHC's entry header, with headroom. */
    static final long BYTES_PER_ENTRY = 512;

    /** Most segments used: enough that two threads rarely meet on a segment lock. */
    static final int MAX_SEGMENTS = 256;

    /**
     * Entries per segment at least; each segment gets an equal share of the capacity, so segments
     * must be big enough that hashing spreads entries evenly within the 512-byte budget's headroom.
     */
    static final int MIN_ENTRIES_PER_SEGMENT = 4096;

    private final OHCache<Long, UserFeatures> cache;
    private boolean closed;

    OhcFeatureCache(long maximumEntries) {
        this(maximumEntries * BYTES_PER_ENTRY, segmentsFor(maximumEntries),
                (int) Math.max(64, Math.min(1 << 20, 2 * maximumEntries / segmentsFor(maximumEntries))));
    }

    OhcFeatureCache(long capacityBytes, int segments, int hashTableSize) {
        this.cache = OHCacheBuilder.<Long, UserFeatures>newBuilder()
                .keySerializer(new UserIdSerializer())
                .valueSerializer(new UserFeaturesSerializer())
                .capacity(capacityBytes)
                .segmentCount(segments)
                .hashTableSize(hashTableSize)
                .eviction(Eviction.LRU)
                .build();
    }

    /** A power of two, as OHC requires. */
    static int segmentsFor(long maximumEntries) {
        return Integer.highestOneBit((int) Math.max(1, Math.min(MAX_SEGMENTS, maximumEntries / MIN_ENTRIES_PER_SEGMENT)));
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
        return cache.size();
    }

    @Override
    public long offHeapBytes() {
        return closed ? 0 : cache.memUsed();
    }

    /** OHC itself: for reads that bypass the value serializer, and for tests. */
    final OHCache<Long, UserFeatures> ohc() {
        return cache;
    }

    @Override
    public void close() {
        closed = true;
        try {
            cache.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
