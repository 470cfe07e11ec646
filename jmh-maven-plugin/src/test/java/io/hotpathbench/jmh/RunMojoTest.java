package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

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
}
