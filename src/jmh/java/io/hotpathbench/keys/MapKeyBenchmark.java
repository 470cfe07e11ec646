package io.hotpathbench.keys;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import io.hotpathbench.Heap;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A feature-cross weight table of {@code size} entries such as {@code u_age=2_347#i_cat=31519 -> 0.37},
 * read with a seeded stream of crosses of which {@code missPercent}% are absent (weight 0.0). The
 * variants ({@link WeightTableType}) differ only in the map and its key: the cross string in a
 * {@code HashMap<String, Double>} ({@code STRING_KEY}, the original), its 64-bit {@link CrossHash}
 * boxed in a {@code HashMap<Long, Double>} ({@code BOXED_LONG_KEY}), the same hash in fastutil's
 * {@code Long2DoubleOpenHashMap} ({@code LONG_KEY}, the fix; keys and values in two arrays) or in
 * Agrona's {@code Long2LongHashMap} ({@code AGRONA_LONG_KEY}; each key beside its value's bits in one
 * array). Run with {@code mvn jmh:run -Djmh.include=MapKey} (add {@code -Djmh.quick -Djmh.p.size=100000}
 * for a short check).
 */
// 20 configurations, each in a fork that builds its own table: lookup at 100k and 10M entries, 0% and
// 10% misses (16), crossAndLookup at 10M without misses (4). 10M is the write-up's size, every
// published figure is set against it, and its tables reach past a last-level cache; 100k fits the
// caches and shows how much of the gain is memory traffic. 1M, between the two, answered nothing
// either end does not. A miss costs crossAndLookup the same key building as a hit plus the probe that
// lookup already measures, so its 10% misses answered nothing either.
// Settings from the pilot (results/pilot/20261123T233701Z-973136b-dirty.json, two trials at 3 x 1 s
// warm-up and 10 x 1 s measured): a fork costs 18 s for the long keys and 29-33 s for STRING_KEY at
// 10M, most of it building the table; its iterations already agree to 3-6% and show no trend (the
// first measured over the last two: 0.90-1.21), while LONG_KEY's two forks differed by 16% (11.1 and
// 13.1 ops/us). So the replication goes into forks: 5 measured iterations instead of 10 (a fork's
// mean is as good, each fork 5 s cheaper), and at least 4 trials (min_trials in
// scripts/techniques/keys.json; @Fork is JMH's fork count, for -Djmh.f): 4 x 4 variants x ~20 s is
// about 5 minutes.
// Ten million String keys retain about 1.3 GB; 6 GB leaves room for the key arrays and the garbage of
// the build. Parallel GC because its used heap after System.gc() is the live objects' bytes, where G1
// rounds each array of half a region or more up to whole regions (it doubled the bytes of a 100k-entry
// LONG_KEY table).
@Fork(value = 4, jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+UseParallelGC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class MapKeyBenchmark extends BenchmarkDefaults {

    /** Pre-generated lookups, cycled; 2^20 crosses touch far more of a large table than the CPU caches hold. */
    static final int LOOKUPS = 1 << 20;

    /** The table and the lookups of one configuration; the subclasses give each method its configurations. */
    public abstract static class Table {

        @Param
        WeightTableType variant;

        @Param("42")
        long seed;

        /** A power of two; tests shrink it. */
        int lookups = LOOKUPS;

        WeightTable table;
        WeightTable.Probe probe;
        String[] userFeatures;
        String[] itemFeatures;
        int mask;
        double bytesPerEntry;

        void build(int size, int missPercent) {
            Heap.require("MapKeyBenchmark " + variant + " size=" + size, (long) size * variant.buildBytesPerEntry() + (512L << 20));
            FeatureCrosses crosses = FeatureCrosses.generate(size, seed);
            long before = Heap.retainedBytes();
            table = variant.create(size);
            crosses.fill(table);
            long after = Heap.retainedBytes();
            bytesPerEntry = (double) (after - before) / size;
            if (table.size() != size) {
                throw new IllegalStateException(variant + " holds " + table.size() + " of " + size
                        + " generated crosses: two of them share a key");
            }
            FeatureCrosses.Lookups drawn = crosses.lookups(lookups, missPercent, seed);
            userFeatures = drawn.userFeatures();
            itemFeatures = drawn.itemFeatures();
            probe = table.probe(userFeatures, itemFeatures);
            mask = lookups - 1;
        }
    }

    /** {@code lookup}'s tables. */
    @State(Scope.Benchmark)
    public static class LookupTable extends Table {

        @Param({"100000", "10000000"})
        int size;

        @Param({"0", "10"})
        int missPercent;

        @Setup(Level.Trial)
        public void setUp() {
            build(size, missPercent);
        }
    }

    /** {@code crossAndLookup}'s tables. */
    @State(Scope.Benchmark)
    public static class RequestTable extends Table {

        @Param("10000000")
        int size;

        @Param("0")
        int missPercent;

        @Setup(Level.Trial)
        public void setUp() {
            build(size, missPercent);
        }
    }

    /**
     * Puts {@code bytesPerEntry} into the results as {@link EventShares} describes: every thread posts a
     * share. {@code lookup}'s configurations include every table {@code crossAndLookup} reads, so
     * {@code lookup} alone carries the figure.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Footprint {

        public double bytesPerEntry;

        @TearDown(Level.Iteration)
        public void share(LookupTable table, BenchmarkParams params) {
            bytesPerEntry = EventShares.share(table.bytesPerEntry, params, params.getThreads());
        }
    }

    private int next;

    /**
     * The map alone: the key of each cross was built ahead of time, in the table's key type. Beside the
     * lookups per microsecond, the result carries {@code bytesPerEntry}: heap retained by the filled
     * table, measured after full garbage collections, divided by {@code size} (unit {@code #}: bytes).
     */
    @Benchmark
    public double lookup(LookupTable table, Footprint footprint) {
        return table.probe.weight(next++ & table.mask);
    }

    /**
     * A request's path, behind the write-up's +26% throughput (measured on the whole service, where
     * lookups were 20% of CPU): build the key from the two feature values, then look it up.
     */
    @Benchmark
    public double crossAndLookup(RequestTable table) {
        int i = next++ & table.mask;
        return table.table.weight(table.userFeatures[i], table.itemFeatures[i]);
    }
}
