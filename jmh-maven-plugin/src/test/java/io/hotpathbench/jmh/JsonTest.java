package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsWhatItWrites() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a \"q\" \\ \n\t\u0001 é");
        m.put("n", 1.5);
        m.put("l", Arrays.asList("x", null, true, false));
        m.put("e", Map.of());
        m.put("a", List.of());
        assertEquals(m, Json.read(Json.write(m)));
    }

    @Test
    void readsJmhsLayoutAndEscapes() {
        Object v = Json.read(" [ {\n  \"k\" : -1.25e2 , \"u\": \"\\u00b5s\\/op\", \"z\": 0} ] ");
        assertEquals(List.of(Map.of("k", -125.0, "u", "µs/op", "z", 0.0)), v);
    }

    @Test
    void malformedInputNamesTheOffset() {
        assertEquals("malformed JSON at offset 3: expected a key",
                assertThrows(IllegalArgumentException.class, () -> Json.read("[{ 1: 2}]")).getMessage());
        assertEquals("malformed JSON at offset 9: expected ']'",
                assertThrows(IllegalArgumentException.class, () -> Json.read("[1, 2, 3 4]")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Json.read("[\"open"));
        assertThrows(IllegalArgumentException.class, () -> Json.read("[1] x"));
        assertThrows(IllegalArgumentException.class, () -> Json.read(""));
    }
}
