package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFilesTest {

    private static final Instant T = Instant.parse("2026-11-22T10:15:30.123Z");

    @TempDir
    Path dir;

    @Test
    void stemIsUtcTimeAndShortCommit() {
        assertEquals("20261122T101530Z-1a2b3c4", ResultFiles.stem(T, "1a2b3c4", false));
        assertEquals("20261122T101530Z-1a2b3c4-dirty", ResultFiles.stem(T, "1a2b3c4", true));
        assertEquals("20261122T101530Z-nogit", ResultFiles.stem(T, null, false));
    }

    @Test
    void takenStemGetsASuffixInsteadOfOverwriting() throws IOException {
        Files.writeString(dir.resolve("20261122T101530Z-abc.json"), "[1]");
        ResultFiles second = ResultFiles.reserve(dir, T, "abc", false);
        assertEquals("20261122T101530Z-abc-2", second.stem());
        Files.writeString(second.partial(), "[]");
        assertEquals("20261122T101530Z-abc-3", ResultFiles.reserve(dir, T, "abc", false).stem());
    }

    @Test
    void publishMovesCompleteResultAndWritesProvenance() throws IOException {
        ResultFiles f = ResultFiles.reserve(dir, T, "abc", false);
        Files.writeString(f.partial(), "[ {\"benchmark\": \"x\"} ]\n");
        f.publish("{\"status\": \"complete\"}\n");
        assertFalse(Files.exists(f.partial()));
        assertEquals("[ {\"benchmark\": \"x\"} ]\n", Files.readString(f.result()));
        assertEquals("{\"status\": \"complete\"}\n", Files.readString(f.provenance()));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void truncatedOrEmptyOrMissingResultIsNotPublished() throws IOException {
        ResultFiles f = ResultFiles.reserve(dir, T, "abc", false);
        assertThrows(IOException.class, () -> f.publish("{}"));
        Files.writeString(f.partial(), "[ {\"benchmark\": ");
        IOException e = assertThrows(IOException.class, () -> f.publish("{}"));
        assertTrue(e.getMessage().contains("not a complete JSON array"), e.getMessage());
        Files.writeString(f.partial(), "[ ]");
        assertThrows(IOException.class, () -> f.publish("{}"));
        assertFalse(Files.exists(f.result()));
        f.discard();
        assertFalse(Files.exists(f.partial()));
    }

    @Test
    void neverOverwritesAnExistingFile() throws IOException {
        Path target = dir.resolve("a.json");
        Files.writeString(target, "old");
        assertThrows(FileAlreadyExistsException.class, () -> ResultFiles.writeAtomically(target, "new"));
        assertEquals("old", Files.readString(target));
        assertEquals(List.of(), leftovers());
    }

    private List<Path> leftovers() throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".")).toList();
        }
    }
}
