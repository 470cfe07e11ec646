package io.hotpathbench.jmh;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import java.util.Collection;
import java.util.Map;

/**
 * The plugin's JSON, read and written by Gson in one configuration: the provenance files and the
 * technique files. Reading gives {@code Map} (key order kept), {@code List}, {@code String},
 * {@code Double}, {@code Boolean} and null; writing takes the same kinds (any other object is
 * written as its {@code toString()}, a number that is not finite as null), two spaces a level.
 * JMH's own results are never written here: JMH's {@code ResultFormat} writes them.
 */
final class Json {

    private static final Gson GSON = new GsonBuilder()
            .setPrettyPrinting()
            .serializeNulls()
            .disableHtmlEscaping()
            .setStrictness(Strictness.STRICT)
            .create();

    private Json() {
    }

    /**
     * Parses one JSON document.
     *
     * @throws IllegalArgumentException with Gson's one-line reason for malformed or empty input
     */
    static Object read(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("malformed JSON: the document is empty");
        }
        try {
            return GSON.fromJson(text, Object.class);
        } catch (JsonParseException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            // Gson appends a line pointing to its troubleshooting guide: keep the reason.
            throw new IllegalArgumentException("malformed JSON: " + reason.lines().findFirst().orElse(reason));
        }
    }

    /** The document for {@code value}, ending with a newline. */
    static String write(Object value) {
        return GSON.toJson(tree(value)) + "\n";
    }

    private static JsonElement tree(Object v) {
        if (v == null) {
            return JsonNull.INSTANCE;
        }
        if (v instanceof Boolean b) {
            return new JsonPrimitive(b);
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return new JsonPrimitive((Number) v);
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? new JsonPrimitive(d) : JsonNull.INSTANCE;
        }
        if (v instanceof Map<?, ?> map) {
            JsonObject o = new JsonObject();
            map.forEach((k, x) -> o.add(String.valueOf(k), tree(x)));
            return o;
        }
        if (v instanceof Collection<?> list) {
            JsonArray a = new JsonArray();
            list.forEach(x -> a.add(tree(x)));
            return a;
        }
        return new JsonPrimitive(v.toString());
    }
}
