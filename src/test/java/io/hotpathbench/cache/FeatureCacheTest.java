package io.hotpathbench.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotpathbench.ParamValues;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.caffinitas.ohc.OHCacheStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FeatureCacheTest {

    private static final UserFeaturesSerializer SERIALIZER = new UserFeaturesSerializer();

    @ParameterizedTest
    @EnumSource(FeatureCacheType.class)
    void getAfterPutReturnsAnEqualValue(FeatureCacheType type) {
        SplittableRandom random = new SplittableRandom(1);
        try (FeatureCache cache = type.create(1_000)) {
            List<UserFeatures> put = new ArrayList<>();
            for (long id = 0; id < 500; id++) {
                UserFeatures f = UserFeatures.random(id, random);
                cache.put(id, f);
                put.add(f);
            }
            for (int id = 0; id < 500; id++) {
                assertEquals(put.get(id), cache.get(id));
            }
            assertNull(cache.get(500));
            assertEquals(500, cache.size());
        }
    }

    @ParameterizedTest
    @EnumSource(FeatureCacheType.class)
    void putReplacesTheValue(FeatureCacheType type) {
        SplittableRandom random = new SplittableRandom(2);
        try (FeatureCache cache = type.create(100)) {
            UserFeatures first = UserFeatures.random(7, random);
            UserFeatures second = first.refreshed(7, first.lastSeenMillis() + 1);
            cache.put(7, first);
            cache.put(7, second);
            assertEquals(second, cache.get(7));
            assertEquals(1, cache.size());
        }
    }

    @ParameterizedTest
    @EnumSource(FeatureCacheType.class)
    void evictsWhenOverCapacity(FeatureCacheType type) {
        SplittableRandom random = new SplittableRandom(3);
        try (FeatureCache cache = type.create(1_000)) {
            fill(cache, 10_000, random);
            long size = cache.size();
            assertTrue(size > 0 && size <= 1_000 * OhcFeatureCache.BYTES_PER_ENTRY / 100, "size " + size);
            assertTrue(size < 10_000, "nothing evicted");
            long missing = 0;
            for (long id = 0; id < 10_000; id++) {
                if (cache.get(id) == null) {
                    missing++;
                }
            }
            assertEquals(10_000 - size, missing);
        }
    }

    @Test
    void caffeineHoldsAtMostItsMaximumSize() {
        SplittableRandom random = new SplittableRandom(4);
        try (FeatureCache cache = FeatureCacheType.CAFFEINE_HEAP.create(1_000)) {
            fill(cache, 5_000, random);
            assertTrue(cache.size() <= 1_000);
        }
    }

    @Test
    void ohcStaysWithinItsCapacityAndCountsEvictions() {
        SplittableRandom random = new SplittableRandom(5);
        OhcFeatureCache cache = new OhcFeatureCache(1_000);
        try {
            fill(cache, 5_000, random);
            OHCacheStats stats = cache.ohc().stats();
            assertTrue(stats.getEvictionCount() > 0);
            assertTrue(cache.offHeapBytes() <= stats.getCapacity());
        } finally {
            cache.close();
        }
    }

    @Test
    void ohcPrefilledToItsEntryCountEvictsNothing() {
        SplittableRandom random = new SplittableRandom(6);
        OhcFeatureCache cache = new OhcFeatureCache(50_000);
        try {
            fill(cache, 50_000, random);
            assertEquals(0, cache.ohc().stats().getEvictionCount());
            assertEquals(50_000, cache.size());
        } finally {
            cache.close();
        }
    }

    /**
     * With {@code -Dorg.caffinitas.ohc.debugOffHeapAccess=true} (set for the tests in the pom) OHC
     * keeps a map of every native block it has allocated and not yet freed; close() must leave none
     * of this cache's blocks behind: entries, segment hash tables, everything. Every entry is read
     * first, so an in-place read that left its entry pinned would leave that entry's block behind.
     */
    @ParameterizedTest
    @EnumSource(names = {"OHC_OFF_HEAP", "OHC_ZERO_COPY"})
    void closeReleasesTheOffHeapMemory(FeatureCacheType type) throws ReflectiveOperationException {
        Map<?, ?> liveBlocks = ohcLiveBlocks();
        int before = liveBlocks.size();
        SplittableRandom random = new SplittableRandom(7);
        OhcFeatureCache cache = (OhcFeatureCache) type.create(10_000);
        fill(cache, 10_000, random);
        float[] request = request(random);
        for (long id = 0; id < 10_000; id++) {
            assertFalse(Double.isNaN(cache.score(id, request)));
        }
        assertTrue(cache.ohc().memUsed() > 10_000 * 100L);
        assertTrue(liveBlocks.size() >= before + 10_000, "OHC tracks one block per entry at least");
        cache.close();
        assertEquals(before, liveBlocks.size(), "native blocks still allocated after close()");
        assertEquals(0, cache.offHeapBytes());
    }

    /** Puts users 0 to count - 1, each drawn from random. */
    private static void fill(FeatureCache cache, long count, SplittableRandom random) {
        for (long id = 0; id < count; id++) {
            cache.put(id, UserFeatures.random(id, random));
        }
    }

    /** OHC's debug record of allocated native blocks (package-private, so read reflectively). */
    private static Map<?, ?> ohcLiveBlocks() throws ReflectiveOperationException {
        assertTrue(Boolean.getBoolean("org.caffinitas.ohc.debugOffHeapAccess"),
                "needs -Dorg.caffinitas.ohc.debugOffHeapAccess=true (set by the pom's surefire configuration)");
        Field field = Class.forName("org.caffinitas.ohc.linked.Uns").getDeclaredField("ohDebug");
        field.setAccessible(true);
        Map<?, ?> blocks = (Map<?, ?>) field.get(null);
        assertNotNull(blocks, "OHC's debug block map is not enabled");
        return blocks;
    }

    @Test
    void ehcachePrefilledToItsEntryCountEvictsNothing() {
        SplittableRandom random = new SplittableRandom(6);
        EhcacheFeatureCache cache = new EhcacheFeatureCache(50_000);
        try {
            fill(cache, 50_000, random);
            assertEquals(0, cache.evictions());
            assertEquals(50_000, cache.size());
            assertTrue(cache.offHeapBytes() > 50_000 * 100L);
        } finally {
            cache.close();
        }
        assertEquals(0, cache.offHeapBytes());
    }

    @ParameterizedTest
    @EnumSource(FeatureCacheType.class)
    void scoresWhatItHoldsAndMissesWhatItDoesNot(FeatureCacheType type) {
        SplittableRandom random = new SplittableRandom(10);
        float[] request = request(random);
        try (FeatureCache cache = type.create(1_000)) {
            assertTrue(Double.isNaN(cache.score(1, request)), "empty cache");
            UserFeatures first = UserFeatures.random(1, random);
            cache.put(1, first);
            assertEquals(first.score(request), cache.score(1, request));
            UserFeatures second = UserFeatures.random(1, random);
            cache.put(1, second);
            assertEquals(second.score(request), cache.score(1, request));
            assertTrue(Double.isNaN(cache.score(2, request)), "absent user");
        }
    }

    @Test
    void scoreReadInPlaceIsTheRecordsScoreToTheLastBit() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 5_000; i++) {
            UserFeatures f = UserFeatures.random(random.nextLong(), random);
            float[] request = request(random);
            int offset = random.nextInt(16);
            ByteBuffer buf = ByteBuffer.allocateDirect(offset + SERIALIZER.serializedSize(f));
            buf.position(offset);
            SERIALIZER.serialize(f, buf);
            buf.position(offset);
            assertEquals(Double.doubleToRawLongBits(f.score(request)),
                    Double.doubleToRawLongBits(UserFeaturesSerializer.score(buf, request)), f.toString());
            assertEquals(offset, buf.position(), "score must not move the buffer");
        }
    }

    @Test
    void scoreWeighsEveryField() {
        float[] request = {0.5f, -2f, 1f};
        UserFeatures plain = new UserFeatures(1, "US", "x", 30, 0.1, 0, false, new float[] {1f, 1f}, new long[0]);
        assertEquals(0.1 + 0.5 - 2, plain.score(request), 1e-12);
        UserFeatures premium = new UserFeatures(1, "US", "x", 30, 0.1, 0, true, new float[] {1f, 1f}, new long[0]);
        assertEquals(0.2 + 0.5 - 2, premium.score(request), 1e-12);
        UserFeatures fatigued = new UserFeatures(1, "US", "x", 30, 0.1, 0, false, new float[] {1f, 1f}, new long[8]);
        assertEquals((0.1 + 0.5 - 2) / 2, fatigued.score(request), 1e-12);
    }

    private static float[] request(SplittableRandom random) {
        float[] request = new float[UserFeatures.MAX_DIMENSIONS];
        for (int d = 0; d < request.length; d++) {
            request[d] = (float) (random.nextDouble() * 2 - 1);
        }
        return request;
    }

    @Test
    void caffeineUsesNoOffHeapMemory() {
        try (FeatureCache cache = FeatureCacheType.CAFFEINE_HEAP.create(10)) {
            cache.put(1, UserFeatures.random(1, new SplittableRandom(8)));
            assertEquals(0, cache.offHeapBytes());
        }
    }

    @Test
    void serializerRoundTripsEdgeCases() {
        List<UserFeatures> cases = List.of(
                new UserFeatures(0, "", "", 0, 0.0, 0, false, new float[0], new long[0]),
                new UserFeatures(Long.MIN_VALUE, "ÄÖ", "華為 Mate 60 Pro+ 🚀", Integer.MIN_VALUE, -0.0,
                        Long.MIN_VALUE, true,
                        new float[] {Float.NaN, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -0.0f, Float.MAX_VALUE},
                        new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE}),
                new UserFeatures(Long.MAX_VALUE, "\u0000", "a\uD800b", Integer.MAX_VALUE, Double.NaN,
                        Long.MAX_VALUE, false, new float[] {Float.POSITIVE_INFINITY}, new long[] {42}),
                new UserFeatures(-1, "US", "x".repeat(1_000), -1, Double.MIN_VALUE, -1, true,
                        new float[] {1.5f}, new long[0]),
                new UserFeatures(1, "🇩🇪", "Café", 1, Double.NEGATIVE_INFINITY, 1, true,
                        new float[] {Float.MIN_NORMAL}, new long[] {1L << 62}));
        for (UserFeatures f : cases) {
            UserFeatures back = roundTrip(f);
            if (f.deviceModel().equals("a\uD800b")) {
                // An unpaired surrogate has no UTF-8 form; the encoder writes '?', as for any String.
                assertEquals("a?b", back.deviceModel());
                assertEquals(new UserFeatures(f.userId(), f.country(), "a?b", f.age(), f.clickThroughRate(),
                        f.lastSeenMillis(), f.premium(), f.embedding(), f.recentItemIds()), back);
            } else {
                assertEquals(f, back);
            }
        }
    }

    @Test
    void serializerRoundTripsRandomRecordsOfOneToFiveHundredBytes() {
        SplittableRandom random = new SplittableRandom(9);
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int i = 0; i < 5_000; i++) {
            UserFeatures f = UserFeatures.random(random.nextLong(), random);
            assertEquals(f, roundTrip(f));
            int size = SERIALIZER.serializedSize(f);
            min = Math.min(min, size);
            max = Math.max(max, size);
        }
        assertTrue(min >= 100 && max <= 520, min + ".." + max);
    }

    /** Serializes into a buffer of exactly {@code serializedSize} bytes, as OHC does. */
    private static UserFeatures roundTrip(UserFeatures f) {
        ByteBuffer buf = ByteBuffer.allocateDirect(SERIALIZER.serializedSize(f));
        SERIALIZER.serialize(f, buf);
        assertFalse(buf.hasRemaining(), "serializedSize does not match the bytes written");
        buf.flip();
        UserFeatures back = SERIALIZER.deserialize(buf);
        assertFalse(buf.hasRemaining());
        return back;
    }

    @Test
    void recordRejectsNulls() {
        assertThrows(NullPointerException.class,
                () -> new UserFeatures(1, null, "", 0, 0, 0, false, new float[0], new long[0]));
    }

    @Test
    void zipfIdsAreSeededInRangeAndSkewed() {
        ZipfIds a = new ZipfIds(1_000, 0.99, 42);
        ZipfIds b = new ZipfIds(1_000, 0.99, 42);
        long[] counts = new long[1_000];
        for (int i = 0; i < 200_000; i++) {
            long id = a.next();
            assertEquals(id, b.next());
            assertTrue(id >= 0 && id < 1_000);
            counts[(int) id]++;
        }
        double ratio = (double) counts[0] / counts[1];
        assertTrue(ratio > 1.8 && ratio < 2.2, "p(0)/p(1) = " + ratio + ", expected about 2^0.99");
        assertTrue(counts[0] > counts[9] * 8, "p(0)/p(9) should be about 10^0.99");
    }

    @Test
    void zipfOverOneIdAlwaysDrawsIt() {
        ZipfIds one = new ZipfIds(1, 1.0, 1);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, one.next());
        }
    }

    @Test
    void gcPauseLogSeesACollectionInItsWindowOnly() {
        GcPauseLog log = GcPauseLog.get();
        log.drain();
        System.gc();
        GcPauseLog.Window withGc = log.drain();
        assertTrue(withGc.pauses() > 0, "a full collection pauses");
        assertTrue(withGc.longestNanos() > 0 && withGc.totalNanos() >= withGc.longestNanos(), withGc.toString());
        log.mark();
        GcPauseLog.Window quiet = log.drain();
        assertTrue(quiet.totalNanos() < withGc.totalNanos(), "the collection was counted again: " + quiet);
    }

    /** The baseline's scores by write mix, computed once for all variants. */
    private static final Map<Integer, double[]> BASELINE_SCORES = new ConcurrentHashMap<>();

    /**
     * Every variant returns the baseline's scores, bit for bit, over the benchmark's own seeded
     * operation sequence at every write mix the benchmark runs: reads score the cached record,
     * writes score the fresh record they store, and a later read of it sees what was written.
     */
    @ParameterizedTest
    @EnumSource(FeatureCacheType.class)
    void returnsTheBaselinesScoresForTheSameSeededOperations(FeatureCacheType type) {
        FeatureCacheType baseline = FeatureCacheType.values()[0];
        for (int writePercent : ParamValues.ints(CacheBenchmark.class, "writePercent")) {
            double[] expected = BASELINE_SCORES.computeIfAbsent(writePercent, w -> runBenchmark(baseline, w));
            assertArrayEquals(expected, runBenchmark(type, writePercent), type + " at writePercent=" + writePercent);
        }
    }

    /** Builds the benchmark state at a small size and collects what the benchmark method returns. */
    private static double[] runBenchmark(FeatureCacheType type, int writePercent) {
        CacheBenchmark bench = new CacheBenchmark();
        bench.variant = type;
        bench.entries = 20_000;
        bench.writePercent = writePercent;
        bench.garbageBytes = 64;
        bench.seed = 42;
        bench.setUp();
        try {
            CacheBenchmark.Cursor cursor = new CacheBenchmark.Cursor();
            double[] scores = new double[50_000];
            for (int i = 0; i < scores.length; i++) {
                scores[i] = bench.accessShared(cursor, null);
                assertFalse(Double.isNaN(scores[i]), "operation " + i + " missed");
            }
            return scores;
        } finally {
            bench.tearDown();
        }
    }
}
