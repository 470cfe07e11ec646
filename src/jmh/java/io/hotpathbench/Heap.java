package io.hotpathbench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Heap and memory figures for trial-level setups: retained bytes of a structure (used heap after
 * full collections, before and after building it) and a check that a large state fits before it is
 * built. Measure retained bytes under Parallel GC: its used heap after {@code System.gc()} is the
 * live objects' bytes, where G1 rounds every array of half a region or more up to whole regions.
 */
public final class Heap {

    private Heap() {
    }

    /** Used heap after full collections, repeated until two in a row agree within 64 KiB. */
    public static long retainedBytes() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long used = memory.getHeapMemoryUsage().getUsed();
            if (Math.abs(used - previous) <= 64 << 10) {
                return used;
            }
            previous = used;
        }
        return previous;
    }

    /**
     * Fails, naming {@code what} and the fix, when this fork's heap or the machine's available
     * memory is below {@code needBytes}: better a clear error than an OutOfMemoryError mid-build.
     */
    public static void require(String what, long needBytes) {
        long max = Runtime.getRuntime().maxMemory();
        if (max < needBytes) {
            throw new IllegalStateException(what + " needs about " + gib(needBytes) + " GiB of heap, this fork has "
                    + gib(max) + " GiB: raise -Xmx in the class's @Fork(jvmArgsAppend)");
        }
        long available = availableMemory();
        if (available < needBytes) {
            throw new IllegalStateException(what + " needs about " + gib(needBytes) + " GiB of memory, the machine has "
                    + gib(available) + " GiB available");
        }
    }

    /** MemAvailable from /proc/meminfo where there is one, else the JVM's view of free physical memory. */
    static long availableMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) << 10;
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: fall through
        }
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getFreeMemorySize();
    }

    private static String gib(long bytes) {
        return String.format("%.1f", bytes / (double) (1L << 30));
    }
}
