package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineLockTest {

    @Test
    void aHeldLockFailsTheRunAndAFreeOneIsLeftFree(@TempDir Path dir) throws Exception {
        Path lock = dir.resolve("jmh.lock");
        assertDoesNotThrow(() -> MachineLock.check(lock));
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE);
             FileLock held = ch.lock()) {
            MojoFailureException e = assertThrows(MojoFailureException.class, () -> MachineLock.check(lock));
            assertTrue(e.getMessage().contains(lock.toString()) && !e.getMessage().contains("\n"), e.getMessage());
        }
        assertDoesNotThrow(() -> MachineLock.check(lock));
    }
}
