package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The figures the suite cites, read from the technique files the scripts also read
 * ({@code scripts/techniques/*.json}: {@code benchmark}, {@code precision_pct}, the {@code cited}
 * list and the headline figure, {@code answer.cite}), so the run samples until exactly those
 * figures are precise enough, the headline figures first.
 */
final class Techniques {

    /**
     * One cited figure: in benchmark class {@code cls}, {@code variant} against {@code baseline},
     * either two values of the {@code variant} param of {@code method}, or two methods of the class
     * (a method pair) at {@code params}.
     */
    record Cited(String id, String cls, String method, Map<String, String> params, String variant, String baseline,
                 String metric, double precisionPct, boolean headline) {

        /** The pairs of {@code members} (one group) this figure names; one per side at most. */
        List<TrialSchedule.Pair> pairs(List<TrialSchedule.Configuration> members) {
            List<TrialSchedule.Pair> out = new ArrayList<>();
            boolean methodPair = members.stream().anyMatch(c -> c.method().equals(variant));
            for (TrialSchedule.Configuration v : members) {
                if (!v.cls().equals(cls) || !matches(v.params())) {
                    continue;
                }
                boolean isVariant = methodPair ? v.method().equals(variant)
                        : v.method().equals(method) && variant.equals(v.params().get(TrialSchedule.VARIANT));
                if (!isVariant) {
                    continue;
                }
                for (TrialSchedule.Configuration b : members) {
                    boolean isBaseline = methodPair ? b.method().equals(baseline)
                            : b.method().equals(method) && baseline.equals(b.params().get(TrialSchedule.VARIANT));
                    if (isBaseline && b != v && java.util.Objects.equals(b.side(), v.side())
                            && b.shared().equals(v.shared())) {
                        out.add(new TrialSchedule.Pair(id, v, b, metric, PairedRatio.target(precisionPct), headline));
                    }
                }
            }
            return out;
        }

        private boolean matches(Map<String, String> p) {
            for (Map.Entry<String, String> e : params.entrySet()) {
                if (!e.getValue().equals(p.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * What the run needs from the technique files: the cited figures, and which methods of a class
     * form a method pair ({@code method_pairs}: each method maps to its pair's baseline method).
     */
    record Catalog(List<Cited> cited, Map<String, Map<String, String>> pairedMethods) {

        static final Catalog EMPTY = new Catalog(List.of(), Map.of());

        /** The method whose comparison group {@code method} of {@code cls} belongs to: its pair's baseline, or itself. */
        String family(String cls, String method) {
            return pairedMethods.getOrDefault(cls, Map.of()).getOrDefault(method, method);
        }
    }

    /**
     * A CI claim ({@code claims} in a technique file): in class {@code cls}, method
     * {@code method}'s {@code variant} against {@code baseline} at {@code params} (each param one
     * value or a list; {@code max} or {@code min} stand for every value). {@code gain}: a
     * {@code min_speedup} on the primary score, which a {@code -Djmh.gate} run judges between two
     * commits. {@code -Djmh.claims} and {@code -Djmh.gate} measure just the configurations claims name.
     */
    record Gated(String id, String cls, String method, Map<String, List<String>> params, String variant,
                 String baseline, boolean gain) {

        Gated(String id, String cls, String method, Map<String, List<String>> params, String variant, String baseline) {
            this(id, cls, method, params, variant, baseline, true);
        }

        /** Whether {@code c} is one of the two sides this claim compares. */
        boolean names(TrialSchedule.Configuration c) {
            if (!c.cls().equals(cls) || !c.method().equals(method)) {
                return false;
            }
            String v = c.params().get(TrialSchedule.VARIANT);
            if (!variant.equals(v) && !baseline.equals(v)) {
                return false;
            }
            for (Map.Entry<String, List<String>> e : params.entrySet()) {
                List<String> values = e.getValue();
                if (!values.contains("max") && !values.contains("min") && !values.contains(c.params().get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * A configuration's own warm-up ({@code warmup} in a technique file): the forks of {@code method}
     * of class {@code cls} at {@code params} (each param a list of values) warm up for
     * {@code iterations} iterations of {@code time} instead of the class's annotation. JMH warms
     * every param of a method alike; a variant that is steady long before the slowest one (the
     * shared validator after 10 s, the validator built per call after 30 s) need not pay for it. Both
     * sides of a two-commit run take it from the checked-out tree's file, so they stay alike; an
     * explicit {@code -Djmh.wi}, {@code -Djmh.w} or {@code -Djmh.quick} wins.
     */
    record Warmup(String cls, String method, Map<String, List<String>> params, int iterations, String time) {

        /** Whether {@code c} is a configuration this warm-up is for. */
        boolean covers(TrialSchedule.Configuration c) {
            if (!c.cls().equals(cls) || !c.method().equals(method)) {
                return false;
            }
            for (Map.Entry<String, List<String>> e : params.entrySet()) {
                if (!e.getValue().contains(c.params().get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        /** The first of {@code warmups} that covers {@code c}, or null. */
        static Warmup of(List<Warmup> warmups, TrialSchedule.Configuration c) {
            return warmups.stream().filter(w -> w.covers(c)).findFirst().orElse(null);
        }

        String describe() {
            return cls.substring(cls.lastIndexOf('.') + 1) + "." + method + " " + params + ": " + iterations + " x " + time;
        }
    }

    private static final java.util.regex.Pattern TIME = java.util.regex.Pattern.compile("[1-9][0-9]* ?(ns|us|ms|s|m|min|h|hr)");

    private Techniques() {
    }

    /** Every configuration's own warm-up in {@code dir} ({@link Warmup}); none when the folder does not exist. */
    static List<Warmup> warmups(Path dir) throws IOException {
        List<Warmup> out = new ArrayList<>();
        for (Map.Entry<Path, Object> e : documents(dir).entrySet()) {
            Map<?, ?> t = (Map<?, ?>) e.getValue();
            if (t.get("warmup") == null) {
                continue;
            }
            if (!(t.get("warmup") instanceof List<?> list)) {
                throw new IOException(e.getKey() + ": warmup must be a list");
            }
            for (Object o : list) {
                if (!(o instanceof Map<?, ?> w) || !(w.get("method") instanceof String method)
                        || !(w.get("params") instanceof Map<?, ?> p) || !(w.get("iterations") instanceof Double n)
                        || n < 1 || n != Math.rint(n) || !(w.get("time") instanceof String time) || !TIME.matcher(time).matches()) {
                    throw new IOException(e.getKey() + ": a warmup entry needs method, params, iterations (a positive"
                            + " whole number) and time (JMH's form, such as 2s or 500ms)");
                }
                Map<String, List<String>> params = new LinkedHashMap<>();
                p.forEach((k, v) -> params.put(String.valueOf(k), v instanceof List<?> l
                        ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(v))));
                out.add(new Warmup((String) t.get("benchmark"), method, params, n.intValue(), time));
            }
        }
        return out;
    }

    /** Every CI claim in {@code dir} (gain claims flagged); none when the folder does not exist. */
    static List<Gated> claims(Path dir) throws IOException {
        List<Gated> out = new ArrayList<>();
        for (Map.Entry<Path, Object> e : documents(dir).entrySet()) {
            Map<?, ?> t = (Map<?, ?>) e.getValue();
            if (!(t.get("claims") instanceof List<?> claims)) {
                continue;
            }
            for (Object o : claims) {
                if (!(o instanceof Map<?, ?> c) || !(c.get("id") instanceof String id) || !(c.get("method") instanceof String method)
                        || !(c.get("variant") instanceof String variant) || !(c.get("baseline") instanceof String baseline)) {
                    throw new IOException(e.getKey() + ": a claim needs id, method, variant and baseline");
                }
                Map<String, List<String>> params = new LinkedHashMap<>();
                if (c.get("params") instanceof Map<?, ?> p) {
                    p.forEach((k, v) -> params.put(String.valueOf(k), v instanceof List<?> l
                            ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(v))));
                }
                boolean gain = c.containsKey("min_speedup") && (c.get("metric") == null || "primary".equals(c.get("metric")));
                out.add(new Gated(id, (String) t.get("benchmark"), method, params, variant, baseline, gain));
            }
        }
        return out;
    }

    /** Every cited figure and method pair in {@code dir}; none when the folder does not exist. */
    static Catalog catalog(Path dir) throws IOException {
        List<Cited> cited = new ArrayList<>();
        Map<String, Map<String, String>> pairs = new LinkedHashMap<>();
        for (Map.Entry<Path, Object> e : documents(dir).entrySet()) {
            cited.addAll(cited(e.getKey(), e.getValue()));
            Map<?, ?> t = (Map<?, ?>) e.getValue();
            if (t.get("method_pairs") instanceof List<?> list) {
                for (Object o : list) {
                    if (o instanceof Map<?, ?> mp && mp.get("baseline") instanceof String b && mp.get("methods") instanceof List<?> ms) {
                        Map<String, String> m = pairs.computeIfAbsent((String) t.get("benchmark"), k -> new LinkedHashMap<>());
                        m.put(b, b);
                        ms.forEach(x -> m.put(String.valueOf(x), b));
                    }
                }
            }
        }
        return new Catalog(cited, pairs);
    }

    /** Every cited figure in {@code dir}; none when the folder does not exist. */
    static List<Cited> read(Path dir) throws IOException {
        return catalog(dir).cited();
    }

    private static Map<Path, Object> documents(Path dir) throws IOException {
        Map<Path, Object> out = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        for (Path f : files) {
            Object doc;
            try {
                doc = Json.read(Files.readString(f, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new IOException(f + ": not valid JSON (" + e.getMessage() + ")");
            }
            if (!(doc instanceof Map<?, ?> t) || !(t.get("benchmark") instanceof String)) {
                throw new IOException(f + ": a technique file needs a \"benchmark\" class name");
            }
            out.put(f, doc);
        }
        return out;
    }

    static List<Cited> cited(Path file, Object doc) throws IOException {
        List<Cited> out = new ArrayList<>();
        if (!(doc instanceof Map<?, ?> t) || !(t.get("benchmark") instanceof String cls)) {
            throw new IOException(file + ": a technique file needs a \"benchmark\" class name");
        }
        double precision = t.get("precision_pct") instanceof Double d ? d : RunDefaults.PRECISION_PCT;
        if (!(t.get("cited") instanceof List<?> cited)) {
            return out;
        }
        String headline = t.get("answer") instanceof Map<?, ?> answer && answer.get("cite") instanceof String h ? h : null;
        for (Object o : cited) {
            if (!(o instanceof Map<?, ?> c) || !(c.get("id") instanceof String id)
                    || !(c.get("method") instanceof String method) || !(c.get("variant") instanceof String variant)
                    || !(c.get("baseline") instanceof String baseline)) {
                throw new IOException(file + ": a cited figure needs id, method, variant and baseline");
            }
            Map<String, String> params = new LinkedHashMap<>();
            if (c.get("params") instanceof Map<?, ?> p) {
                p.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
            }
            String metric = c.get("metric") instanceof String m && !m.equals("primary") ? m : null;
            out.add(new Cited(id, cls, method, params, variant, baseline, metric, precision, id.equals(headline)));
        }
        return out;
    }
}
