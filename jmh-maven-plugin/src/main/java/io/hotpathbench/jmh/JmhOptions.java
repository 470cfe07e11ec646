package io.hotpathbench.jmh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Maps {@code -Djmh.*} properties to JMH command-line arguments. Pure, so every mapping and every
 * error can be unit-tested without Maven.
 *
 * <ul>
 *   <li>{@code jmh.include=REGEX}, {@code jmh.exclude=REGEX}: benchmark selection (regex find on
 *       the full method name, as JMH does).
 *   <li>{@code jmh.quick}: 1 fork, 1 warm-up and 1 measurement iteration of 1 s each; explicit
 *       flags such as {@code -Djmh.i=3} still win.
 *   <li>{@code jmh.prof}: profilers, comma separated. {@code gc} is on by default; a value starting
 *       with {@code +} adds to it, any other value replaces it, {@code none} turns profiling off.
 *   <li>{@code jmh.p.NAME=v1,v2}: a {@code @Param} override ({@code -p NAME=v1,v2}).
 *   <li>{@code jmh.FLAG=value}: any other JMH flag from {@link #VALUE_FLAGS}.
 * </ul>
 */
public final class JmhOptions {

    /** Properties that belong to the plugin itself, not to JMH. */
    static final Set<String> PLUGIN_KEYS = Set.of("include", "exclude", "quick", "prof", "resultsDir");

    static final List<String> DEFAULT_PROFILERS = List.of("gc");

    static final Map<String, String> QUICK = quick();

    private static final Pattern INT = Pattern.compile("\\d+");
    private static final Pattern TIME = Pattern.compile("\\d+(ns|us|ms|s|m|min|hr|day)?");
    private static final Pattern BOOL = Pattern.compile("true|false");
    private static final Pattern MODES = Pattern.compile("(thrpt|avgt|sample|ss|all)(,(thrpt|avgt|sample|ss|all))*");
    private static final Pattern UNIT = Pattern.compile("ns|us|ms|s|m|h");
    private static final Pattern ANY = Pattern.compile("(?s).+");
    private static final Pattern THREADS = Pattern.compile("\\d+|max");
    private static final Pattern GROUPS = Pattern.compile("\\d+(,\\d+)*");

    /** JMH flags that take a value, with the form that value must have. */
    static final Map<String, Pattern> VALUE_FLAGS = valueFlags();

    /** Flags the plugin sets itself; a user value would break the results bookkeeping. */
    static final Map<String, String> RESERVED = Map.of(
            "rf", "results are always JSON",
            "rff", "results always go to results/ (set -Djmh.resultsDir to change the folder)",
            "o", "JMH output is streamed to the console",
            "foe", "the run always fails on the first benchmark error (-foe true)",
            "l", "use -Djmh.include to select benchmarks",
            "lp", "not supported through the plugin",
            "lprof", "not supported through the plugin",
            "h", "see the README for the plugin's options",
            "ignoreLock", "two JMH runs on one machine measure each other; wait for the other run");

    private final String include;
    private final String exclude;
    private final List<String> profilers;
    private final Map<String, String> flags;
    private final Map<String, String> params;

    private JmhOptions(String include, String exclude, List<String> profilers,
                       Map<String, String> flags, Map<String, String> params) {
        this.include = include;
        this.exclude = exclude;
        this.profilers = profilers;
        this.flags = flags;
        this.params = params;
    }

    /**
     * Parses the {@code jmh.*} entries of {@code properties} (other keys are ignored).
     *
     * @throws IllegalArgumentException with a one-line message for any bad input
     */
    public static JmhOptions parse(Map<String, String> properties) {
        Map<String, String> jmh = new TreeMap<>();
        properties.forEach((k, v) -> {
            if (k.startsWith("jmh.")) {
                jmh.put(k.substring(4), v == null ? "" : v.trim());
            }
        });

        String include = nonBlank(jmh.get("include"));
        String exclude = nonBlank(jmh.get("exclude"));
        checkRegex("jmh.include", include);
        checkRegex("jmh.exclude", exclude);

        boolean quick = flag("jmh.quick", jmh.get("quick"));
        Map<String, String> flags = new LinkedHashMap<>();
        if (quick) {
            flags.putAll(QUICK);
        }
        Map<String, String> params = new TreeMap<>();
        for (Map.Entry<String, String> e : jmh.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (PLUGIN_KEYS.contains(key)) {
                continue;
            }
            if (key.startsWith("p.")) {
                String name = key.substring(2);
                if (name.isEmpty() || value.isEmpty()) {
                    throw new IllegalArgumentException("-Djmh.p.NAME=v1,v2 needs a parameter name and at least one value, got -Djmh." + key + "=" + value);
                }
                params.put(name, value);
                continue;
            }
            if (RESERVED.containsKey(key)) {
                throw new IllegalArgumentException("-Djmh." + key + " cannot be set: " + RESERVED.get(key));
            }
            Pattern form = VALUE_FLAGS.get(key);
            if (form == null) {
                throw new IllegalArgumentException("unknown JMH option -Djmh." + key + "; known: "
                        + String.join(", ", new TreeSet<>(VALUE_FLAGS.keySet()))
                        + ", plus include, exclude, quick, prof, p.NAME, resultsDir");
            }
            if (!form.matcher(value).matches()) {
                throw new IllegalArgumentException("-Djmh." + key + "=" + value + " is not a valid value (expected " + describe(key) + ")");
            }
            flags.put(key, value);
        }
        return new JmhOptions(include, exclude, profilers(jmh.get("prof")), flags, params);
    }

    /** The JMH arguments, without the selection regex and the result file. */
    public List<String> arguments() {
        List<String> args = new ArrayList<>();
        flags.forEach((k, v) -> {
            args.add("-" + k);
            args.add(v);
        });
        params.forEach((k, v) -> {
            args.add("-p");
            args.add(k + "=" + v);
        });
        for (String p : profilers) {
            args.add("-prof");
            args.add(p);
        }
        args.add("-foe");
        args.add("true");
        if (exclude != null) {
            args.add("-e");
            args.add(exclude);
        }
        return args;
    }

    /** Full argument list for one run writing JSON to {@code resultFile}. */
    public List<String> arguments(String resultFile) {
        List<String> args = arguments();
        args.add("-rf");
        args.add("json");
        args.add("-rff");
        args.add(resultFile);
        if (include != null) {
            args.add(include);
        }
        return args;
    }

    public String include() {
        return include;
    }

    public String exclude() {
        return exclude;
    }

    public List<String> profilers() {
        return profilers;
    }

    /** Selects the benchmarks JMH will run: regex find on the full name, as JMH matches. */
    public List<String> select(List<String> benchmarks) {
        Pattern in = include == null ? null : Pattern.compile(include);
        Pattern out = exclude == null ? null : Pattern.compile(exclude);
        List<String> selected = new ArrayList<>();
        for (String b : benchmarks) {
            if ((in == null || in.matcher(b).find()) && (out == null || !out.matcher(b).find())) {
                selected.add(b);
            }
        }
        return selected;
    }

    private static List<String> profilers(String value) {
        String v = nonBlank(value);
        if (v == null) {
            return DEFAULT_PROFILERS;
        }
        if (v.equals("none")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (v.startsWith("+")) {
            out.addAll(DEFAULT_PROFILERS);
            v = v.substring(1);
        }
        for (String p : v.split(",")) {
            String name = p.trim();
            if (name.isEmpty()) {
                throw new IllegalArgumentException("-Djmh.prof=" + value + " has an empty profiler name");
            }
            if (!out.contains(name)) {
                out.add(name);
            }
        }
        return List.copyOf(out);
    }

    private static boolean flag(String name, String value) {
        if (value == null) {
            return false;
        }
        if (value.isEmpty() || value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("-D" + name + "=" + value + " is not a valid value (expected true or false)");
    }

    private static void checkRegex(String name, String regex) {
        if (regex == null) {
            return;
        }
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("-D" + name + "=" + regex + " is not a valid regex: " + e.getDescription());
        }
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String describe(String key) {
        Pattern p = VALUE_FLAGS.get(key);
        if (p == INT) return "a non-negative integer";
        if (p == TIME) return "a time such as 500ms, 2s or 1m";
        if (p == BOOL) return "true or false";
        if (p == MODES) return "thrpt, avgt, sample, ss or all, comma separated";
        if (p == UNIT) return "ns, us, ms, s, m or h";
        if (p == THREADS) return "a thread count or max";
        if (p == GROUPS) return "comma-separated thread counts";
        return "a non-empty value";
    }

    private static Map<String, Pattern> valueFlags() {
        Map<String, Pattern> m = new TreeMap<>();
        for (String f : Arrays.asList("f", "i", "wi", "bs", "wbs", "opi")) {
            m.put(f, INT);
        }
        for (String f : Arrays.asList("r", "w", "to")) {
            m.put(f, TIME);
        }
        for (String f : Arrays.asList("gc", "si")) {
            m.put(f, BOOL);
        }
        m.put("bm", MODES);
        m.put("tu", UNIT);
        m.put("t", THREADS);
        m.put("tg", GROUPS);
        for (String f : Arrays.asList("jvm", "jvmArgs", "jvmArgsAppend", "jvmArgsPrepend", "wm", "wmb", "wf", "v")) {
            m.put(f, ANY);
        }
        return Map.copyOf(m);
    }

    private static Map<String, String> quick() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("f", "1");
        m.put("wi", "1");
        m.put("w", "1s");
        m.put("i", "1");
        m.put("r", "1s");
        return java.util.Collections.unmodifiableMap(m);
    }
}
