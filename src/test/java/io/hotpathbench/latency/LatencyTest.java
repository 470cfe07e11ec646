package io.hotpathbench.latency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotpathbench.ParamValues;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LatencyTest {

    /** The benchmark's sizes and seeds, read from its @Param annotations. */
    private static final int[] SAMPLES = ParamValues.ints(LatencyBenchmark.Recorded.class, "samples");
    private static final long SEED = ParamValues.longs(LatencyBenchmark.Recorded.class, "seed")[0];
    private static final int BODY_BYTES = ParamValues.ints(LatencyBenchmark.Bodies.class, "bodyBytes")[0];
    private static final int KEPT = ParamValues.ints(LatencyBenchmark.Bodies.class, "kept")[0];
    private static final long BODY_SEED = ParamValues.longs(LatencyBenchmark.Bodies.class, "seed")[0];
    private static final int REQUEST_BODY_BYTES = ParamValues.ints(LatencyBenchmark.Exchanges.class, "bodyBytes")[0];
    private static final long REQUEST_SEED = ParamValues.longs(LatencyBenchmark.Exchanges.class, "seed")[0];

    /** The exact summary of each benchmark stream, computed here from a sorted copy, independently of the recorders and LatencySummary. */
    private static final Map<Integer, LatencySummary> EXPECTED = new HashMap<>();


    @ParameterizedTest
    @EnumSource(RecorderType.class)
    void everyRecorderSummarizesTheBenchmarkStreamAsTheBoxedListDoes(RecorderType variant) {
        for (int samples : SAMPLES) {
            LatencyBenchmark.Recorded state = recorded(variant, samples);
            LatencySummary summary = new LatencyBenchmark().summary(state, null);
            assertAgrees(variant, expected(samples), summary, state.recorder);
            assertEquals(samples, state.recorder.count());
            assertTrue(state.bytesPerSample > 0, variant + " bytesPerSample " + state.bytesPerSample);
            assertEquals(summary, state.recorder.summary(), "a summary leaves the recorded values as they are");
        }
    }

    @ParameterizedTest
    @EnumSource(RecorderType.class)
    void recordReplaysTheStreamIntoAFreshRecorderEverySamplesValues(RecorderType variant) {
        int samples = SAMPLES[0];
        LatencyBenchmark.Recording state = new LatencyBenchmark.Recording();
        state.variant = variant;
        state.samples = samples;
        state.seed = SEED;
        state.start();
        LatencyBenchmark benchmark = new LatencyBenchmark();
        LatencyRecorder first = state.recorder;
        LatencyRecorder returned = null;
        for (int call = 0; call < samples / LatencyBenchmark.BATCH; call++) {
            returned = benchmark.record(state);
            assertSame(first, returned);
        }
        assertNotSame(first, state.recorder, "a full recorder is replaced");
        assertEquals(0, state.recorder.count());
        assertEquals(0, state.next);
        assertAgrees(variant, expected(samples), returned.summary(), returned);
        assertEquals(LatencyBenchmark.BATCH, benchmark.record(state).count(), "the next call starts over");
    }

    @Test
    void batchDividesEveryBenchmarkSize() {
        for (int samples : SAMPLES) {
            assertEquals(0, samples % LatencyBenchmark.BATCH, "samples " + samples);
        }
    }

    @Test
    void boxedListMatchesTheIndependentSummary() {
        int[] values = {5, 1, 4, 4, 2, 300, 7, 128, 9, 10};
        LatencyRecorder recorder = RecorderType.BOXED_LIST.create();
        Arrays.stream(values).forEach(recorder::record);
        // Nearest rank of 10 values: p50 is the 5th smallest, p90 the 9th, p99 and p99.9 the 10th.
        assertEquals(new LatencySummary(10, 1, 300, 47.0, 5, 128, 300, 300), recorder.summary());
    }

    @ParameterizedTest
    @EnumSource(RecorderType.class)
    void anEmptyRecorderSummarizesToZeros(RecorderType variant) {
        assertEquals(new LatencySummary(0, 0, 0, 0.0, 0, 0, 0, 0), variant.create().summary());
    }

    @ParameterizedTest
    @EnumSource(RecorderType.class)
    void oneValueIsEveryStatistic(RecorderType variant) {
        LatencyRecorder recorder = variant.create();
        recorder.record(250);
        assertEquals(new LatencySummary(1, 250, 250, 250.0, 250, 250, 250, 250), recorder.summary());
    }

    @ParameterizedTest
    @EnumSource(RecorderType.class)
    void everyRecorderHoldsShortMaxValueExactly(RecorderType variant) {
        LatencyRecorder recorder = variant.create();
        recorder.record(0);
        recorder.record(Short.MAX_VALUE);
        LatencySummary summary = recorder.summary();
        assertEquals(0, summary.min());
        assertEquals(Short.MAX_VALUE, summary.p999(), () -> variant + " " + summary);
        if (variant != RecorderType.HDR_HISTOGRAM) {
            assertEquals(new LatencySummary(2, 0, Short.MAX_VALUE, Short.MAX_VALUE / 2.0, 0, Short.MAX_VALUE,
                    Short.MAX_VALUE, Short.MAX_VALUE), summary);
        }
    }

    @Test
    void shortArraySaturatesAboveShortMaxValue() {
        int[] values = {100, 40_000, Short.MAX_VALUE, Short.MAX_VALUE + 1, 1_000_000};
        LatencyRecorder shorts = RecorderType.SHORT_ARRAY.create();
        LatencyRecorder ints = RecorderType.INT_ARRAY.create();
        for (int value : values) {
            shorts.record(value);
            ints.record(value);
        }
        assertEquals(new LatencySummary(5, 100, Short.MAX_VALUE, (100 + 4.0 * Short.MAX_VALUE) / 5, Short.MAX_VALUE,
                Short.MAX_VALUE, Short.MAX_VALUE, Short.MAX_VALUE), shorts.summary());
        assertEquals(new LatencySummary(5, 100, 1_000_000, (100 + 40_000 + 32_767 + 32_768 + 1_000_000) / 5.0,
                32_768, 1_000_000, 1_000_000, 1_000_000), ints.summary());
        assertEquals(-25_536, (short) 40_000, "what a plain cast would have stored");
    }

    @Test
    void hdrHistogramRejectsValuesAboveItsRange() {
        LatencyRecorder recorder = RecorderType.HDR_HISTOGRAM.create();
        recorder.record((int) HdrHistogramRecorder.HIGHEST_TRACKABLE_MILLIS);
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> recorder.record((int) HdrHistogramRecorder.HIGHEST_TRACKABLE_MILLIS * 2));
    }

    @Test
    void hdrHistogramReportsTheTopOfEachValuesBucket() {
        HdrHistogramRecorder recorder = (HdrHistogramRecorder) RecorderType.HDR_HISTOGRAM.create();
        recorder.record(2_047);
        assertEquals(2_047, recorder.summary().max(), "exact below 2,048");
        HdrHistogramRecorder wide = (HdrHistogramRecorder) RecorderType.HDR_HISTOGRAM.create();
        wide.record(29_990);
        assertEquals(29_999, wide.summary().max(), "a 16 ms bucket near 30 s: 29,984 to 29,999");
        assertEquals(29_999, wide.highestEquivalentValue(29_984));
    }

    @Test
    void responseTimesAreLongTailedMillisecondsThatFitAShort() {
        int[] values = ResponseTimes.generate(SEED, SAMPLES[0]);
        assertArrayEquals(values, ResponseTimes.generate(SEED, SAMPLES[0]), "seeded");
        int[] sorted = values.clone();
        Arrays.sort(sorted);
        assertTrue(sorted[0] >= 1 && sorted[sorted.length - 1] <= ResponseTimes.TIMEOUT_MILLIS);
        assertTrue(ResponseTimes.TIMEOUT_MILLIS <= Short.MAX_VALUE);
        int median = sorted[sorted.length / 2];
        assertTrue(median > 230 && median < 270, "median " + median);
        int p999 = sorted[LatencySummary.rank(999, sorted.length) - 1];
        assertTrue(p999 > 10 * median, "p99.9 " + p999 + " is at least ten medians");
        double cached = Arrays.stream(values).filter(v -> v <= 127).count() / (double) values.length;
        assertTrue(cached > 0.07 && cached < 0.11, "share of values in Integer's cache: " + cached);
    }


    @ParameterizedTest
    @EnumSource(BodyHandling.class)
    void everyBodyHandlingReportsTheStatusAndLengthThatKeepStringDoes(BodyHandling variant) throws IOException {
        LatencyBenchmark.Bodies state = bodies(variant);
        LatencyBenchmark.Bodies baseline = bodies(BodyHandling.KEEP_STRING);
        HttpResponses responses = HttpResponses.generate(BODY_SEED, LatencyBenchmark.RESPONSES, BODY_BYTES);
        LatencyBenchmark benchmark = new LatencyBenchmark();
        for (int i = 0; i < 2 * LatencyBenchmark.RESPONSES; i++) {
            RequestOutcome outcome = benchmark.body(state, null);
            RequestOutcome expected = benchmark.body(baseline, null);
            int r = (KEPT + i) % LatencyBenchmark.RESPONSES;
            assertEquals(expected.status(), outcome.status(), "status " + i);
            assertEquals(expected.length(), outcome.length(), "length " + i);
            assertEquals(responses.status(r), outcome.status());
            assertEquals(responses.body(r).length, outcome.length());
            if (variant == BodyHandling.KEEP_STRING) {
                assertArrayEquals(responses.body(r), outcome.body().getBytes(StandardCharsets.UTF_8));
            } else {
                assertNull(outcome.body());
            }
            assertSame(outcome, state.outcomes[(KEPT + i) & (KEPT - 1)], "kept in the ring");
        }
        assertTrue(state.bytesPerRequest > 0, variant + " bytesPerRequest " + state.bytesPerRequest);
    }

    @Test
    void bodiesAreJsonPagesOfAFewKilobytesWithLatin1Names() {
        HttpResponses responses = HttpResponses.generate(BODY_SEED, LatencyBenchmark.RESPONSES, BODY_BYTES);
        long pageBytes = 0;
        int pages = 0;
        boolean accented = false;
        for (int i = 0; i < responses.count(); i++) {
            String body = new String(responses.body(i), StandardCharsets.UTF_8);
            assertTrue(body.startsWith("{\"requestId\":\"") && body.endsWith("}"), body);
            assertTrue(body.chars().allMatch(c -> c < 256), "nothing beyond Latin-1");
            accented |= body.length() < responses.body(i).length;
            if (responses.status(i) == 200) {
                assertTrue(body.endsWith("]}") && responses.body(i).length >= BODY_BYTES / 2
                        && responses.body(i).length < BODY_BYTES * 3 / 2 + 512, "size " + responses.body(i).length);
                pageBytes += responses.body(i).length;
                pages++;
            } else {
                assertTrue(responses.status(i) == 404 || responses.status(i) == 503, "status " + responses.status(i));
            }
        }
        assertTrue(accented, "some names take two bytes per letter in UTF-8");
        assertTrue(pages > 0.9 * responses.count() && pages < responses.count(), "pages " + pages);
        double mean = pageBytes / (double) pages;
        assertTrue(Math.abs(mean - BODY_BYTES) < 0.1 * BODY_BYTES, "mean page " + mean);
    }


    @ParameterizedTest
    @EnumSource(RequestWrapping.class)
    void everyWrappingReturnsWhatPlainDoes(RequestWrapping variant) throws IOException {
        LatencyBenchmark.Exchanges state = exchanges(variant);
        LatencyBenchmark.Exchanges baseline = exchanges(RequestWrapping.PLAIN);
        HttpResponses responses = HttpResponses.generate(REQUEST_SEED, LatencyBenchmark.RESPONSES, REQUEST_BODY_BYTES);
        LatencyBenchmark benchmark = new LatencyBenchmark();
        for (int i = 0; i < 2 * LatencyBenchmark.RESPONSES; i++) {
            long result = benchmark.request(state);
            assertEquals(benchmark.request(baseline), result, "request " + i);
            int r = i % LatencyBenchmark.RESPONSES;
            assertEquals(responses.status(r), ResponseReader.status(result));
            assertEquals(responses.body(r).length, ResponseReader.length(result));
        }
    }

    @Test
    void onlyTheFailurePathDiffers() {
        byte[] truncated = Arrays.copyOf(HttpResponses.generate(REQUEST_SEED, 1, REQUEST_BODY_BYTES).raw(0), 500);
        assertThrows(IOException.class, () -> RequestWrapping.PLAIN.create().send(truncated));
        assertEquals(RequestWrapping.FAILED, assertDoesNotThrow(() -> RequestWrapping.TRY_CATCH.create().send(truncated)));
    }

    @Test
    void readerParsesHeadersWithoutRegardToCaseAndRejectsMalformedResponses() throws IOException {
        byte[] buffer = new byte[ResponseReader.BUFFER_BYTES];
        long read = ResponseReader.read(ascii("HTTP/1.1 201 Created\r\nX-A: 1\r\ncontent-LENGTH:  5 \r\n\r\nhello"), buffer);
        assertEquals(201, ResponseReader.status(read));
        assertEquals(5, ResponseReader.length(read));
        assertEquals("hello", new String(buffer, 0, 5, StandardCharsets.US_ASCII));
        String[] malformed = {
            "HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: five\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n",
        };
        for (String response : malformed) {
            assertThrows(IOException.class, () -> ResponseReader.read(ascii(response), buffer), response);
        }
    }


    /** For a count divisible by 1000 the nearest rank of quantile q is exactly q * n. */
    private static LatencySummary expected(int samples) {
        return EXPECTED.computeIfAbsent(samples, n -> {
            int[] s = ResponseTimes.generate(SEED, n);
            Arrays.sort(s);
            double mean = Arrays.stream(s).asLongStream().sum() / (double) n;
            return new LatencySummary(n, s[0], s[n - 1], mean, s[n / 2 - 1], s[n / 10 * 9 - 1], s[n / 100 * 99 - 1],
                    s[n / 1000 * 999 - 1]);
        });
    }

    /** Exactly the expected summary for the lists; for the histogram, within its 3 significant digits. */
    private static void assertAgrees(RecorderType variant, LatencySummary expected, LatencySummary actual,
                                     LatencyRecorder recorder) {
        if (variant != RecorderType.HDR_HISTOGRAM) {
            assertEquals(expected, actual, variant.name());
            return;
        }
        HdrHistogramRecorder hdr = (HdrHistogramRecorder) recorder;
        assertEquals(expected.count(), actual.count());
        assertEquals(expected.min(), actual.min(), "min below 2,048 ms is exact");
        long[] exact = {expected.max(), expected.p50(), expected.p90(), expected.p99(), expected.p999()};
        long[] reported = {actual.max(), actual.p50(), actual.p90(), actual.p99(), actual.p999()};
        for (int i = 0; i < exact.length; i++) {
            assertEquals(hdr.highestEquivalentValue(exact[i]), reported[i], "the top of the exact value's bucket");
            assertTrue(reported[i] - exact[i] <= exact[i] / 1000, reported[i] + " within 1/1000 of " + exact[i]);
        }
        assertEquals(expected.mean(), actual.mean(), expected.mean() / 1000, "mean within 1/1000");
    }

    private static LatencyBenchmark.Recorded recorded(RecorderType variant, int samples) {
        LatencyBenchmark.Recorded state = new LatencyBenchmark.Recorded();
        state.variant = variant;
        state.samples = samples;
        state.seed = SEED;
        state.fill();
        return state;
    }

    private static LatencyBenchmark.Bodies bodies(BodyHandling variant) throws IOException {
        LatencyBenchmark.Bodies state = new LatencyBenchmark.Bodies();
        state.variant = variant;
        state.bodyBytes = BODY_BYTES;
        state.kept = KEPT;
        state.seed = BODY_SEED;
        state.fill();
        return state;
    }

    private static LatencyBenchmark.Exchanges exchanges(RequestWrapping variant) {
        LatencyBenchmark.Exchanges state = new LatencyBenchmark.Exchanges();
        state.variant = variant;
        state.bodyBytes = REQUEST_BODY_BYTES;
        state.seed = REQUEST_SEED;
        state.generate();
        return state;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
