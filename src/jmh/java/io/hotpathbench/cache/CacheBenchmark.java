package io.hotpathbench.cache;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * A feature cache pre-filled with {@code entries} users (100-500 byte records), then read and
 * written by two request threads at {@code writePercent} with Zipf-distributed (exponent 0.99)
 * seeded user ids, each operation also allocating {@code garbageBytes} of request garbage so young
 * collections run as in a service. Every operation consumes a record the same way: a read scores
 * the cached record for a per-request vector ({@link UserFeatures#score}: click-through rate,
 * premium flag, embedding dot product, recent-item count); a write stores a freshly built record
 * and returns that record's score. {@code CAFFEINE_HEAP} keeps the records as objects on the heap,
 * bounded by entry count; {@code OHC_OFF_HEAP} (the write-up's fix) keeps them serialized in native
 * memory, so every read copies the bytes and rebuilds the record; {@code OHC_ZERO_COPY} is the same
 * OHC cache read in place through a view of the native bytes, which separates the cost of copying
 * and deserializing from the cost of living off heap; {@code EHCACHE_OFF_HEAP} is a maintained
 * off-heap cache without {@code sun.misc.Unsafe} (Ehcache 3's off-heap tier), read by copy like OHC.
 * Besides {@code -prof gc}, the JSON holds {@link GcFigures}: the write-up's own metric, seconds of
 * stop-the-world GC pause per minute of run, with pause count, pause time, the longest pause, the
 * live heap after the fill and the off-heap bytes in use. Run with
 * {@code mvn jmh:run -Djmh.include=Cache}.
 */
@State(Scope.Benchmark)
// A service-like G1 heap with room for 4M on-heap records (about 1.9 GB live); Ehcache's direct
// buffers (640 B per entry, 2.4 GiB at 4M) fit under the default direct-memory limit, which is
// -Xmx. These are the only flags here, so a command-line jvmArgsAppend (e.g. '-Xms4g -Xmx4g
// -XX:+UseZGC' on JDK 25) replaces the collector and nothing else. Under ZGC the pause figures
// count ZGC's own pauses (mark start, mark end and relocate start of each minor and major
// collection, tens of microseconds each, measured in nanoseconds by JFR), not its concurrent
// phases; an allocation stall, when a thread waits for ZGC to free memory, is no pause and shows
// only as lost throughput.
@Fork(value = 3, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+UseG1GC"})
// Settings from the pilot (results/pilot/20261123T234609Z-973136b-dirty.json, two trials at 3 x 2 s
// warm-up and 9 x 3 s measured): a fork costs 51-60 s, about 20 s of it the JVM start, the two-thread
// fill of 4M entries and its full GC. The GC pause figures, which the headline cites, agreed between
// forks to 1-3% (CAFFEINE_HEAP at 100% writes 1.60 and 1.65 s/min; OHC_OFF_HEAP 0.0109 and 0.0107),
// while throughput differed between forks by up to 27% (OHC_OFF_HEAP reads 1.05 and 1.34 ops/us) with
// a fork's own iterations within 3-15%: more forks, not longer ones, narrow those. Two-thread runs
// reach their steady speed within one two-second iteration (JIT, G1 sizing after the fill's full GC),
// so three warm-up iterations leave margin. Four measured iterations of three seconds (12 s instead of
// 27; each fork about 40 s) still hold several young collections even for the off-heap variants, whose
// young generation fills only every second or two (every one of the pilot's iterations had a pause),
// so every pause figure stays above 0. At least three trials (min_trials in scripts/techniques/cache.json;
// @Fork is JMH's fork count, for -Djmh.f): the pause figures are precise after three.
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 3)
public class CacheBenchmark extends BenchmarkDefaults {

    /** Length of the pre-drawn operation sequence that each thread cycles through. */
    private static final int OPS = 1 << 20;
    private static final int TEMPLATES = 1 << 10;
    private static final int REQUESTS = 1 << 10;

    @Param
    FeatureCacheType variant;

    /**
     * One size, the largest whose on-heap records fit the 4 GB heap (about 1.9 GB live): every
     * target is judged at the largest size, and a 1M size, which doubled the fills, answered no
     * question of its own.
     */
    @Param("4000000")
    int entries;

    /**
     * Read-only, where reading in place against copying is judged and GC sees only request
     * garbage, and write-only, where every operation replaces a record: the churn that made the
     * write-up's young collections copy cache entries, on which GC time and the longest pause are
     * judged. A 10% mix fell between the two on every figure and answered no target.
     */
    @Param({"0", "100"})
    int writePercent;

    @Param("1024")
    int garbageBytes;

    @Param("42")
    long seed;

    FeatureCache cache;
    long[] ids;
    boolean[] writes;
    UserFeatures[] templates;
    float[][] requests;
    long liveHeapBytes;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(seed);
        cache = variant.create(entries);
        // The fill is most of a trial's setup, so both cores do it; each user's record comes from
        // a generator seeded by its id, so the contents do not depend on how the ids are split.
        long recordSeed = random.nextLong();
        LongStream.range(0, entries).parallel()
                .forEach(id -> cache.put(id, UserFeatures.random(id, new SplittableRandom(recordSeed + id))));
        templates = new UserFeatures[TEMPLATES];
        for (int t = 0; t < TEMPLATES; t++) {
            templates[t] = UserFeatures.random(t, random);
        }
        requests = new float[REQUESTS][UserFeatures.MAX_DIMENSIONS];
        for (float[] request : requests) {
            for (int d = 0; d < request.length; d++) {
                request[d] = (float) (random.nextDouble() * 2 - 1);
            }
        }
        ZipfIds zipf = new ZipfIds(entries, 0.99, seed);
        ids = new long[OPS];
        writes = new boolean[OPS];
        for (int i = 0; i < OPS; i++) {
            ids[i] = zipf.next();
            writes[i] = random.nextInt(100) < writePercent;
        }
        if (cache.size() != entries) {
            throw new IllegalStateException(variant + " holds " + cache.size() + " of " + entries
                    + " entries after the fill: it evicted, so reads would miss; raise its bytes per entry");
        }
        // JFR's stream must be running (its buffers allocated) before this collection moves all
        // that lives into the old generation; otherwise young collections copy its first 1.7 MB
        // back and forth until they are tenured, half of an off-heap variant's pause, ~30 s in.
        GcPauseLog.get().drain();
        System.gc();
        liveHeapBytes = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        cache.close();
    }

    /** One request handler's position in the operation sequence, and its request buffer. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
        byte[] request;

        @Setup(Level.Trial)
        public void setUp(ThreadParams thread) {
            next = thread.getThreadIndex() * (OPS / 2);
        }
    }

    /**
     * One request on one of two threads sharing the cache: read and score a user's features, or
     * store a fresh record and score it. Two threads on this 2-core machine, as a busy service's
     * request threads: the collector's concurrent work competes with them for CPU, as it did in
     * the write-up's service. A one-thread method was dropped: it measured the same code, left a
     * core to the collector and the JIT for free, and ran its first 6-12 s at a fifth of its later
     * speed, so its intervals spanned zero.
     */
    @Benchmark
    @Threads(2)
    public double accessShared(Cursor cursor, GcFigures gc) {
        // Stored in the cursor so the request buffer escapes and its allocation cannot be elided.
        cursor.request = new byte[garbageBytes];
        int i = cursor.next++ & (OPS - 1);
        long id = ids[i];
        float[] request = requests[i & (REQUESTS - 1)];
        if (writes[i]) {
            UserFeatures fresh = templates[i & (TEMPLATES - 1)].refreshed(id, i);
            cache.put(id, fresh);
            return fresh.score(request);
        }
        return cache.score(id, request);
    }

    /**
     * GC pauses and memory per measured iteration, reported by thread 0 only, from {@link GcPauseLog}
     * (every stop-the-world pause, in nanoseconds, whatever the collector). JMH sums EVENTS
     * counters over threads, iterations and forks, so each value is posted such that the sum means
     * something: {@code gcPauseSecPerMin}, the write-up's metric (seconds of pause per minute of
     * the iteration's wall time), divided by forks times iterations, so the sum is its mean over
     * the measured iterations; {@code gcPauses} and {@code gcTimeMs} as they are (totals over the
     * measured iterations); {@code gcPauseMaxMs} as the growth of the longest pause seen so far,
     * divided by forks (the sum is the longest measured pause, averaged over forks);
     * {@code liveHeapBytes} (after the fill) and {@code offHeapBytes} (at each iteration's start)
     * divided by forks times iterations (the sum is their mean). The per-iteration rawData in the
     * JSON are these posted parts. Under G1 nearly all pause time is young (and mixed) collections,
     * the write-up's "young GC"; under ZGC it is the few short pauses of each collection.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class GcFigures {
        public double gcPauseSecPerMin;
        public long gcPauses;
        public double gcTimeMs;
        public double gcPauseMaxMs;
        public double liveHeapBytes;
        public double offHeapBytes;

        private boolean reporting;
        private boolean measuring;
        private double forks;
        private BenchmarkParams benchmark;
        private long longestSoFar;
        private long offHeapAtStart;
        private long startNanos;

        @Setup(Level.Iteration)
        public void start(ThreadParams thread, IterationParams iteration, BenchmarkParams benchmark,
                          CacheBenchmark bench) {
            reporting = thread.getThreadIndex() == 0;
            measuring = iteration.getType() == IterationType.MEASUREMENT;
            forks = EventShares.forks(benchmark);
            this.benchmark = benchmark;
            gcPauseSecPerMin = 0;
            gcPauses = 0;
            gcTimeMs = 0;
            gcPauseMaxMs = 0;
            liveHeapBytes = 0;
            offHeapBytes = 0;
            if (reporting) {
                // Sampled here, not in stop(): with two threads, the other one may already have
                // closed the cache (trial teardown) when this thread's last iteration ends.
                offHeapAtStart = bench.cache.offHeapBytes();
                GcPauseLog.get().mark();
                startNanos = System.nanoTime();
            }
        }

        @TearDown(Level.Iteration)
        public void stop(CacheBenchmark bench) {
            // Warm-up figures are not kept, so warm-up skips drain()'s wait for JFR.
            if (!reporting || !measuring) {
                return;
            }
            long elapsedNanos = System.nanoTime() - startNanos;
            GcPauseLog.Window w = GcPauseLog.get().drain();
            gcPauseSecPerMin = EventShares.share(w.totalNanos() / 1e9 / (elapsedNanos / 60e9), benchmark, 1);
            gcPauses = w.pauses();
            gcTimeMs = w.totalNanos() / 1e6;
            long longest = Math.max(longestSoFar, w.longestNanos());
            gcPauseMaxMs = (longest - longestSoFar) / 1e6 / forks;
            longestSoFar = longest;
            liveHeapBytes = EventShares.share(bench.liveHeapBytes, benchmark, 1);
            offHeapBytes = EventShares.share(offHeapAtStart, benchmark, 1);
        }
    }
}
