package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NoiseProfilerTest {

    @Test
    void readsTheAggregateCpuLine() {
        assertArrayEquals(new long[] {10, 1, 5, 100, 2, 0, 1, 7},
                NoiseProfiler.parse("cpu  10 1 5 100 2 0 1 7 0 0"));
    }

    @Test
    void readsOnlyTheFirstLineAndRefusesAnyOther() {
        byte[] stat = "cpu  3 0 2 9 0 0 0 4 0 0\ncpu0 1 0 1 4 0 0 0 2 0 0\n".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(new long[] {3, 0, 2, 9, 0, 0, 0, 4}, NoiseProfiler.parse(stat, stat.length));
        assertArrayEquals(new long[] {1, 2, 0, 0, 0, 0, 0, 0}, NoiseProfiler.parse("cpu 1 2"));
        assertNull(NoiseProfiler.parse("intr 1 2 3"));
        assertNull(NoiseProfiler.parse("cpu 1 x 3"));
    }

    @Test
    void stealAndOtherAreSharesOfTheMachinesCpuTime() {
        long[] before = {0, 0, 0, 0, 0, 0, 0, 0};
        // 200 ticks (2 s of one core, or 1 s of two): 100 busy, 80 idle, 20 stolen; this JVM used 0.6 s.
        long[] after = {90, 0, 10, 70, 10, 0, 0, 20};
        double[] s = NoiseProfiler.shares(before, after, 600_000_000L);
        assertEquals(10.0, s[0], 1e-9);
        assertEquals(20.0, s[1], 1e-9);
    }

    @Test
    void otherIsNeverNegativeAndNoTickMeansNoReading() {
        long[] zero = new long[8];
        assertEquals(0.0, NoiseProfiler.shares(zero, new long[] {10, 0, 0, 10, 0, 0, 0, 0}, 5_000_000_000L)[1]);
        assertNull(NoiseProfiler.shares(zero, zero, 0));
    }

    @Test
    void thisMachineHasAProcStat() {
        assertNotNull(NoiseProfiler.read(NoiseProfiler.PROC_STAT));
        assertNull(NoiseProfiler.read(Path.of("/no/such/stat")));
    }
}
