package io.hotpathbench.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hotpathbench.ParamValues;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SplitterTest {

    /** The delimiters and field counts SplitBenchmark runs with, read from its @Param annotations. */
    private static final List<String> BENCHMARK_DELIMITERS = ParamValues.of(SplitBenchmark.Lines.class, "delimiter");
    private static final int[] BENCHMARK_FIELDS = ParamValues.ints(SplitBenchmark.Lines.class, "fields");

    /** Delimiters for the edge cases and the randomized test: metacharacters and overlapping ones. */
    private static final String[] DELIMITERS = {",", "|", ".", "||", "::", "a", "aa", "aba", "|.|", "\\"};

    /** Small alphabet holding every delimiter character, so random strings hit every case. */
    private static final String ALPHABET = "ab|.,:\\";

    private static List<String> jdk(String input, String delimiter) {
        return Arrays.asList(input.split(Pattern.quote(delimiter)));
    }

    @ParameterizedTest
    @EnumSource(SplitterType.class)
    void edgeCases(SplitterType type) {
        String[][] cases = {
            {"a,b,c", ","}, {",a,b", ","}, {"a,b,,", ","}, {"a,,b", ","}, {"abc", ","}, {"", ","},
            {",", ","}, {",,,", ","}, {",,a,,", ","}, {"aaaa", "aa"}, {"aaaaa", "aa"}, {"aaa", "aa"},
            {"a|b||c|", "|"}, {"a.b.c", "."}, {"...", "."}, {"a||b|c||", "||"}, {"|||", "||"},
            {"||||", "||"}, {"ab", "||"}, {"x::y:z::", "::"}, {"a\\b", "\\"}, {"ababa", "aba"},
        };
        for (String[] c : cases) {
            Splitter splitter = type.create(c[1]);
            assertEquals(jdk(c[0], c[1]), splitter.split(c[0]), () -> type + " on \"" + c[0] + "\" by " + c[1]);
        }
    }

    @Test
    void contractHoldsForTheSpelledOutCases() {
        Splitter splitter = new IndexOfSplitter(",");
        assertEquals(List.of("", "a"), splitter.split(",a"));
        assertEquals(List.of("a", "b"), splitter.split("a,b,,"));
        assertEquals(List.of(""), splitter.split(""));
        assertEquals(List.of("abc"), splitter.split("abc"));
        assertEquals(List.of(), splitter.split(",,,"));
        assertEquals(List.of("", "", "a"), new IndexOfSplitter("aa").split("aaaaa"));
        assertEquals(List.of(), new IndexOfSplitter("aa").split("aaaa"));
    }

    @Test
    void unquotedDoublePipeIsTheTrap() {
        assertEquals(List.of("a", "|", "|", "b"), Arrays.asList("a||b".split("||")));
        assertEquals("\\|\\|", SplitterType.regexOf("||"));
        assertEquals(List.of("a", "b"), Arrays.asList("a||b".split(SplitterType.regexOf("||"))));
    }

    @ParameterizedTest
    @EnumSource(SplitterType.class)
    void emptyDelimiterIsRejected(SplitterType type) {
        assertThrows(IllegalArgumentException.class, () -> type.create(""));
    }

    @ParameterizedTest
    @EnumSource(SplitterType.class)
    void randomStringsMatchTheJdk(SplitterType type) {
        SplittableRandom random = new SplittableRandom(42);
        for (String delimiter : DELIMITERS) {
            Splitter splitter = type.create(delimiter);
            for (int i = 0; i < 2_000; i++) {
                String input = randomString(random);
                assertEquals(jdk(input, delimiter), splitter.split(input),
                        () -> type + " on \"" + input + "\" by " + delimiter);
            }
        }
    }

    @Test
    void splitFirstMatchesTheFirstJdkToken() {
        SplittableRandom random = new SplittableRandom(7);
        for (String delimiter : DELIMITERS) {
            String quoted = Pattern.quote(delimiter);
            for (int i = 0; i < 2_000; i++) {
                String input = randomString(random);
                String first = IndexOfSplitter.splitFirst(input, delimiter);
                assertEquals(input.split(quoted, 2)[0], first, () -> "\"" + input + "\" by " + delimiter);
                String[] all = input.split(quoted);
                if (all.length > 0) {
                    assertEquals(all[0], first, () -> "\"" + input + "\" by " + delimiter);
                }
            }
        }
    }

    @Test
    void splitFirstEdgeCases() {
        assertEquals("abc", IndexOfSplitter.splitFirst("abc", ","));
        assertEquals("", IndexOfSplitter.splitFirst(",abc", ","));
        assertEquals("", IndexOfSplitter.splitFirst("", ","));
        assertEquals("a", IndexOfSplitter.splitFirst("a||b||c", "||"));
        assertEquals("", IndexOfSplitter.splitFirst("aaa", "aa"));
        assertEquals("", IndexOfSplitter.splitFirst(",,", ","));
        assertEquals(0, ",,".split(",").length, "split(d)[0] throws here; splitFirst answers \"\"");
    }

    @ParameterizedTest
    @EnumSource(SplitterType.class)
    void benchmarkStateSplitsEveryLineLikeTheBaseline(SplitterType type) {
        for (String delimiter : BENCHMARK_DELIMITERS) {
            for (int fields : BENCHMARK_FIELDS) {
                SplitBenchmark.SplitState state = splitState(type, delimiter, fields);
                SplitBenchmark.SplitState baseline = splitState(SplitterType.JDK_SPLIT, delimiter, fields);
                SplitBenchmark benchmark = new SplitBenchmark();
                SplitBenchmark.Floor floor = new SplitBenchmark.Floor();
                for (int i = 0; i < state.lines.length; i++) {
                    List<String> expected = benchmark.split(baseline, floor);
                    assertEquals(fields, expected.size(), "a token holds a delimiter character");
                    assertEquals(expected, benchmark.split(state, floor));
                }
            }
        }
    }

    @Test
    void firstTokenMethodsAgree() {
        SplitBenchmark benchmark = new SplitBenchmark();
        for (String delimiter : BENCHMARK_DELIMITERS) {
            for (int fields : BENCHMARK_FIELDS) {
                SplitBenchmark.Lines full = lines(new SplitBenchmark.Lines(), delimiter, fields);
                SplitBenchmark.Lines limited = lines(new SplitBenchmark.Lines(), delimiter, fields);
                SplitBenchmark.Lines custom = lines(new SplitBenchmark.Lines(), delimiter, fields);
                for (int i = 0; i < full.lines.length; i++) {
                    String expected = benchmark.jdkSplitFirst(full);
                    assertEquals(expected, benchmark.jdkSplitLimitFirst(limited));
                    assertEquals(expected, benchmark.splitFirst(custom));
                }
            }
        }
    }

    /**
     * The floor the benchmark reports beside gc.alloc.rate.norm: 24 B list + 16 B array header +
     * 4 B per reference, and per token a 24 B String and a 16 B + length byte[], each 8-aligned.
     * (How close a variant comes to it is a benchmark figure that the CI gate checks, not a test.)
     */
    @Test
    void allocationFloorCountsTheListAndEveryToken() {
        assertEquals(24 + 24 + (24 + 24) + (24 + 24), AllocationFloor.bytes(List.of("a=1", "bb=22")));
        assertEquals(24 + 16, AllocationFloor.bytes(List.of()));
        assertEquals(24 + 24 + (24 + 32), AllocationFloor.bytes(List.of("x".repeat(9))));
        String[] lines = {"a=1,bb=22", "x"};
        assertEquals((144.0 + 96.0) / 2, AllocationFloor.meanBytes(lines, ","));
    }

    private static SplitBenchmark.SplitState splitState(SplitterType type, String delimiter, int fields) {
        SplitBenchmark.SplitState state = lines(new SplitBenchmark.SplitState(), delimiter, fields);
        state.variant = type;
        state.createSplitter();
        return state;
    }

    private static <T extends SplitBenchmark.Lines> T lines(T state, String delimiter, int fields) {
        state.delimiter = delimiter;
        state.fields = fields;
        state.seed = 42;
        state.poolSize = 256;
        state.generate();
        return state;
    }

    private static String randomString(SplittableRandom random) {
        char[] chars = new char[random.nextInt(13)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars);
    }
}
