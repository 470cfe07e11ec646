package io.hotpathbench.gc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hotpathbench.Heap;
import io.hotpathbench.ParamValues;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

class G1Test {

    /** The benchmark's @Benchmark methods, the baseline (g1Default) first. */
    private static List<Method> benchmarkMethods() {
        List<Method> out = new ArrayList<>();
        for (Method m : G1Benchmark.class.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) {
                out.add(m);
            }
        }
        out.sort((a, b) -> a.getName().equals("g1Default") ? -1 : b.getName().equals("g1Default") ? 1 : a.getName().compareTo(b.getName()));
        assertEquals("g1Default", out.get(0).getName());
        return out;
    }

    /** A benchmark state at a small size, built as the benchmark's trial set-up builds it (less the flag check). */
    private static G1Benchmark smallBenchmark() {
        G1Benchmark bench = new G1Benchmark();
        bench.sessions = 2_000;
        bench.sessionBytes = 256;
        bench.replyBytes = Integer.parseInt(ParamValues.of(G1Benchmark.class, "replyBytes").get(0));
        bench.refreshEvery = Integer.parseInt(ParamValues.of(G1Benchmark.class, "refreshEvery").get(0));
        bench.seed = 42;
        bench.build();
        return bench;
    }

    /** Runs {@code method} on a fresh state for {@code n} requests and collects what it returns. */
    private static long[] run(Method method, int n) throws ReflectiveOperationException {
        G1Benchmark bench = smallBenchmark();
        G1Benchmark.Cursor cursor = new G1Benchmark.Cursor();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = (long) method.invoke(bench, cursor, null);
        }
        assertEquals(n, bench.served.sum());
        return out;
    }

    @Test
    void everyVariantServesTheSameRequestsAsTheBaseline() throws ReflectiveOperationException {
        List<Method> methods = benchmarkMethods();
        assertEquals(3, methods.size(), "g1Default, g1PauseGoal, g1Published");
        long[] expected = run(methods.get(0), 5_000);
        for (Method m : methods.subList(1, methods.size())) {
            assertArrayEquals(expected, run(m, 5_000), m.getName());
        }
    }

    @Test
    void eachMethodForksWithItsOwnFlags() {
        assertEquals(List.of(G1Flags.HEAP_MIN, G1Flags.HEAP_MAX, G1Flags.G1, G1Flags.PRE_TOUCH), G1Benchmark.flagsOf("g1Default"));
        assertEquals(List.of(G1Flags.HEAP_MIN, G1Flags.HEAP_MAX, G1Flags.G1, G1Flags.PAUSE_GOAL, G1Flags.PRE_TOUCH),
                G1Benchmark.flagsOf("g1PauseGoal"));
        List<String> writeUp = new ArrayList<>(G1Flags.WRITE_UP);
        writeUp.add(G1Flags.PRE_TOUCH);
        assertEquals(writeUp, G1Benchmark.flagsOf("g1Published"));
        for (Method m : benchmarkMethods()) {
            assertDoesNotThrow(() -> G1Benchmark.flagsOf(m.getName()), m.getName() + " needs its own @Fork(jvmArgsAppend)");
        }
        assertThrows(IllegalArgumentException.class, () -> G1Benchmark.flagsOf("serve"));
    }

    private static final Pattern SIZE = Pattern.compile("(-Xm[sxn])(\\d+)([gGmM])");

    /** A size flag in MiB, e.g. -Xmn1536m -> 1536. */
    private static long mib(Matcher m) {
        long n = Long.parseLong(m.group(2));
        return m.group(3).equalsIgnoreCase("g") ? n * 1024 : n;
    }

    @Test
    void theWriteUpsFlagsAreScaledByOneEighthInSizeOnly() {
        assertEquals(G1Flags.PUBLISHED.size(), G1Flags.WRITE_UP.size());
        for (int i = 0; i < G1Flags.PUBLISHED.size(); i++) {
            String published = G1Flags.PUBLISHED.get(i);
            String scaled = G1Flags.WRITE_UP.get(i);
            Matcher p = SIZE.matcher(published);
            if (p.matches()) {
                Matcher s = SIZE.matcher(scaled);
                assertTrue(s.matches(), scaled);
                assertEquals(p.group(1), s.group(1));
                assertEquals(mib(p), mib(s) * G1Flags.SCALE, published + " / " + G1Flags.SCALE + " is not " + scaled);
            } else {
                assertEquals(published, scaled, "only sizes scale");
            }
        }
    }

    @Test
    void aForkWithOtherOptionsIsRefusedInOneLine() {
        List<String> own = G1Flags.WRITE_UP;
        assertDoesNotThrow(() -> G1Flags.require("g1Published", own, own));
        List<String> prepended = new ArrayList<>(List.of("-XX:+UseCompactObjectHeaders"));
        prepended.addAll(own);
        List<String> replaced = List.of("-Xms4g", "-Xmx4g", "-XX:+UseZGC");
        List<String> appended = new ArrayList<>(own);
        appended.add("-XX:MaxGCPauseMillis=200");
        for (List<String> actual : List.of(prepended, replaced, appended, List.<String>of())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> G1Flags.require("g1Published", own, actual));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains("-Djmh.jvmArgsAppend"), e.getMessage());
            assertTrue(e.getMessage().contains("g1Published"), e.getMessage());
        }
    }

    @Test
    void whatJmhAddsToEveryForkIsNoOverride() {
        List<String> fork = new ArrayList<>(G1Flags.WRITE_UP);
        fork.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+UnlockExperimentalVMOptions",
                "-DcompilerBlackholesEnabled=true", "-XX:CompileCommandFile=/tmp/jmh123.compilecommand"));
        assertEquals(G1Flags.WRITE_UP, G1Flags.withoutJmhOwn(fork));
        List<String> overridden = new ArrayList<>(fork);
        overridden.add(0, "-Xmx1g");
        assertThrows(IllegalStateException.class,
                () -> G1Flags.require("g1Published", G1Flags.WRITE_UP, G1Flags.withoutJmhOwn(overridden)));
    }

    @Test
    void theSweepRefreshesOneSessionEveryRefreshEveryRequests() {
        MessageService service = new MessageService(100, 64, 1024, 4, 7);
        byte[][] sink = new byte[1][];
        Session[] before = new Session[100];
        for (int s = 0; s < 100; s++) {
            before[s] = service.session(s);
        }
        for (long n = 0; n < 40; n++) {
            service.handle(n, sink);
        }
        for (int s = 0; s < 100; s++) {
            if (s < 10) {
                assertNotSame(before[s], service.session(s), "session " + s);
                assertEquals(before[s].id, service.session(s).id);
                assertEquals(4L * s, service.session(s).lastSeen);
                assertEquals(before[s].phone, service.session(s).phone);
                int differing = 0;
                for (int k = 0; k < 64; k++) {
                    differing += before[s].state[k] != service.session(s).state[k] ? 1 : 0;
                }
                assertTrue(differing <= 1, "a refresh changes one byte of the state");
            } else {
                assertSame(before[s], service.session(s), "session " + s);
            }
        }
        // request number 400 wraps the sweep around to session 0 again
        Session first = service.session(0);
        service.handle(400, sink);
        assertNotSame(first, service.session(0));
    }

    @Test
    void requestsAreSeededAndRepliesHaveTheirSize() {
        MessageService a = new MessageService(1_000, 128, 5_000, 3, 11);
        MessageService b = new MessageService(1_000, 128, 5_000, 3, 11);
        MessageService other = new MessageService(1_000, 128, 5_000, 3, 12);
        byte[][] sink = new byte[1][];
        long differ = 0;
        for (long n = 0; n < 2 * MessageService.REQUESTS; n += 31) {
            long x = a.handle(n, sink);
            assertEquals(5_000, sink[0].length);
            assertEquals(x, b.handle(n, sink));
            differ += x != other.handle(n, sink) ? 1 : 0;
        }
        assertTrue(differ > 0, "another seed draws other requests");
        assertThrows(IllegalArgumentException.class, () -> new MessageService(0, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new MessageService(1, 1, 1, 0, 1));
    }

    @Test
    void aRequestAllocatesTensOfKilobytes() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int replyBytes = Integer.parseInt(ParamValues.of(G1Benchmark.class, "replyBytes").get(0));
        MessageService service = new MessageService(1_000, 1024, replyBytes, 4, 42);
        byte[][] sink = new byte[1][];
        for (long n = 0; n < 20_000; n++) {
            service.handle(n, sink);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        int requests = 10_000;
        for (long n = 20_000; n < 20_000 + requests; n++) {
            service.handle(n, sink);
        }
        double perRequest = (threads.getThreadAllocatedBytes(id) - before) / (double) requests;
        assertTrue(perRequest > 2.9 * replyBytes && perRequest < 3.5 * replyBytes,
                perRequest + " bytes per request, expected about three times the reply (" + replyBytes + ")");
    }

    /** A tenth of the benchmark's sessions, measured, times ten: the live set the benchmark's forks hold. */
    @Test
    void theBenchmarksLiveSetIsAFewHundredMegabytes() {
        int sessions = Integer.parseInt(ParamValues.of(G1Benchmark.class, "sessions").get(0));
        int sessionBytes = Integer.parseInt(ParamValues.of(G1Benchmark.class, "sessionBytes").get(0));
        long before = Heap.retainedBytes();
        MessageService service = new MessageService(sessions / 10, sessionBytes, 1024, 4, 42);
        long live = (Heap.retainedBytes() - before) * 10;
        assertEquals(sessions / 10, service.sessions());
        assertTrue(live > 200L << 20 && live < 600L << 20, live + " bytes live");
    }

    @Test
    void percentilesAreNearestRank() {
        PauseDistribution none = new PauseDistribution();
        assertEquals(0, none.percentileMs(99));
        PauseDistribution one = new PauseDistribution();
        one.add(new long[] {3_000_000});
        assertEquals(3.0, one.percentileMs(50));
        assertEquals(3.0, one.percentileMs(100));
        PauseDistribution hundred = new PauseDistribution();
        long[] first = new long[60];
        long[] rest = new long[40];
        for (int i = 0; i < 100; i++) {
            // 1..100 ms, added in two windows and out of order
            if (i < 60) {
                first[i] = (100 - i) * 1_000_000L;
            } else {
                rest[i - 60] = (100 - i) * 1_000_000L;
            }
        }
        hundred.add(first);
        hundred.add(rest);
        hundred.add(new long[0]);
        assertEquals(100, hundred.count());
        assertEquals(50.0, hundred.percentileMs(50));
        assertEquals(99.0, hundred.percentileMs(99));
        assertEquals(100.0, hundred.percentileMs(100));
        assertEquals(1.0, hundred.percentileMs(0.5));
        assertThrows(IllegalArgumentException.class, () -> hundred.percentileMs(0));
        assertThrows(IllegalArgumentException.class, () -> hundred.percentileMs(101));
    }

    @Test
    void g1CountsYoungAndFullCollections() {
        assumeTrue(ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(b -> b.getName().startsWith("G1 ")),
                "the test JVM runs G1");
        G1Collections g1 = G1Collections.of();
        long full = g1.full();
        System.gc();
        assertTrue(g1.full() > full, "System.gc() is a full collection under G1");
        long young = g1.young();
        List<byte[]> keep = new ArrayList<>();
        for (int i = 0; g1.young() == young && i < 1_000_000; i++) {
            keep.add(new byte[10_000]);
            if (keep.size() > 100) {
                keep.clear();
            }
        }
        assertTrue(g1.young() > young, "allocation ran a young collection");
        assertTrue(g1.youngGenerationBytes() > 0);
    }

    @Test
    void aPauseRecordingKeepsThePausesOfItsWindowsOnly() throws Exception {
        try (PauseRecording recording = new PauseRecording()) {
            System.gc();
            System.gc();
            Thread.sleep(20);
            recording.open();
            System.gc();
            System.gc();
            recording.closeWindow();
            Thread.sleep(20);
            System.gc();
            System.gc();
            System.gc();
            long[] pauses = recording.pauses();
            assertTrue(pauses.length >= 2, "the window's two full collections: " + pauses.length + " pauses");
            assertTrue(pauses.length < 5, "the five collections outside the window are left out: " + pauses.length + " pauses");
            for (long p : pauses) {
                assertTrue(p > 0, "a pause lasts");
            }
            assertThrows(IllegalStateException.class, recording::closeWindow, "no window is open");
        }
    }
}
