package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TechniquesTest {

    @Test
    void theSuitesOwnTechniqueFilesNameFiguresOfTheirBenchmarks() throws IOException {
        List<Techniques.Cited> cited = Techniques.read(Path.of("..", "scripts", "techniques"));
        assertTrue(cited.size() >= 20, "every technique cites figures: " + cited.size());
        Techniques.Cited split = cited.stream().filter(c -> c.id().equals("split-2char")).findFirst().orElseThrow();
        assertEquals("io.hotpathbench.split.SplitBenchmark", split.cls());
        assertEquals(Map.of("delimiter", "||", "fields", "16"), split.params());
        assertNull(split.metric());
        Techniques.Cited gc = cited.stream().filter(c -> c.id().equals("cache-gc")).findFirst().orElseThrow();
        assertEquals("gcPauseSecPerMin", gc.metric());
        assertTrue(gc.headline(), "the cache's answer cites cache-gc");
        Techniques.Catalog catalog = Techniques.catalog(Path.of("..", "scripts", "techniques"));
        assertEquals("jdkSplitFirst", catalog.family(split.cls(), "splitFirst"));
        assertEquals("split", catalog.family(split.cls(), "split"));
    }

    @Test
    void precisionDefaultsToTenPercentAndATechniqueMaySetItsOwn(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.json"), "{\"benchmark\": \"x.A\", \"cited\": [{\"id\": \"a\", \"method\": \"m\","
                + " \"variant\": \"V\", \"baseline\": \"B\"}]}");
        Files.writeString(dir.resolve("b.json"), "{\"benchmark\": \"x.B\", \"precision_pct\": 5, \"cited\": [{\"id\": \"b\","
                + " \"method\": \"m\", \"variant\": \"V\", \"baseline\": \"B\"}]}");
        List<Techniques.Cited> cited = Techniques.read(dir);
        assertEquals(10, cited.get(0).precisionPct());
        assertEquals(5, cited.get(1).precisionPct());
    }

    @Test
    void aMalformedFileIsOneLine(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("bad.json"), "{\"benchmark\": \"x.A\", \"cited\": [{\"id\": \"a\"}]}");
        IOException e = assertThrows(IOException.class, () -> Techniques.read(dir));
        assertTrue(e.getMessage().contains("bad.json"));
        Files.writeString(dir.resolve("bad.json"), "{nope");
        assertTrue(assertThrows(IOException.class, () -> Techniques.read(dir)).getMessage().contains("not valid JSON"));
    }

    @Test
    void noFolderMeansNoCitedFigures() throws IOException {
        assertEquals(List.of(), Techniques.read(Path.of("no-such-folder")));
    }
}
