package io.hotpathbench.jmh;

import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Records, for every iteration, how much of the machine's CPU time was not this benchmark's to
 * use: {@code noise.steal}, the share the hypervisor stole ({@code /proc/stat}'s steal column), and
 * {@code noise.other}, the share other processes used (all busy CPU time minus this JVM's own CPU
 * time), both in percent of the machine's CPU time over the iteration. A shared 2-core machine
 * whose neighbour wakes up shows here first. On a system without {@code /proc/stat} it records
 * nothing. Used as {@code -prof io.hotpathbench.jmh.NoiseProfiler}; the suite adds it to every
 * trial run.
 */
public final class NoiseProfiler implements InternalProfiler {

    static final Path PROC_STAT = Path.of("/proc/stat");
    /** USER_HZ: the unit of /proc/stat, 100 on every Linux this suite runs on. */
    static final double TICK_NANOS = 1e9 / 100;

    private long[] before;
    private long cpuBefore;

    @Override
    public String getDescription() {
        return "CPU time stolen by the hypervisor and used by other processes, per iteration (/proc/stat)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = read(PROC_STAT);
        cpuBefore = processCpuNanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long[] after = read(PROC_STAT);
        long cpuAfter = processCpuNanos();
        if (before == null || after == null || cpuBefore < 0 || cpuAfter < 0) {
            return List.of();
        }
        double[] shares = shares(before, after, cpuAfter - cpuBefore);
        if (shares == null) {
            return List.of();
        }
        return List.of(
                new ScalarResult("noise.steal", shares[0], "%", AggregationPolicy.AVG),
                new ScalarResult("noise.other", shares[1], "%", AggregationPolicy.AVG));
    }

    /**
     * Steal and other-process shares in percent, from two readings of /proc/stat's aggregate cpu
     * line (user nice system idle iowait irq softirq steal) and this process's CPU time between
     * them; null when no tick passed.
     */
    static double[] shares(long[] before, long[] after, long ownCpuNanos) {
        long total = 0;
        long[] d = new long[8];
        for (int i = 0; i < 8; i++) {
            d[i] = after[i] - before[i];
            total += d[i];
        }
        if (total <= 0) {
            return null;
        }
        long idle = d[3] + d[4];
        long steal = d[7];
        double busyNanos = (total - idle - steal) * TICK_NANOS;
        double other = Math.max(0, busyNanos - ownCpuNanos);
        double totalNanos = total * TICK_NANOS;
        return new double[] {100.0 * steal / total, Math.min(100.0, 100.0 * other / totalNanos)};
    }

    /**
     * The first eight counters of the aggregate "cpu" line (the file's first), or null. It runs in
     * the benchmark's JVM between iterations, so it reads bytes and scans digits by hand: parsing
     * with {@code String.split("\\s+")} ran java.util.regex there and polluted the type profiles
     * of the benchmarks that use regex themselves (String.split with a two-character delimiter,
     * Pattern.split), whose forks then allocated 72 bytes more per call than without it.
     */
    static long[] read(Path stat) {
        byte[] buf = new byte[512];
        int n = 0;
        try (FileInputStream in = new FileInputStream(stat.toFile())) {
            int r;
            while (n < buf.length && (r = in.read(buf, n, buf.length - n)) > 0) {
                n += r;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return parse(buf, n);
    }

    static long[] parse(String cpuLine) {
        byte[] b = new byte[cpuLine.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) cpuLine.charAt(i);
        }
        return parse(b, b.length);
    }

    /** The eight numbers after a leading "cpu " in {@code buf[0, len)}, up to the first newline; null if it is not that line. */
    static long[] parse(byte[] buf, int len) {
        if (len < 4 || buf[0] != 'c' || buf[1] != 'p' || buf[2] != 'u' || buf[3] != ' ') {
            return null;
        }
        long[] v = new long[8];
        int field = 0;
        int i = 4;
        while (i < len && buf[i] != '\n' && field < 8) {
            if (buf[i] >= '0' && buf[i] <= '9') {
                long x = 0;
                while (i < len && buf[i] >= '0' && buf[i] <= '9') {
                    x = x * 10 + (buf[i] - '0');
                    i++;
                }
                v[field++] = x;
            } else if (buf[i] == ' ' || buf[i] == '\t') {
                i++;
            } else {
                return null;
            }
        }
        return v;
    }

    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }
}
