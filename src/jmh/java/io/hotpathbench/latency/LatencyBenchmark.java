package io.hotpathbench.latency;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import io.hotpathbench.Heap;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A load generator's per-request bookkeeping, in three pairs that each pick their variant with their
 * own {@code variant}. Response times ({@code record}, {@code summary}): {@code samples} seeded
 * long-tailed times in milliseconds ({@link ResponseTimes}) go into an {@code ArrayList<Integer>}
 * ({@code BOXED_LIST}, the usual "before"), a growable {@code int[]}, a growable {@code short[]}
 * (the write-up's fix, saturating at 32,767 ms) or an HdrHistogram with 3 significant digits; the
 * summary at the end (count, min, max, mean, p50/p90/p99/p99.9) is the same for every variant,
 * exactly for the arrays and within the histogram's precision, and the JSON holds each recorder's
 * retained heap per value as {@code bytesPerSample} (JMH prints its unit as {@code #}: bytes). Response bodies ({@code body}): seeded JSON
 * product pages of about {@code bodyBytes} ({@link HttpResponses}) decoded into a kept
 * {@code String} ({@code KEEP_STRING}) or drained keeping only status and length
 * ({@code CONSUME}), each outcome kept for the next {@code kept} requests, with the retained heap
 * per request as {@code bytesPerRequest} (bytes). A try/catch ({@code request}): the same parse and drain
 * of a raw HTTP response ({@link ResponseReader}) without ({@code PLAIN}) or inside
 * ({@code TRY_CATCH}) a try/catch that never catches anything. Run with
 * {@code mvn jmh:run -Djmh.include=Latency} (add {@code -Djmh.quick} for a short check).
 */
// Settings from the pilot (results/pilot/20261123T234139Z-973136b-dirty.json, two trials at these
// settings): a fork costs 5 s (record, summary at 1M), 5-17 s (summary at 10M, BOXED_LIST the slowest),
// 9-14 s (body) and 7 s (request), JVM start and setup included, so forks are cheap here. The heap
// figures (bytesPerSample, bytesPerRequest) come from the setup and agreed between forks to 0.1%; the
// timings' forks differed by up to 30% (body CONSUME 3.1 and 4.2 ops/us) with iterations within a fork
// agreeing to 1-15%. Warm-up and measurement stay; at least 5 trials (min_trials in latency.json; @Fork
// is JMH's fork count) replicate the JIT outcome, as request's 5 forks already did. Parallel GC for every
// method because its used heap after System.gc() is the live objects' bytes (see Heap); 2 GB holds
// the largest state, ten million boxed values (~200 MB) beside the copy a summary sorts.
@Fork(value = 5, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
@Warmup(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class LatencyBenchmark extends BenchmarkDefaults {

    /** Values recorded per {@code record} call; divides every {@code samples}. */
    static final int BATCH = 1000;

    /** Distinct responses of the body and request pairs, cycled: about 1 MB. */
    static final int RESPONSES = 256;

    /** Pair 1's seeded response times, {@code samples} of them. */
    @State(Scope.Thread)
    public static class ResponseTimeStream {

        @Param
        RecorderType variant;

        @Param({"1000000", "10000000"})
        int samples;

        @Param("42")
        long seed;

        int[] values;

        void generate() {
            if (samples % BATCH != 0) {
                throw new IllegalArgumentException("samples must be a multiple of " + BATCH + ": " + samples);
            }
            values = ResponseTimes.generate(seed, samples);
        }
    }

    /** {@code record}'s recorder, replaced by an empty one after every {@code samples} values. */
    public static class Recording extends ResponseTimeStream {

        LatencyRecorder recorder;
        int next;

        @Setup(Level.Trial)
        public void start() {
            generate();
            recorder = variant.create();
        }
    }

    /** {@code summary}'s recorder, filled once with the whole stream, and the heap it retains. */
    @State(Scope.Benchmark)
    public static class Recorded extends ResponseTimeStream {

        LatencyRecorder recorder;
        double bytesPerSample;

        @Setup(Level.Trial)
        public void fill() {
            Heap.require("LatencyBenchmark " + variant + " samples=" + samples, samples * 64L + (256L << 20));
            generate();
            long before = Heap.retainedBytes();
            recorder = variant.create();
            for (int value : values) {
                recorder.record(value);
            }
            long after = Heap.retainedBytes();
            bytesPerSample = (double) (after - before) / samples;
        }
    }

    /** Puts {@code bytesPerSample} into the results as {@link EventShares} describes. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class SampleFootprint {

        /** Heap retained by a recorder holding {@code samples} values, per value, in bytes. */
        public double bytesPerSample;

        @TearDown(Level.Iteration)
        public void share(Recorded recorded, BenchmarkParams params) {
            bytesPerSample = EventShares.share(recorded.bytesPerSample, params, params.getThreads());
        }
    }

    /**
     * The cost of recording one response time: {@code BATCH} values of the stream into the current
     * recorder per call, which is replaced by an empty one once it holds all {@code samples}, so the
     * recorder's creation and every growth up to {@code samples} are in the per-value cost, and the live
     * heap holds at most one full recorder. The values cycle through the same stream that
     * {@code summary}'s recorder holds. A loop of {@code BATCH} records per call leaves out the
     * harness's per-call overhead, which would be as large as an array store.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(BATCH)
    public LatencyRecorder record(Recording state) {
        LatencyRecorder recorder = state.recorder;
        int[] values = state.values;
        int from = state.next;
        for (int i = from; i < from + BATCH; i++) {
            recorder.record(values[i]);
        }
        state.next = from + BATCH;
        if (state.next == state.samples) {
            state.next = 0;
            state.recorder = state.variant.create();
        }
        return recorder;
    }

    /**
     * The summary at the end of a test over {@code samples} recorded values, in milliseconds per
     * summary: the lists sort a copy (ten million boxed values in about 1.6 s, compared as
     * {@code Integer}s; a {@code short[]} by counting), the histogram walks its counts. Average time
     * rather than single shot: a call takes 0.05 to 1,600 ms, so an iteration holds one call or
     * thousands, and one warm-up iteration compiles the sort (at 10M, on the stack of the first call).
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    public LatencySummary summary(Recorded state, SampleFootprint footprint) {
        return state.recorder.summary();
    }

    /** Pair 2's responses, the handler under test and the ring of kept outcomes. */
    @State(Scope.Thread)
    public static class Bodies {

        @Param
        BodyHandling variant;

        @Param("4096")
        int bodyBytes;

        /** Outcomes kept per thread, a power of two: each survives the next {@code kept} requests. */
        @Param("65536")
        int kept;

        @Param("42")
        long seed;

        HttpResponses responses;
        BodyHandler handler;
        RequestOutcome[] outcomes;
        int next;
        double bytesPerRequest;

        @Setup(Level.Trial)
        public void fill() throws IOException {
            if (Integer.bitCount(kept) != 1) {
                throw new IllegalArgumentException("kept must be a power of two: " + kept);
            }
            Heap.require("LatencyBenchmark " + variant + " kept=" + kept, kept * (bodyBytes * 2L + 256) + (256L << 20));
            responses = HttpResponses.generate(seed, RESPONSES, bodyBytes);
            handler = variant.create();
            outcomes = new RequestOutcome[kept];
            long before = Heap.retainedBytes();
            for (int i = 0; i < kept; i++) {
                handle();
            }
            long after = Heap.retainedBytes();
            bytesPerRequest = (double) (after - before) / kept;
        }

        RequestOutcome handle() throws IOException {
            int i = next++;
            int r = i & (RESPONSES - 1);
            RequestOutcome outcome = handler.handle(responses.status(r), new ByteArrayInputStream(responses.body(r)));
            outcomes[i & (kept - 1)] = outcome;
            return outcome;
        }
    }

    /** Puts {@code bytesPerRequest} into the results as {@link EventShares} describes. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class RequestFootprint {

        /** Heap retained by one request's kept outcome, in bytes. */
        public double bytesPerRequest;

        @TearDown(Level.Iteration)
        public void share(Bodies bodies, BenchmarkParams params) {
            bytesPerRequest = EventShares.share(bodies.bytesPerRequest, params, params.getThreads());
        }
    }

    /**
     * One response body handled and its outcome kept, in requests per microsecond: read from a
     * stream over the body's bytes (as a client reads its connection), then decoded into a kept
     * {@code String} or drained. The outcome replaces the one kept {@code kept} requests ago, so a
     * kept body survives young collections and is promoted, as the tool's were, while the heap stays
     * bounded. One-second iterations, because {@code KEEP_STRING} pauses for a young collection
     * about every 40,000 requests (12 KB allocated per request into a ~500 MB eden), and an
     * iteration should hold several.
     */
    @Benchmark
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 5, time = 1)
    public RequestOutcome body(Bodies state, RequestFootprint footprint) throws IOException {
        return state.handle();
    }

    /** Pair 3's raw responses and the requester under test. */
    @State(Scope.Thread)
    public static class Exchanges {

        @Param
        RequestWrapping variant;

        @Param("4096")
        int bodyBytes;

        @Param("42")
        long seed;

        byte[][] responses;
        Requester requester;
        int next;

        @Setup(Level.Trial)
        public void generate() {
            HttpResponses generated = HttpResponses.generate(seed, RESPONSES, bodyBytes);
            responses = new byte[RESPONSES][];
            for (int i = 0; i < RESPONSES; i++) {
                responses[i] = generated.raw(i);
            }
            requester = variant.create();
        }
    }

    /**
     * One request's response parsed and drained, in requests per microsecond, with or without a
     * try/catch that catches nothing. The work, about 0.2 us, is neither folded away (every
     * response's headers are scanned and its body copied) nor so small that the shape of the call
     * dominates. This pair's answer is "no measurable difference", so it needs a precision that can
     * say so: the ratio's interval within +/-5% needs each score within about +/-2%. Fork means of
     * this parse differ by about 3% (code layout), more than iterations within a fork, so the
     * samples come from 5 forks of 6 half-second iterations (30 samples, t = 3.66 at 99.9%); 2.5 s
     * of warm-up because tier-up took up to 2 s in some forks on the shared 2-core machine.
     */
    @Benchmark
    @Fork(value = 5, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
    @Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    @Measurement(iterations = 6, time = 500, timeUnit = TimeUnit.MILLISECONDS)
    public long request(Exchanges state) throws IOException {
        return state.requester.send(state.responses[state.next++ & (RESPONSES - 1)]);
    }
}
