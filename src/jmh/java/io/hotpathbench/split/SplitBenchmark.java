package io.hotpathbench.split;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Splits seeded feature lines ({@code fields} key=value pairs joined by {@code delimiter}, see
 * {@link FeatureLines}) the way a push-recommendation service did on its hot path: the JDK's
 * {@code String.split} (the baseline), the alternatives teams reach for, and a custom {@code indexOf}
 * splitter with a {@code splitFirst} that stops at the first delimiter. All variants return the same
 * tokens ({@code SplitterTest}). Run with {@code mvn jmh:run -Djmh.include=Split}.
 */
// Settings from the pilot (results/pilot/, 20261123T232606Z at 3 x 1 s warm-up and 6 x 400 ms, and
// 20261124T000106Z, a warm-up curve of 40 x 500 ms from a cold start, two trials each): a fork costs
// about 7 s, JVM start included. The regex path (JDK_SPLIT and jdkSplitFirst at || and ::) reaches its
// steady speed 2-4 s after a cold start in the curve, but in the first pilot some of its forks were
// still speeding up through their measured iterations (the first at a third to a half of the last two,
// 0.11 against 0.35 ops/us) after 3 s: five warm-up iterations give it that margin for 2 s more per
// fork. Within a fork the iterations agree to 1-4% once warm, while forks differ: INDEX_OF runs at
// about 1.3 ops/us in most forks and 1.0-1.1 in some (8 forks on another machine: 2 slow, 6 fast).
// With five trials there is about a 24% chance that no fork lands in the slow mode and the figure
// comes out about 5% too high, so each group runs at least 8 trials (min_trials in
// scripts/techniques/split.json; 0.75^8 = 10%), and -Djmh.f runs 8 forks (@Fork, JMH's meaning).
@Fork(value = 8, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 6, time = 400, timeUnit = TimeUnit.MILLISECONDS)
public class SplitBenchmark extends BenchmarkDefaults {

    /** Seeded feature lines, cycled with a mask; shared by both benchmark styles. */
    @State(Scope.Thread)
    public static class Lines {

        @Param({",", "|", "||", "::"})
        String delimiter;

        @Param({"4", "16", "64"})
        int fields;

        @Param("42")
        long seed;

        // 256 lines keep even the 64-field pool (~300 KB) cache-resident: this measures splitting,
        // not memory misses.
        @Param("256")
        int poolSize;

        String[] lines;
        String regex;
        private int next;

        @Setup(Level.Trial)
        public void generate() {
            if (Integer.bitCount(poolSize) != 1) {
                throw new IllegalArgumentException("poolSize must be a power of two: " + poolSize);
            }
            lines = FeatureLines.generate(seed, poolSize, fields, delimiter);
            regex = SplitterType.regexOf(delimiter);
        }

        String nextLine() {
            return lines[next++ & (lines.length - 1)];
        }
    }

    /** The lines plus the splitter under test. */
    public static class SplitState extends Lines {

        @Param
        SplitterType variant;

        Splitter splitter;

        @Setup(Level.Trial)
        public void createSplitter() {
            splitter = variant.create(delimiter);
        }
    }

    /** Puts the allocation floor of the lines into the results as {@link EventShares} describes. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Floor {

        /** Bytes per operation that a splitter allocating only the tokens and one list needs. */
        public double allocFloor;

        private double meanBytes;

        @Setup(Level.Trial)
        public void measure(SplitState state) {
            meanBytes = AllocationFloor.meanBytes(state.lines, state.delimiter);
        }

        @TearDown(Level.Iteration)
        public void share(BenchmarkParams params) {
            allocFloor = EventShares.share(meanBytes, params, params.getThreads());
        }
    }

    /**
     * Every token as a {@code List}, through each {@link SplitterType} {@code variant}: the JDK's
     * {@code String.split} with a hand-escaped regex (JDK 17 has a no-regex fast path for {@code ","} and
     * {@code "\\|"}, but compiles a {@code Pattern} per call for {@code "\\|\\|"} and {@code "::"}), a
     * precompiled {@code Pattern}, Commons Lang, Guava, and the {@code indexOf} splitter. Read
     * {@code gc.alloc.rate.norm} against {@code allocFloor}, the bytes of {@link AllocationFloor}: a
     * splitter that allocates only the tokens and one list needs 24 + align8(16 + 4n) + the sum over
     * the n tokens of (24 + align8(16 + length)) bytes (282, 1009 and 3918 B for 4, 16 and 64 fields);
     * the CI gate holds {@code INDEX_OF} within 10% of it.
     */
    @Benchmark
    public List<String> split(SplitState state, Floor floor) {
        return state.splitter.split(state.nextLine());
    }

    /**
     * The first token the way callers often take it, {@code split(d)[0]}: the whole line is split to
     * use one token. The first-token methods read their own state without {@code variant}, so they
     * run once per (delimiter, fields).
     */
    @Benchmark
    public String jdkSplitFirst(Lines state) {
        return state.nextLine().split(state.regex)[0];
    }

    /** The first token with a limit, {@code split(d, 2)[0]}: stops early but still copies the remainder. */
    @Benchmark
    public String jdkSplitLimitFirst(Lines state) {
        return state.nextLine().split(state.regex, 2)[0];
    }

    /** The fix: {@code indexOf} to the first delimiter and one substring. */
    @Benchmark
    public String splitFirst(Lines state) {
        return IndexOfSplitter.splitFirst(state.nextLine(), state.delimiter);
    }
}
