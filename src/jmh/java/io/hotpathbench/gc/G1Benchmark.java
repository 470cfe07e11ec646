package io.hotpathbench.gc;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import io.hotpathbench.cache.GcPauseLog;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
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
 * The write-up's G1 settings against G1 left alone, on the same allocation-heavy request
 * ({@link MessageService}: about 30 KB of short-lived objects per request beside a live set of
 * about 300 MB of sessions that churns through the old generation), served by two request threads.
 * The variants are JVM flags, so each is a method with its own {@code @Fork(jvmArgsAppend)}, paired
 * with {@code g1Default} as a method pair: {@code g1Default} (G1 with only the heap fixed),
 * {@code g1PauseGoal} (the pause goal alone) and {@code g1Published} (all the write-up's flags, sizes
 * scaled by 1/8, see {@link G1Flags}); each also touches its heap at start
 * ({@link G1Flags#PRE_TOUCH}). Every method runs the same request code; only the collector's settings
 * differ. Beside requests per second, the JSON holds {@link GcFigures}: young collections per second
 * and per 1,000 requests, full collections, seconds of pause per minute and the pause percentiles
 * (every stop-the-world pause JFR reports: per minute from the cache technique's {@link GcPauseLog},
 * the percentiles from a {@link PauseRecording} of the same events), and the young generation G1
 * chose. A {@code -Djmh.jvmArgs}, {@code -Djmh.jvmArgsAppend} or
 * {@code -Djmh.jvmArgsPrepend} would replace or add to the flags that are the variants: each fork
 * refuses to run with any JVM options but its method's own. Run with
 * {@code mvn jmh:run -Djmh.include=G1}.
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.SECONDS)
// Not yet piloted. From probes of the workload outside JMH on this machine: G1 settles its young
// generation within the first few collections (one to three a second), the old generation reaches
// the marking threshold after some tens of seconds, and a fork's start takes several seconds (the
// JVM touches its 3 GB heap, -XX:+AlwaysPreTouch, G1Flags.PRE_TOUCH says why; then the 300 MB live
// set and a full collection). Two 5 s warm-ups and five 4 s measured iterations hold tens of young
// collections per fork. At least three trials (min_trials in scripts/techniques/gc.json; @Fork is
// JMH's fork count, for -Djmh.f): a marking cycle and its mixed collections fall into some forks'
// measured window and not others'.
@Fork(3)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 4)
@Threads(2)
public class G1Benchmark extends BenchmarkDefaults {

    /** About 300 MB of sessions: the few hundred MB of long-lived state of a service's cache. */
    @Param("250000")
    int sessions;

    @Param("1024")
    int sessionBytes;

    /** A 10 KB reply, built, copied into a String and encoded: about 30 KB of garbage per request. */
    @Param("10240")
    int replyBytes;

    /**
     * Every fourth request refreshes a session (about 260 B that survive), in a sweep: each session
     * lives about 500,000 requests, long enough to be promoted and then to die in the old generation.
     */
    @Param("4")
    int refreshEvery;

    @Param("42")
    long seed;

    MessageService service;
    /** Requests served by every thread, for the per-request figures. */
    final LongAdder served = new LongAdder();

    /** Refuses to run unless this fork's JVM options are exactly its method's own, then builds the live set. */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        G1Flags.require(method, flagsOf(method), G1Flags.thisJvm());
        build();
    }

    /** Builds the service and settles the heap; the tests call this directly. */
    void build() {
        service = new MessageService(sessions, sessionBytes, replyBytes, refreshEvery, seed);
        // The JFR stream must be running before this collection moves what lives into the old
        // generation (CacheBenchmark.setUp says why).
        GcPauseLog.get().drain();
        System.gc();
    }

    /** The JVM options a method's {@code @Fork(jvmArgsAppend)} gives its forks. */
    static List<String> flagsOf(String method) {
        for (Method m : G1Benchmark.class.getDeclaredMethods()) {
            Fork fork = m.getAnnotation(Fork.class);
            if (m.getName().equals(method) && fork != null) {
                return Arrays.asList(fork.jvmArgsAppend());
            }
        }
        throw new IllegalArgumentException("G1Benchmark has no method " + method + " with its own @Fork");
    }

    /** One request thread's position in the request numbers; threads start half a sweep apart. */
    @State(Scope.Thread)
    public static class Cursor {
        long next;
        final byte[][] sink = new byte[1][];

        @Setup(Level.Trial)
        public void setUp(ThreadParams thread, G1Benchmark bench) {
            next = thread.getThreadIndex() * ((long) bench.sessions * bench.refreshEvery / thread.getThreadCount());
        }
    }

    long serve(Cursor cursor) {
        served.increment();
        return service.handle(cursor.next++, cursor.sink);
    }

    /** The baseline: G1 with only the heap's size fixed, as a service starts before anyone tunes it. */
    @Benchmark
    @Fork(jvmArgsAppend = {G1Flags.HEAP_MIN, G1Flags.HEAP_MAX, G1Flags.G1, G1Flags.PRE_TOUCH})
    public long g1Default(Cursor cursor, GcFigures gc) {
        return serve(cursor);
    }

    /** The pause goal alone (50 ms instead of G1's 200): G1 still sizes the young generation to meet it. */
    @Benchmark
    @Fork(jvmArgsAppend = {G1Flags.HEAP_MIN, G1Flags.HEAP_MAX, G1Flags.G1, G1Flags.PAUSE_GOAL, G1Flags.PRE_TOUCH})
    public long g1PauseGoal(Cursor cursor, GcFigures gc) {
        return serve(cursor);
    }

    /**
     * The write-up's flags scaled to a 3 GB heap: the young generation fixed at half the heap
     * ({@code -Xmn}, which takes its sizing away from the pause goal), the 50 ms goal, and the reserve
     * and marking threshold at the values G1 already defaults to.
     */
    @Benchmark
    @Fork(jvmArgsAppend = {G1Flags.HEAP_MIN, G1Flags.HEAP_MAX, G1Flags.YOUNG, G1Flags.G1, G1Flags.PAUSE_GOAL,
            G1Flags.RESERVE, G1Flags.IHOP, G1Flags.PRE_TOUCH})
    public long g1Published(Cursor cursor, GcFigures gc) {
        return serve(cursor);
    }

    /**
     * GC figures per measured iteration, reported by thread 0 only; JMH sums EVENTS counters over
     * threads, iterations and forks, so each value is posted such that the sum means something (as
     * in CacheBenchmark.GcFigures): {@code youngGcPerSec}, {@code youngGcPer1kRequests},
     * {@code gcPauseSecPerMin} and {@code youngGenMb} as {@link EventShares} shares (their sums are the
     * means over the measured iterations); {@code youngGcs}, {@code fullGcs} and {@code gcPauses} as
     * they are (totals over the measured iterations); the pause percentiles {@code gcPauseP50Ms},
     * {@code gcPauseP99Ms} and {@code gcPauseMaxMs}, over every pause of the fork's measured
     * iterations, posted once, in its last measured iteration, divided by forks (their sums are the
     * means over forks). Young collections include mixed ones ({@link G1Collections}); the pauses are
     * every stop-the-world pause (young, mixed, remark, cleanup, full) in nanoseconds: their sum per
     * minute from {@link GcPauseLog}, their distribution from a {@link PauseRecording} of the same JFR
     * events, read once the last measured iteration ends.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class GcFigures {
        public double youngGcPerSec;
        public double youngGcPer1kRequests;
        public long youngGcs;
        public long fullGcs;
        public double gcPauseSecPerMin;
        public long gcPauses;
        public double gcPauseP50Ms;
        public double gcPauseP99Ms;
        public double gcPauseMaxMs;
        public double youngGenMb;

        private final G1Collections g1 = G1Collections.of();
        private PauseRecording recording;
        private boolean reporting;
        private boolean measuring;
        private boolean lastMeasured;
        private int measured;
        private BenchmarkParams benchmark;
        private long startNanos;
        private long youngAtStart;
        private long fullAtStart;
        private long servedAtStart;

        @Setup(Level.Iteration)
        public void start(ThreadParams thread, IterationParams iteration, BenchmarkParams benchmark, G1Benchmark bench) {
            reporting = thread.getThreadIndex() == 0;
            measuring = iteration.getType() == IterationType.MEASUREMENT;
            this.benchmark = benchmark;
            youngGcPerSec = 0;
            youngGcPer1kRequests = 0;
            youngGcs = 0;
            fullGcs = 0;
            gcPauseSecPerMin = 0;
            gcPauses = 0;
            gcPauseP50Ms = 0;
            gcPauseP99Ms = 0;
            gcPauseMaxMs = 0;
            youngGenMb = 0;
            if (reporting) {
                if (measuring) {
                    measured++;
                    lastMeasured = measured == iteration.getCount();
                }
                if (recording == null) {
                    recording = new PauseRecording();
                }
                if (measuring) {
                    recording.open();
                }
                GcPauseLog.get().mark();
                youngAtStart = g1.young();
                fullAtStart = g1.full();
                servedAtStart = bench.served.sum();
                startNanos = System.nanoTime();
            }
        }

        @TearDown(Level.Iteration)
        public void stop(G1Benchmark bench) throws IOException {
            // Warm-up figures are not kept, so warm-up skips drain()'s wait for JFR.
            if (!reporting || !measuring) {
                return;
            }
            recording.closeWindow();
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            long requests = bench.served.sum() - servedAtStart;
            long young = g1.young() - youngAtStart;
            GcPauseLog.Window w = GcPauseLog.get().drain();
            youngGcs = young;
            fullGcs = g1.full() - fullAtStart;
            youngGcPerSec = EventShares.share(young / seconds, benchmark, 1);
            youngGcPer1kRequests = EventShares.share(requests == 0 ? 0 : young * 1000.0 / requests, benchmark, 1);
            gcPauseSecPerMin = EventShares.share(w.totalNanos() / 1e9 / (seconds / 60), benchmark, 1);
            gcPauses = w.pauses();
            youngGenMb = EventShares.share(g1.youngGenerationBytes() / 1048576.0, benchmark, 1);
            if (lastMeasured) {
                PauseDistribution pauses = new PauseDistribution();
                pauses.add(recording.pauses());
                recording.close();
                double forks = EventShares.forks(benchmark);
                gcPauseP50Ms = pauses.percentileMs(50) / forks;
                gcPauseP99Ms = pauses.percentileMs(99) / forks;
                gcPauseMaxMs = pauses.percentileMs(100) / forks;
            }
        }
    }
}
