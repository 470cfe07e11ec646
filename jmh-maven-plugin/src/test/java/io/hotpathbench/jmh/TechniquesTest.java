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
import org.openjdk.jmh.runner.options.TimeValue;
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
    void theClaimsThatSelectAGateRunAreTheGainClaimsAndMaxStandsForEveryValue() throws IOException {
        List<Techniques.Gated> claims = Techniques.claims(Path.of("..", "scripts", "techniques"));
        List<String> gains = claims.stream().filter(Techniques.Gated::gain).map(Techniques.Gated::id).sorted().toList();
        assertEquals(List.of("redis-mget-4x", "redis-pooled-1.3x", "split-indexof-2char-2x", "validator-shared-50x"), gains);
        Techniques.Gated split = claims.stream().filter(c -> c.id().equals("split-indexof-2char-2x")).findFirst().orElseThrow();
        String cls = "io.hotpathbench.split.SplitBenchmark";
        assertTrue(split.names(new TrialSchedule.Configuration(cls + ".split", cls, "thrpt",
                Map.of("delimiter", "::", "fields", "16", "variant", "JDK_SPLIT"), 8, 1, "head")));
        assertTrue(!split.names(new TrialSchedule.Configuration(cls + ".split", cls, "thrpt",
                Map.of("delimiter", ",", "fields", "16", "variant", "JDK_SPLIT"), 8, 1, "head")), "',' is not claimed");
        assertTrue(!split.names(new TrialSchedule.Configuration(cls + ".split", cls, "thrpt",
                Map.of("delimiter", "::", "fields", "16", "variant", "GUAVA"), 8, 1, "head")), "GUAVA is not compared");
        Techniques.Gated keys = claims.stream().filter(c -> c.id().equals("keys-long-bytes-0.3x")).findFirst().orElseThrow();
        String map = "io.hotpathbench.keys.MapKeyBenchmark";
        assertTrue(keys.names(new TrialSchedule.Configuration(map + ".lookup", map, "thrpt",
                Map.of("size", "100000", "variant", "LONG_KEY"), 4, 1, null)), "size=max runs every size; the scripts pick the largest");
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
    void theSharedValidatorWarmsUpForItsOwnTenSecondsAndNothingElseIsTouched() throws IOException {
        List<Techniques.Warmup> warmups = Techniques.warmups(Path.of("..", "scripts", "techniques"));
        String cls = "io.hotpathbench.validation.ValidatorBenchmark";
        Techniques.Warmup shared = Techniques.Warmup.of(warmups, new TrialSchedule.Configuration(cls + ".validate", cls, "avgt",
                Map.of("invalidPercent", "25", "seed", "42", "variant", "SHARED"), 4, 1, "base"));
        assertEquals(5, shared.iterations());
        assertEquals(TimeValue.seconds(2), TimeValue.fromString(shared.time()), "JMH reads the time as written");
        assertNull(Techniques.Warmup.of(warmups, new TrialSchedule.Configuration(cls + ".validate", cls, "avgt",
                Map.of("invalidPercent", "25", "seed", "42", "variant", "PER_CALL"), 4, 1, "base")), "PER_CALL keeps the class's 30 s");
        assertNull(Techniques.Warmup.of(warmups, new TrialSchedule.Configuration(cls + ".coldStart", cls, "ss",
                Map.of("invalidPercent", "25", "seed", "42", "variant", "SHARED"), 10, 1, null)), "another method keeps its own");
    }

    @Test
    void everyTimeAWarmupMayGiveIsOneJmhReads(@TempDir Path dir) throws IOException {
        for (String time : List.of("2s", "500ms", "1 s", "3min", "750us")) {
            Files.writeString(dir.resolve("a.json"), "{\"benchmark\": \"x.A\", \"warmup\": [{\"method\": \"m\","
                    + " \"params\": {\"variant\": [\"V\"]}, \"iterations\": 3, \"time\": \"" + time + "\"}]}");
            Techniques.Warmup w = Techniques.warmups(dir).get(0);
            assertTrue(TimeValue.fromString(w.time()).convertTo(java.util.concurrent.TimeUnit.MICROSECONDS) > 0, time);
        }
    }

    @Test
    void aMalformedWarmupIsOneLine(@TempDir Path dir) throws IOException {
        for (String entry : List.of("\"iterations\": 0, \"time\": \"2s\"", "\"iterations\": 2.5, \"time\": \"2s\"",
                "\"iterations\": 3, \"time\": \"two seconds\"", "\"iterations\": 3")) {
            Files.writeString(dir.resolve("bad.json"), "{\"benchmark\": \"x.A\", \"warmup\": [{\"method\": \"m\","
                    + " \"params\": {\"variant\": \"V\"}, " + entry + "}]}");
            IOException e = assertThrows(IOException.class, () -> Techniques.warmups(dir), entry);
            assertTrue(e.getMessage().contains("bad.json") && !e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void noFolderMeansNoCitedFigures() throws IOException {
        assertEquals(List.of(), Techniques.read(Path.of("no-such-folder")));
    }
}
