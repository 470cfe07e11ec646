package io.hotpathbench.cache;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
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
 * written at {@code writePercent} with Zipf-distributed (exponent 0.99) seeded user ids, each
 * operation also allocating {@code garbageBytes} of request garbage so young collections run as
 * in a service; {@code access} runs on one thread, {@code accessShared} on two sharing the cache.
 * {@code CAFFEINE_HEAP} keeps the records as objects on the heap, bounded by entry count;
 * {@code OHC_OFF_HEAP} keeps them serialized in native memory, bounded by bytes, so every get
 * copies and rebuilds the record: it should lose on reads and win on GC pauses, GC time and heap.
 * Besides {@code -prof gc}, the JSON holds {@link GcFigures}: pause count, pause time and the
 * longest pause from GC notifications, the live heap after the fill and the off-heap bytes in use.
 * Run with {@code mvn jmh:run -Djmh.include=Cache}.
 */
@State(Scope.Benchmark)
// A service-like G1 heap with room for 4M on-heap records (about 1.9 GB live). OHC 0.7.4 needs no
// --add-opens/--add-exports on JDK 17: it uses sun.misc.Unsafe (jdk.unsupported) and JNA's malloc.
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+UseG1GC"})
// One fork: each trial's fill of up to 4M entries takes ~10 s and 24 trials must fit ~10 minutes.
// Five two-second measured iterations rather than three of three seconds: about the same time, but
// the 99.9% t-interval of 3 samples (t = 31.6) spanned zero for every throughput, while 5 samples
// give t = 8.6; two seconds still hold several young collections at 1 KB of garbage per operation.
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
public class CacheBenchmark extends BenchmarkDefaults {

    /** Length of the pre-drawn operation sequence that each thread cycles through. */
    private static final int OPS = 1 << 20;
    private static final int TEMPLATES = 1 << 10;

    @Param
    FeatureCacheType variant;

    @Param({"1000000", "4000000"})
    int entries;

    @Param({"0", "10", "100"})
    int writePercent;

    @Param("1024")
    int garbageBytes;

    @Param("42")
    long seed;

    FeatureCache cache;
    long[] ids;
    boolean[] writes;
    UserFeatures[] templates;
    long liveHeapBytes;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(seed);
        cache = variant.create(entries);
        for (long id = 0; id < entries; id++) {
            cache.put(id, UserFeatures.random(id, random));
        }
        templates = new UserFeatures[TEMPLATES];
        for (int t = 0; t < TEMPLATES; t++) {
            templates[t] = UserFeatures.random(t, random);
        }
        ZipfIds zipf = new ZipfIds(entries, 0.99, seed);
        ids = new long[OPS];
        writes = new boolean[OPS];
        for (int i = 0; i < OPS; i++) {
            ids[i] = zipf.next();
            writes[i] = random.nextInt(100) < writePercent;
        }
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

    @Benchmark
    public UserFeatures access(Cursor cursor, GcFigures gc) {
        return step(cursor);
    }

    @Benchmark
    @Threads(2)
    public UserFeatures accessShared(Cursor cursor, GcFigures gc) {
        return step(cursor);
    }

    UserFeatures step(Cursor cursor) {
        // Stored in the cursor so the request buffer escapes and its allocation cannot be elided.
        cursor.request = new byte[garbageBytes];
        int i = cursor.next++ & (OPS - 1);
        long id = ids[i];
        if (writes[i]) {
            UserFeatures fresh = templates[i & (TEMPLATES - 1)].refreshed(id, i);
            cache.put(id, fresh);
            return fresh;
        }
        return cache.get(id);
    }

    /**
     * GC pauses and memory per iteration, reported by thread 0 only. JMH sums EVENTS counters over
     * threads, iterations and forks, so each value is posted such that the sum means something:
     * {@code gcPauses} and {@code gcTimeMs} as they are (totals over the measured iterations, like
     * {@code gc.count} and {@code gc.time}); {@code gcPauseMaxMs} as the growth of the longest
     * pause seen so far, divided by forks (the sum is the longest measured pause, averaged over
     * forks); {@code liveHeapBytes} (after the fill) and {@code offHeapBytes} (at each iteration's
     * start) divided by forks times iterations (the sum is their mean). The per-iteration rawData in the JSON are these posted parts.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class GcFigures {
        public long gcPauses;
        public long gcTimeMs;
        public double gcPauseMaxMs;
        public double liveHeapBytes;
        public double offHeapBytes;

        private boolean reporting;
        private boolean measuring;
        private double forks;
        private BenchmarkParams benchmark;
        private long longestSoFar;
        private long offHeapAtStart;

        @Setup(Level.Iteration)
        public void start(ThreadParams thread, IterationParams iteration, BenchmarkParams benchmark,
                          CacheBenchmark bench) {
            reporting = thread.getThreadIndex() == 0;
            measuring = iteration.getType() == IterationType.MEASUREMENT;
            forks = EventShares.forks(benchmark);
            this.benchmark = benchmark;
            gcPauses = 0;
            gcTimeMs = 0;
            gcPauseMaxMs = 0;
            liveHeapBytes = 0;
            offHeapBytes = 0;
            if (reporting) {
                // Sampled here, not in stop(): with two threads, the other one may already have
                // closed the cache (trial teardown) when this thread's last iteration ends.
                offHeapAtStart = bench.cache.offHeapBytes();
                GcPauseLog.get().drain();
            }
        }

        @TearDown(Level.Iteration)
        public void stop(CacheBenchmark bench) {
            if (!reporting) {
                return;
            }
            GcPauseLog.Window w = GcPauseLog.get().drain();
            gcPauses = w.pauses();
            gcTimeMs = w.totalMillis();
            if (measuring) {
                long longest = Math.max(longestSoFar, w.longestMillis());
                gcPauseMaxMs = (longest - longestSoFar) / forks;
                longestSoFar = longest;
            }
            liveHeapBytes = EventShares.share(bench.liveHeapBytes, benchmark, 1);
            offHeapBytes = EventShares.share(offHeapAtStart, benchmark, 1);
        }
    }
}
