package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

class JmhOptionsTest {

    private static List<String> args(Map<String, String> props) {
        return JmhOptions.parse(props).arguments("/r/out.json");
    }

    @Test
    void aWarmupTheUserGivesWinsOverATechniqueFilesAndQuickGivesOne() {
        assertFalse(JmhOptions.parse(Map.of()).warmupGiven());
        assertFalse(JmhOptions.parse(Map.of("jmh.i", "100", "jmh.r", "100ms")).warmupGiven(), "CI's gate gives none");
        assertTrue(JmhOptions.parse(Map.of("jmh.wi", "3")).warmupGiven());
        assertTrue(JmhOptions.parse(Map.of("jmh.w", "500ms")).warmupGiven());
        assertTrue(JmhOptions.parse(Map.of("jmh.quick", "")).warmupGiven());
    }

    @Test
    void noOptionsRunsEverythingWithGcProfilerAndFailOnError() {
        assertEquals(List.of("-prof", "gc", "-foe", "true", "-rf", "json", "-rff", "/r/out.json"), args(Map.of()));
    }

    @Test
    void includeIsPositionalAndLastExcludeIsDashE() {
        List<String> a = args(Map.of("jmh.include", "Split", "jmh.exclude", "First"));
        assertEquals("Split", a.get(a.size() - 1));
        int e = a.indexOf("-e");
        assertEquals("First", a.get(e + 1));
    }

    @Test
    void anyJmhFlagPassesThroughAsDashFlag() {
        List<String> a = args(Map.of("jmh.f", "3", "jmh.wi", "5", "jmh.r", "500ms", "jmh.bm", "avgt", "jmh.tu", "ns",
                "jmh.jvmArgsAppend", "-Xmx2g -XX:+UseParallelGC"));
        assertPair(a, "-f", "3");
        assertPair(a, "-wi", "5");
        assertPair(a, "-r", "500ms");
        assertPair(a, "-bm", "avgt");
        assertPair(a, "-tu", "ns");
        assertPair(a, "-jvmArgsAppend", "-Xmx2g -XX:+UseParallelGC");
    }

    @Test
    void quickSetsShortRunAndExplicitFlagsWin() {
        List<String> a = args(Map.of("jmh.quick", "", "jmh.i", "3"));
        assertPair(a, "-f", "1");
        assertPair(a, "-wi", "1");
        assertPair(a, "-w", "1s");
        assertPair(a, "-r", "1s");
        assertPair(a, "-i", "3");
        assertEquals(1, a.stream().filter("-i"::equals).count());
    }

    @Test
    void quickFalseIsOff() {
        assertTrue(!args(Map.of("jmh.quick", "false")).contains("-wi"));
    }

    @Test
    void paramsMapToDashP() {
        List<String> a = args(Map.of("jmh.p.size", "100000,1000000"));
        assertPair(a, "-p", "size=100000,1000000");
    }

    @Test
    void profAddsReplacesOrDisables() {
        assertEquals(List.of("gc", "stack"), JmhOptions.parse(Map.of("jmh.prof", "+stack")).profilers());
        assertEquals(List.of("gc", "stack"), JmhOptions.parse(Map.of("jmh.prof", "gc+stack")).profilers());
        assertEquals(List.of("stack", "cl"), JmhOptions.parse(Map.of("jmh.prof", "stack+cl")).profilers());
        assertEquals(List.of("stack"), JmhOptions.parse(Map.of("jmh.prof", "stack")).profilers());
        assertEquals(List.of(), JmhOptions.parse(Map.of("jmh.prof", "none")).profilers());
        assertTrue(!args(Map.of("jmh.prof", "none")).contains("-prof"));
    }

    @Test
    void aProfilerNamedTwiceKeepsItsLastSpec() {
        assertEquals(List.of("gc:churn=true"), JmhOptions.parse(Map.of("jmh.prof", "+gc:churn=true")).profilers());
        assertEquals(List.of("gc", "stack:lines=5"),
                JmhOptions.parse(Map.of("jmh.prof", "stack+gc+stack:lines=5")).profilers());
    }

    private static final String ASYNC = "async:output=text,flamegraph;dir=/tmp/p";

    @Test
    void oneProfilersOptionsKeepTheirCommasSemicolonsAndEquals() {
        List<String> a = args(Map.of("jmh.prof", "+" + ASYNC));
        assertEquals(List.of("-prof", "gc", "-prof", ASYNC), a.subList(0, 4));
        assertEquals(List.of("gc", ASYNC, "stack"),
                JmhOptions.parse(Map.of("jmh.prof", "gc+" + ASYNC + "+stack")).profilers());
    }

    @Test
    void jmhsOwnParserReadsTheAsyncSpecAsOneProfilerWithItsFullOptions() throws CommandLineOptionException {
        List<String> a = JmhOptions.parse(Map.of("jmh.prof", "+" + ASYNC, "jmh.include", "SplitBenchmark"))
                .arguments("/r/out.json");
        CommandLineOptions jmh = new CommandLineOptions(a.toArray(String[]::new));
        List<String> read = jmh.getProfilers().stream().map(p -> p.getKlass() + " | " + p.getOpts()).toList();
        assertEquals(List.of("gc | ", "async | output=text,flamegraph;dir=/tmp/p"), read);
        assertEquals(List.of("SplitBenchmark"), jmh.getIncludes());
    }

    @Test
    void malformedProfilerListsAreRejectedInOneLine() {
        assertMessage(Map.of("jmh.prof", "stack,cl"), "-Djmh.prof=stack,cl: 'stack,cl' is not a profiler name;"
                + " separate profilers with + (gc+stack) and write each as name:options, options separated by ;"
                + " and lists by , (async:output=text,flamegraph;dir=/tmp/p)");
        assertMessage(Map.of("jmh.prof", "gc++stack"),
                "-Djmh.prof=gc++stack has an empty profiler (profilers are separated by one +, e.g. gc+stack)");
        assertMessage(Map.of("jmh.prof", "+"),
                "-Djmh.prof=+ has an empty profiler (profilers are separated by one +, e.g. gc+stack)");
        assertMessage(Map.of("jmh.prof", "gc+"),
                "-Djmh.prof=gc+ has an empty profiler (profilers are separated by one +, e.g. gc+stack)");
        assertMessage(Map.of("jmh.prof", "gc+none"),
                "-Djmh.prof=gc+none: none turns every profiler off and stands alone (-Djmh.prof=none)");
    }

    @Test
    void skipIsAFlag() {
        assertTrue(JmhOptions.skip(Map.of("jmh.skip", "")));
        assertTrue(JmhOptions.skip(Map.of("jmh.skip", "true")));
        assertTrue(!JmhOptions.skip(Map.of("jmh.skip", "false")));
        assertTrue(!JmhOptions.skip(Map.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JmhOptions.skip(Map.of("jmh.skip", "yes")));
        assertEquals("-Djmh.skip=yes is not a valid value (expected true or false)", e.getMessage());
        assertEquals(args(Map.of()), args(Map.of("jmh.skip", "false")));
        assertMessage(Map.of("jmh.skip", "yes"), "-Djmh.skip=yes is not a valid value (expected true or false)");
    }

    @Test
    void jdkNamesAToolchainVersionAndExcludesJvm() {
        assertEquals("25", JmhOptions.parse(Map.of("jmh.jdk", "25")).jdk());
        assertEquals("[25,26)", JmhOptions.parse(Map.of("jmh.jdk", "[25,26)")).jdk());
        assertEquals(null, JmhOptions.parse(Map.of()).jdk());
        assertEquals(args(Map.of()), args(Map.of("jmh.jdk", "25")));
        assertEquals("/opt/jdk/bin/java", JmhOptions.parse(Map.of("jmh.jvm", "/opt/jdk/bin/java")).jvm());
        assertMessage(Map.of("jmh.jdk", "25", "jmh.jvm", "/opt/jdk/bin/java"),
                "-Djmh.jdk=25 and -Djmh.jvm=/opt/jdk/bin/java both choose the JVM the benchmarks run on; give only one");
        assertMessage(Map.of("jmh.jdk", "true"),
                "-Djmh.jdk=true is not a valid value (expected a JDK version such as 25, or a version range such as [25,26))");
        assertMessage(Map.of("jmh.jdk", ""),
                "-Djmh.jdk= is not a valid value (expected a JDK version such as 25, or a version range such as [25,26))");
    }

    @Test
    void aFlagJmhDoesNotKnowIsRejectedWithJmhsReasonAndThePluginsOptions() {
        assertMessage(Map.of("jmh.forks", "2"), "-Djmh.forks=2 is neither a JMH flag (JMH: forks is not a recognized option)"
                + " nor one of the plugin's options: against, budget, claims, exclude, gate, gateFigure, include, jdk, oneCpu,"
                + " prof, quick, resultsDir, seed, skip, trials, p.NAME");
        assertMessage(Map.of("jmh.nosuchflag", "1"), "-Djmh.nosuchflag=1 is neither a JMH flag (JMH: nosuchflag is not a"
                + " recognized option) nor one of the plugin's options: against, budget, claims, exclude, gate, gateFigure,"
                + " include, jdk, oneCpu, prof, quick, resultsDir, seed, skip, trials, p.NAME");
    }

    @Test
    void badValuesAreRejectedWithJmhsOwnReasonOnOneLine() {
        assertMessage(Map.of("jmh.wi", "abc"), "-Djmh.wi=abc: JMH rejects it: Cannot parse argument 'abc' of option wi");
        assertMessage(Map.of("jmh.f", "two"), "-Djmh.f=two: JMH rejects it: Cannot parse argument 'two' of option f");
        assertMessage(Map.of("jmh.i", "0"),
                "-Djmh.i=0: JMH rejects it: Cannot parse argument '0' of option i. The given value 0 should be positive");
        assertMessage(Map.of("jmh.r", "fast"), "-Djmh.r=fast: JMH rejects it: Cannot parse argument 'fast' of option r");
        assertMessage(Map.of("jmh.bm", "slow"), "-Djmh.bm=slow: JMH rejects it: Unable to parse benchmark mode: \"slow\""
                + " Known values are [Throughput/thrpt, AverageTime/avgt, SampleTime/sample, SingleShotTime/ss, All/all]");
        assertMessage(Map.of("jmh.tu", "x"), "-Djmh.tu=x: JMH rejects it: Unknown time unit: x");
        assertMessage(Map.of("jmh.wi", ""), "-Djmh.wi=: JMH rejects it: Option wi requires an argument");
        assertMessage(Map.of("jmh.quick", "maybe"), "-Djmh.quick=maybe is not a valid value (expected true or false)");
        assertMessage(Map.of("jmh.p.", "1"), "-Djmh.p.NAME=v1,v2 needs a parameter name and at least one value, got -Djmh.p.=1");
        assertMessage(Map.of("jmh.p", "fields=16"), "-Djmh.p=fields=16: give a param as -Djmh.p.NAME=v1,v2");
    }

    @Test
    void theFlagsJmhsParserAcceptsPassThroughAsTheUserWroteThem() {
        List<String> a = args(Map.of("jmh.jvmArgsPrepend", "-Xss2m", "jmh.si", "false", "jmh.to", "10min", "jmh.opi", "2"));
        assertPair(a, "-jvmArgsPrepend", "-Xss2m");
        assertPair(a, "-si", "false");
        assertPair(a, "-to", "10min");
        assertPair(a, "-opi", "2");
    }

    @Test
    void reservedFlagsAreRejectedUnderAnyNameJmhKnowsThemBy() {
        assertMessage(Map.of("jmh.fo", "false"),
                "-Djmh.fo cannot be set: the run always fails on the first benchmark error (-foe true)");
        assertMessage(Map.of("jmh.rf", "csv"), "-Djmh.rf cannot be set: results are always JSON");
        assertMessage(Map.of("jmh.o", "out.txt"), "-Djmh.o cannot be set: JMH output is streamed to the console");
        assertMessage(Map.of("jmh.e", "First"), "-Djmh.e cannot be set: use -Djmh.exclude to leave benchmarks out");
        assertMessage(Map.of("jmh.l", ""), "-Djmh.l cannot be set: use -Djmh.include to select benchmarks");
        assertMessage(Map.of("jmh.lprof", ""), "-Djmh.lprof cannot be set: not supported through the plugin");
        assertMessage(Map.of("jmh.h", ""), "-Djmh.h cannot be set: docs/protocol.md lists the plugin's options");
    }

    @Test
    void reservedFlagsAreRejected() {
        assertMessage(Map.of("jmh.rff", "x.json"),
                "-Djmh.rff cannot be set: results always go to results/ (set -Djmh.resultsDir to change the folder)");
        assertMessage(Map.of("jmh.foe", "false"),
                "-Djmh.foe cannot be set: the run always fails on the first benchmark error (-foe true)");
        assertMessage(Map.of("jmh.ignoreLock", "true"),
                "-Djmh.ignoreLock cannot be set: two JMH runs on one machine measure each other; wait for the other run");
    }

    @Test
    void propertiesThePluginDoesNotHandleAreNotSilentlyDropped() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JmhOptions.parse(Map.of("jmh.skipp", "true")));
        assertTrue(e.getMessage().startsWith("-Djmh.skipp=true is neither a JMH flag"), e.getMessage());
        assertTrue(e.getMessage().endsWith("resultsDir, seed, skip, trials, p.NAME"), e.getMessage());
        assertPair(JmhOptions.parse(Map.of("jmh.wmb", "Split.*")).arguments("r.json"), "-wmb", "Split.*");
    }

    @Test
    void invalidRegexIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JmhOptions.parse(Map.of("jmh.include", "Split(")));
        assertTrue(e.getMessage().startsWith("-Djmh.include=Split( is not a valid regex"), e.getMessage());
    }

    @Test
    void nonJmhPropertiesAreIgnored() {
        assertEquals(args(Map.of()), args(Map.of("skipTests", "true", "user.home", "/root")));
    }

    @Test
    void selectionFindsLikeJmh() {
        List<String> all = List.of("io.x.split.SplitBenchmark.split", "io.x.split.SplitBenchmark.splitFirst",
                "io.x.validation.ValidatorBenchmark.validate");
        assertEquals(all, JmhOptions.parse(Map.of()).select(all));
        assertEquals(all.subList(0, 2), JmhOptions.parse(Map.of("jmh.include", "Split")).select(all));
        assertEquals(List.of(all.get(0)),
                JmhOptions.parse(Map.of("jmh.include", "Split", "jmh.exclude", "First")).select(all));
        assertEquals(List.of(), JmhOptions.parse(Map.of("jmh.include", "NoSuch")).select(all));
    }

    @Test
    void theGateComparesTwoCommitsAtItsOwnLooks() {
        JmhOptions o = JmhOptions.parse(Map.of("jmh.against", "HEAD~1", "jmh.gate", ""));
        assertTrue(o.gate());
        assertEquals(null, o.trials());
        assertMessage(Map.of("jmh.gate", ""),
                "-Djmh.gate judges two commits side by side: give the other one with -Djmh.against=REF");
        assertEquals(5, JmhOptions.parse(Map.of("jmh.against", "HEAD~1", "jmh.gate", "", "jmh.trials", "5")).trials());
        assertFalse(o.gateBest(), "the gate judges fork means unless told otherwise");
        assertTrue(JmhOptions.parse(Map.of("jmh.against", "HEAD~1", "jmh.gate", "", "jmh.gateFigure", "best")).gateBest());
        assertFalse(JmhOptions.parse(Map.of("jmh.against", "HEAD~1", "jmh.gate", "", "jmh.gateFigure", "mean")).gateBest());
        assertMessage(Map.of("jmh.against", "HEAD~1", "jmh.gate", "", "jmh.gateFigure", "median"),
                "-Djmh.gateFigure=median is not a valid value (expected mean or best)");
        assertMessage(Map.of("jmh.against", "HEAD~1", "jmh.gateFigure", "best"),
                "-Djmh.gateFigure names the fork figure -Djmh.gate stops by; give -Djmh.gate too");
        assertEquals(java.time.Duration.ofMinutes(60),
                JmhOptions.parse(Map.of("jmh.gate", "", "jmh.against", "HEAD~1", "jmh.budget", "60m")).budget(),
                "a budget caps a gate");
        assertMessage(Map.of("jmh.gate", "", "jmh.against", "HEAD~1", "jmh.quick", ""),
                "-Djmh.gate samples at fixed looks (scripts/suite.json, rule; or one look at -Djmh.trials=N); it cannot be combined with -Djmh.quick");
        assertMessage(Map.of("jmh.gate", "", "jmh.against", "HEAD~1", "jmh.trials", "1"),
                "-Djmh.gate with -Djmh.trials=1: a look needs at least 2 trials for an interval");
        assertEquals(List.of("a", "b"), JmhOptions.parse(Map.of("jmh.claims", "a, b")).claims());
        assertMessage(Map.of("jmh.claims", " , "),
                "-Djmh.claims=ID,ID needs at least one claim id (scripts/techniques/*.json, \"claims\")");
        assertMessage(Map.of("jmh.gate", "yes", "jmh.against", "HEAD~1"),
                "-Djmh.gate=yes is not a valid value (expected true or false)");
    }

    @Test
    void oneCpuPlacesTheForksOfTheBenchmarksItFindsAndIsNoJmhFlag() {
        JmhOptions o = JmhOptions.parse(Map.of("jmh.oneCpu", "Redis"));
        assertEquals("Redis", o.oneCpu());
        assertTrue(o.onOneCpu("io.hotpathbench.redis.RedisBenchmark.batched"));
        assertFalse(o.onOneCpu("io.hotpathbench.split.SplitBenchmark.split"));
        assertFalse(JmhOptions.parse(Map.of()).onOneCpu("io.hotpathbench.redis.RedisBenchmark.batched"));
        assertFalse(o.arguments("/r/out.json").stream().anyMatch(a -> a.contains("Redis")), "a plugin option, never handed to JMH");
        assertMessage(Map.of("jmh.oneCpu", ""), "-Djmh.oneCpu=REGEX needs the benchmarks whose forks run on one CPU"
                + " with every process they start (a regex found in the full name, such as Redis)");
        assertMessage(Map.of("jmh.oneCpu", "Redis("), "-Djmh.oneCpu=Redis( is not a valid regex: Unclosed group");
        assertMessage(Map.of("jmh.oneCpu", "Redis", "jmh.f", "3"),
                "-Djmh.oneCpu places the forks of the trial protocol; it cannot be combined with -Djmh.f");
    }

    private static void assertMessage(Map<String, String> props, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JmhOptions.parse(props));
        assertEquals(message, e.getMessage());
    }

    private static void assertPair(List<String> args, String flag, String value) {
        int i = args.indexOf(flag);
        assertTrue(i >= 0, flag + " missing in " + args);
        assertEquals(value, args.get(i + 1), flag + " in " + args);
    }
}
