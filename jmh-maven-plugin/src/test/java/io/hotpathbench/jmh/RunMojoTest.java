package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunMojoTest {

    @Test
    void parsesJmhList() {
        String out = "Benchmarks: \nio.x.A.a\nio.x.B.b\n\n";
        assertEquals(List.of("io.x.A.a", "io.x.B.b"), RunMojo.parseList(out));
        assertEquals(List.of(), RunMojo.parseList("Benchmarks: \n"));
    }

    @Test
    void findsJmhVersionOnClasspath() {
        assertEquals("1.37", RunMojo.jmhVersion(List.of("/p/target/classes", "/m2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar")));
        assertEquals("unknown", RunMojo.jmhVersion(List.of("/p/target/classes")));
    }

    @Test
    void explainsFailuresInOneLine() {
        assertTrue(RunMojo.failureReason(1, "ERROR: Unable to acquire the JMH lock (/tmp/jmh.lock): already taken")
                .startsWith("another JMH run holds /tmp/jmh.lock"));
        assertEquals("JMH rejected its options: Error parsing command line: bad -f",
                RunMojo.failureReason(1, "x\nError parsing command line: bad -f\n more"));
        assertTrue(RunMojo.failureReason(1, "<failure>\n\njava.lang.IllegalStateException: boom")
                .startsWith("a benchmark threw an exception"));
        assertEquals("JMH exited with code 3 (see its output above); no result was stored",
                RunMojo.failureReason(3, "???"));
        for (String s : List.of(RunMojo.failureReason(1, "<failure>"), RunMojo.failureReason(2, ""))) {
            assertTrue(!s.contains("\n"));
        }
    }

    @Test
    void aFailedListingIsToldByItsErrorLine() {
        assertEquals("Error: LinkageError occurred while loading main class org.openjdk.jmh.Main",
                RunMojo.firstError("Picked up JAVA_TOOL_OPTIONS: -Xss1m\nError: LinkageError occurred while loading main"
                        + " class org.openjdk.jmh.Main\n\tjava.lang.UnsupportedClassVersionError: ...\n"));
        assertEquals("Exception in thread \"main\" java.lang.RuntimeException: ERROR: Unable to find the resource:"
                + " /META-INF/BenchmarkList", RunMojo.firstError("Exception in thread \"main\" java.lang.RuntimeException:"
                + " ERROR: Unable to find the resource: /META-INF/BenchmarkList\n\tat org.openjdk.jmh.runner.AbstractResourceReader"));
        assertEquals("last words", RunMojo.firstError("first\nlast words\n\n"));
        assertEquals("no output", RunMojo.firstError(""));
    }

    @Test
    void noMatchNamesTheSelectionAndListsEveryBenchmark() {
        List<String> all = List.of("io.x.SplitBenchmark.split", "io.x.MapKeyBenchmark.lookup");
        assertEquals("no benchmark matches include=Nope; benchmarks: io.x.SplitBenchmark.split, io.x.MapKeyBenchmark.lookup",
                RunMojo.noMatch("Nope", null, all));
        assertEquals("no benchmark matches exclude=.*; benchmarks: io.x.SplitBenchmark.split, io.x.MapKeyBenchmark.lookup",
                RunMojo.noMatch(null, ".*", all));
        assertEquals("no benchmark matches include=Split exclude=split; benchmarks: io.x.SplitBenchmark.split, io.x.MapKeyBenchmark.lookup",
                RunMojo.noMatch("Split", "split", all));
    }

    @Test
    void aHeldLockFailsTheRunAndAFreeOneIsLeftFree(@TempDir Path dir) throws Exception {
        Path lock = dir.resolve("jmh.lock");
        assertDoesNotThrow(() -> RunMojo.checkLock(lock));
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE);
             FileLock held = ch.lock()) {
            MojoFailureException e = assertThrows(MojoFailureException.class, () -> RunMojo.checkLock(lock));
            assertTrue(e.getMessage().contains(lock.toString()) && !e.getMessage().contains("\n"), e.getMessage());
        }
        assertDoesNotThrow(() -> RunMojo.checkLock(lock));
    }
}
