package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunMojoTest {

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
}
