package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JmhProcessTest {

    @Test
    void parsesJmhList() {
        String out = "Benchmarks: \nio.x.A.a\nio.x.B.b\n\n";
        assertEquals(List.of("io.x.A.a", "io.x.B.b"), JmhProcess.parseList(out));
        assertEquals(List.of(), JmhProcess.parseList("Benchmarks: \n"));
    }

    @Test
    void findsJmhVersionOnClasspath() {
        assertEquals("1.37", JmhProcess.jmhVersion(List.of("/p/target/classes", "/m2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar")));
        assertEquals("unknown", JmhProcess.jmhVersion(List.of("/p/target/classes")));
    }

    @Test
    void explainsFailuresInOneLine() {
        assertTrue(JmhProcess.failureReason(1, "ERROR: Unable to acquire the JMH lock (/tmp/jmh.lock): already taken")
                .startsWith("another JMH run holds /tmp/jmh.lock"));
        assertEquals("JMH rejected its options: Error parsing command line: bad -f",
                JmhProcess.failureReason(1, "x\nError parsing command line: bad -f\n more"));
        assertTrue(JmhProcess.failureReason(1, "<failure>\n\njava.lang.IllegalStateException: boom")
                .startsWith("a benchmark threw an exception"));
        assertEquals("JMH exited with code 3 (see its output above); no result was stored",
                JmhProcess.failureReason(3, "???"));
        for (String s : List.of(JmhProcess.failureReason(1, "<failure>"), JmhProcess.failureReason(2, ""))) {
            assertTrue(!s.contains("\n"));
        }
    }

    @Test
    void aFailedListingIsToldByItsErrorLine() {
        assertEquals("Error: LinkageError occurred while loading main class org.openjdk.jmh.Main",
                JmhProcess.firstError("Picked up JAVA_TOOL_OPTIONS: -Xss1m\nError: LinkageError occurred while loading main"
                        + " class org.openjdk.jmh.Main\n\tjava.lang.UnsupportedClassVersionError: ...\n"));
        assertEquals("Exception in thread \"main\" java.lang.RuntimeException: ERROR: Unable to find the resource:"
                + " /META-INF/BenchmarkList", JmhProcess.firstError("Exception in thread \"main\" java.lang.RuntimeException:"
                + " ERROR: Unable to find the resource: /META-INF/BenchmarkList\n\tat org.openjdk.jmh.runner.AbstractResourceReader"));
        assertEquals("last words", JmhProcess.firstError("first\nlast words\n\n"));
        assertEquals("no output", JmhProcess.firstError(""));
    }

    @Test
    void javacsErrorLineIsTheOneTold() {
        assertEquals("/w/TrialFork.java:12: error: cannot find symbol",
                JmhProcess.firstError("/w/TrialFork.java:12: error: cannot find symbol\n  symbol: class X\n1 error\n"));
    }
}
