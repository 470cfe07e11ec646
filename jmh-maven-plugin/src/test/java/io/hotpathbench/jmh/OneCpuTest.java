package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OneCpuTest {

    @TempDir
    Path dir;

    @Test
    void theLowestCpuThisProcessMayUse() {
        assertEquals(0, OneCpu.lowestAllowed("Name:\tjava\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t1\n"));
        assertEquals(3, OneCpu.lowestAllowed("Cpus_allowed_list:\t3,5-7\n"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OneCpu.lowestAllowed("Name:\tjava\n"));
        assertEquals("-Djmh.oneCpu: no Cpus_allowed_list in /proc/self/status (Linux only)", e.getMessage());
    }

    @Test
    void wrapsTheForkCommandInTaskset() {
        OneCpu one = new OneCpu("/usr/bin/taskset", 1);
        assertEquals(List.of("/usr/bin/taskset", "-c", "1", "java", "-cp", "x", "Main"), one.wrap(List.of("java", "-cp", "x", "Main")));
    }

    @Test
    void findsTasksetOnThePathOrSaysItIsMissing() throws IOException {
        Path status = Files.writeString(dir.resolve("status"), "Cpus_allowed_list:\t2-3\n");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OneCpu.resolve(bin.toString(), status));
        assertEquals("-Djmh.oneCpu needs taskset (util-linux) on the PATH; none found", e.getMessage());
        Path taskset = Files.writeString(bin.resolve("taskset"), "#!/bin/sh\n");
        assertTrue(taskset.toFile().setExecutable(true));
        OneCpu one = OneCpu.resolve("/nonexistent:" + bin, status);
        assertEquals(taskset.toString(), one.taskset);
        assertEquals(2, one.cpu);
        e = assertThrows(IllegalArgumentException.class, () -> OneCpu.resolve(bin.toString(), dir.resolve("absent")));
        assertTrue(e.getMessage().startsWith("-Djmh.oneCpu reads the CPUs this process may use from "), e.getMessage());
    }
}
