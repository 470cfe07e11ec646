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
 *   <li>{@code jmh.prof}: profilers, separated by {@code +}. Each one is written as JMH's own
 *       {@code -prof} takes it, {@code name[:options]}, whose options are separated by {@code ;},
 *       values by {@code =} and lists by {@code ,}, so none of those can separate profilers.
 *       {@code +} can: JMH's syntax never uses it, a shell needs no quotes for it, and as a leading
 *       character it already meant "in addition to the default". A profiler's options therefore
 *       cannot contain {@code +}. {@code gc} is on by default: a value starting with {@code +}
 *       adds to it ({@code +stack}), any other value replaces it ({@code gc+stack}, {@code stack}),
 *       {@code none} turns profiling off. A profiler named twice keeps its last spec
 *       ({@code +gc:churn=true} configures the default one). Example:
 *       {@code '-Djmh.prof=+async:output=text,flamegraph;dir=/tmp/p'} (quoted for the shell's
 *       {@code ;}) hands JMH {@code -prof gc -prof async:output=text,flamegraph;dir=/tmp/p}.
 *   <li>{@code jmh.jdk=N}: run JMH, and so every fork, on the JDK that Maven's toolchains declare
 *       with type {@code jdk} and version {@code N} (a version such as {@code 25}, or a version
 *       range such as {@code [25,26)}); cannot be combined with {@code jmh.jvm}.
 *   <li>{@code jmh.skip} (or {@code jmh.skip=true}): run nothing; {@code jmh.skip=false} runs.
 *   <li>{@code jmh.oneCpu=REGEX}: the trial forks of the benchmarks REGEX finds run on one CPU with
 *       every process they start ({@link OneCpu}; {@code Redis} puts the server beside its client).
 *   <li>{@code jmh.p.NAME=v1,v2}: a {@code @Param} override ({@code -p NAME=v1,v2}).
 *   <li>{@code jmh.FLAG=value}: any other JMH flag from {@link #VALUE_FLAGS}.
 * </ul>
 */
public final class JmhOptions {

    /** Properties that belong to the plugin itself, not to JMH. */
    static final Set<String> PLUGIN_KEYS = Set.of("include", "exclude", "quick", "prof", "resultsDir", "jdk", "skip",
            "trials", "budget", "seed", "against", "gate", "gateFigure", "claims", "oneCpu");

    private static final Pattern BUDGET = Pattern.compile("(\\d+)(s|m|h)");

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
    private static final Pattern JDK_VERSION =
            Pattern.compile("\\d+(\\.\\d+)*|([\\[(][\\d.]*,?[\\d.]*[\\])],?)+");
    /** A profiler's name: one of JMH's short names or a class name. */
    private static final Pattern PROFILER_NAME = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");

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
    private final String jdk;
    private final boolean quick;
    private final boolean forksGiven;
    private final Integer trials;
    private final java.time.Duration budget;
    private final Long seed;
    private String against;
    private boolean gate;
    private boolean gateBest;
    private List<String> claims;
    private Pattern oneCpu;

    private JmhOptions(String include, String exclude, List<String> profilers,
                       Map<String, String> flags, Map<String, String> params, String jdk,
                       boolean quick, boolean forksGiven, Integer trials, java.time.Duration budget, Long seed) {
        this.include = include;
        this.exclude = exclude;
        this.profilers = profilers;
        this.flags = flags;
        this.params = params;
        this.jdk = jdk;
        this.quick = quick;
        this.forksGiven = forksGiven;
        this.trials = trials;
        this.budget = budget;
        this.seed = seed;
    }

    /**
     * Whether {@code -Djmh.skip} asks to run nothing: absent or {@code false} runs, an empty value
     * or {@code true} skips.
     *
     * @throws IllegalArgumentException with a one-line message for any other value
     */
    public static boolean skip(Map<String, String> properties) {
        String value = properties.get("jmh.skip");
        return flag("jmh.skip", value == null ? null : value.trim());
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
        flag("jmh.skip", jmh.get("skip"));
        String jdk = nonBlank(jmh.get("jdk"));
        if (jmh.containsKey("jdk") && (jdk == null || !JDK_VERSION.matcher(jdk).matches())) {
            throw new IllegalArgumentException("-Djmh.jdk=" + jmh.get("jdk")
                    + " is not a valid value (expected a JDK version such as 25, or a version range such as [25,26))");
        }
        if (jdk != null && jmh.containsKey("jvm")) {
            throw new IllegalArgumentException("-Djmh.jdk=" + jdk + " and -Djmh.jvm=" + jmh.get("jvm")
                    + " both choose the JVM the benchmarks run on; give only one");
        }
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
                        + ", plus include, exclude, quick, prof, p.NAME, jdk, skip, resultsDir, trials, budget, seed, against, gate, gateFigure, claims, oneCpu");
            }
            if (!form.matcher(value).matches()) {
                throw new IllegalArgumentException("-Djmh." + key + "=" + value + " is not a valid value (expected " + describe(key) + ")");
            }
            flags.put(key, value);
        }
        boolean forksGiven = jmh.containsKey("f");
        Integer trials = null;
        if (jmh.containsKey("trials")) {
            String v = jmh.get("trials");
            if (!INT.matcher(v).matches() || Integer.parseInt(v) < 1 || v.length() > 4) {
                throw new IllegalArgumentException("-Djmh.trials=" + v + " is not a valid value (expected a number of trials, 1 or more)");
            }
            trials = Integer.parseInt(v);
        }
        java.time.Duration budget = null;
        if (jmh.containsKey("budget")) {
            budget = budget(jmh.get("budget"));
        }
        if (forksGiven && (trials != null || budget != null)) {
            throw new IllegalArgumentException("-Djmh.f runs JMH's own fork order (no trials); it cannot be combined with "
                    + (trials != null ? "-Djmh.trials" : "-Djmh.budget"));
        }
        Long seed = null;
        if (jmh.containsKey("seed")) {
            try {
                seed = Long.parseLong(jmh.get("seed"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-Djmh.seed=" + jmh.get("seed") + " is not a valid value (expected a whole number)");
            }
        }
        JmhOptions o = new JmhOptions(include, exclude, profilers(jmh.get("prof")), flags, params, jdk,
                quick, forksGiven, trials, budget, seed);
        if (jmh.containsKey("against")) {
            String ref = jmh.get("against");
            if (ref.isEmpty() || ref.startsWith("-") || ref.contains(" ")) {
                throw new IllegalArgumentException("-Djmh.against=" + ref + " is not a git ref (expected a commit, tag or branch such as HEAD~1)");
            }
            if (forksGiven) {
                throw new IllegalArgumentException("-Djmh.against measures two commits in trials; it cannot be combined with -Djmh.f");
            }
            o.against = ref;
        }
        if (jmh.containsKey("claims")) {
            List<String> ids = java.util.Arrays.stream(jmh.get("claims").split(",")).map(String::trim)
                    .filter(x -> !x.isEmpty()).toList();
            if (ids.isEmpty()) {
                throw new IllegalArgumentException("-Djmh.claims=ID,ID needs at least one claim id (scripts/techniques/*.json, \"claims\")");
            }
            o.claims = ids;
        }
        if (jmh.containsKey("oneCpu")) {
            String v = jmh.get("oneCpu");
            if (v.isEmpty()) {
                throw new IllegalArgumentException("-Djmh.oneCpu=REGEX needs the benchmarks whose forks run on one CPU"
                        + " with every process they start (a regex found in the full name, such as Redis)");
            }
            checkRegex("jmh.oneCpu", v);
            if (forksGiven) {
                throw new IllegalArgumentException("-Djmh.oneCpu places the forks of the trial protocol; it cannot be combined with -Djmh.f");
            }
            o.oneCpu = Pattern.compile(v);
        }
        o.gate = flag("jmh.gate", jmh.get("gate"));
        if (jmh.containsKey("gateFigure")) {
            String v = jmh.get("gateFigure");
            if (!v.equals("mean") && !v.equals("best")) {
                throw new IllegalArgumentException("-Djmh.gateFigure=" + v + " is not a valid value (expected mean or best)");
            }
            if (!o.gate) {
                throw new IllegalArgumentException("-Djmh.gateFigure names the fork figure -Djmh.gate stops by; give -Djmh.gate too");
            }
            o.gateBest = v.equals("best");
        }
        if (o.gate) {
            if (o.against == null) {
                throw new IllegalArgumentException("-Djmh.gate judges two commits side by side: give the other one with -Djmh.against=REF");
            }
            if (quick) {
                throw new IllegalArgumentException("-Djmh.gate samples at fixed looks (scripts/suite.json, rule;"
                        + " or one look at -Djmh.trials=N); it cannot be combined with -Djmh.quick");
            }
            if (trials != null && trials < 2) {
                throw new IllegalArgumentException("-Djmh.gate with -Djmh.trials=" + trials + ": a look needs at least 2 trials for an interval");
            }
        }
        return o;
    }

    /**
     * {@code -Djmh.gate}: a two-commit run of just the configurations the gated gain claims compare,
     * sampled at the gate's fixed looks (scripts/suite.json's rule) until each claim's change
     * of gain is decided (docs/gate.md).
     */
    public boolean gate() {
        return gate;
    }

    /** The {@code -Djmh.oneCpu} regex, or null: see {@link OneCpu}. */
    public String oneCpu() {
        return oneCpu == null ? null : oneCpu.pattern();
    }

    /** Whether {@code -Djmh.oneCpu} places the forks of {@code benchmark} (its full name) on one CPU. */
    public boolean onOneCpu(String benchmark) {
        return oneCpu != null && oneCpu.matcher(benchmark).find();
    }

    /**
     * {@code -Djmh.gateFigure=best}: the gate's looks judge each fork by its best measured iteration
     * (the fast state, docs/gate.md) instead of its mean ({@code mean}, the default).
     */
    public boolean gateBest() {
        return gateBest;
    }

    /** {@code -Djmh.claims=ID,ID}: measure just the configurations these claims compare; null for no such filter. */
    public List<String> claims() {
        return claims;
    }

    /** {@code -Djmh.against}: the git ref whose benchmarks run beside the checked-out ones, or null. */
    public String against() {
        return against;
    }

    /** A budget such as 35m, 90m, 1h or 600s. */
    static java.time.Duration budget(String value) {
        java.util.regex.Matcher m = BUDGET.matcher(value);
        if (!m.matches() || Long.parseLong(m.group(1)) == 0 || m.group(1).length() > 6) {
            throw new IllegalArgumentException("-Djmh.budget=" + value + " is not a valid value (expected a duration such as 10m, 90m, 1h or 600s)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> java.time.Duration.ofSeconds(n);
            case "m" -> java.time.Duration.ofMinutes(n);
            default -> java.time.Duration.ofHours(n);
        };
    }

    /**
     * Whether this run uses JMH's own fork order (one JMH process, every fork of a configuration
     * back to back), which {@code -Djmh.f} asks for; otherwise the run is made of trials.
     */
    public boolean jmhForkOrder() {
        return forksGiven;
    }

    /**
     * The fixed number of trials: {@code -Djmh.trials}, or for {@code -Djmh.quick} without it 1, or
     * {@value #QUICK_AGAINST_TRIALS} with {@code -Djmh.against} (a change between two commits from
     * one trial has no interval); null when the class settings and the budget decide.
     */
    public Integer trials() {
        if (trials != null) {
            return trials;
        }
        if (!quick) {
            return null;
        }
        return against() != null ? QUICK_AGAINST_TRIALS : 1;
    }

    /** Trials of a quick two-commit run: the fewest that give a change a t interval worth reading. */
    static final int QUICK_AGAINST_TRIALS = 3;

    /**
     * {@code -Djmh.budget}, or null when not given. With -Djmh.gate it caps the gate: groups that
     * cannot all reach their next look within it end undecided (INCONCLUSIVE) at the look they reached.
     */
    public java.time.Duration budget() {
        return budget;
    }

    /** {@code -Djmh.seed}, the shuffle's seed, or null for a fresh one. */
    public Long seed() {
        return seed;
    }

    public boolean isQuick() {
        return quick;
    }

    /** Whether the warm-up was given ({@code -Djmh.wi}, {@code -Djmh.w}, or {@code -Djmh.quick}'s): it then wins over a technique file's. */
    public boolean warmupGiven() {
        return flags.containsKey("wi") || flags.containsKey("w");
    }

    /** The user's {@code -Djmh.p.NAME} overrides. */
    public Map<String, String> params() {
        return params;
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

    /** The toolchain version {@code -Djmh.jdk} asks for, or null. */
    public String jdk() {
        return jdk;
    }

    /** The fork JVM {@code -Djmh.jvm} names, or null. */
    public String jvm() {
        return flags.get("jvm");
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
        Map<String, String> byName = new LinkedHashMap<>();
        if (v.startsWith("+")) {
            DEFAULT_PROFILERS.forEach(p -> byName.put(p, p));
            v = v.substring(1);
        }
        for (String p : v.split("\\+", -1)) {
            String spec = p.trim();
            int colon = spec.indexOf(':');
            String name = colon < 0 ? spec : spec.substring(0, colon);
            if (spec.isEmpty()) {
                throw new IllegalArgumentException("-Djmh.prof=" + value
                        + " has an empty profiler (profilers are separated by one +, e.g. gc+stack)");
            }
            if (name.equals("none")) {
                throw new IllegalArgumentException("-Djmh.prof=" + value
                        + ": none turns every profiler off and stands alone (-Djmh.prof=none)");
            }
            if (!PROFILER_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("-Djmh.prof=" + value + ": '" + name
                        + "' is not a profiler name; separate profilers with + (gc+stack) and write each as"
                        + " name:options, options separated by ; and lists by , (async:output=text,flamegraph;dir=/tmp/p)");
            }
            byName.remove(name);
            byName.put(name, spec);
        }
        return List.copyOf(byName.values());
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
