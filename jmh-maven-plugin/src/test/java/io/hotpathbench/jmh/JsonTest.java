package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsWhatItWrites() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a \"q\" \\ \n\t\u0001 é <&>");
        m.put("n", 1.5);
        m.put("l", Arrays.asList("x", null, true, false));
        m.put("e", Map.of());
        m.put("a", List.of());
        assertEquals(m, Json.read(Json.write(m)));
        assertEquals(List.copyOf(m.keySet()), List.copyOf(((Map<?, ?>) Json.read(Json.write(m))).keySet()), "key order kept");
    }

    @Test
    void writesTheProvenanceLayout() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("durationSeconds", 12L);
        m.put("trials", 3);
        m.put("ratio", 1.25);
        m.put("low", Double.NaN);
        m.put("started", Instant.parse("2026-11-27T10:00:00Z"));
        m.put("none", Map.of());
        assertEquals("""
                {
                  "durationSeconds": 12,
                  "trials": 3,
                  "ratio": 1.25,
                  "low": null,
                  "started": "2026-11-27T10:00:00Z",
                  "none": {}
                }
                """, Json.write(m));
    }

    @Test
    void readsJmhsLayoutAndEscapes() {
        Object v = Json.read(" [ {\n  \"k\" : -1.25e2 , \"u\": \"\\u00b5s\\/op\", \"z\": 0} ] ");
        assertEquals(List.of(Map.of("k", -125.0, "u", "µs/op", "z", 0.0)), v);
    }

    @Test
    void malformedInputIsOneLine() {
        for (String bad : List.of("[{ 1: 2}]", "[1, 2, 3 4]", "[\"open", "[1] x", "", "{'a': 1}", "[1,]")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.read(bad), bad);
            assertTrue(e.getMessage().startsWith("malformed JSON"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
