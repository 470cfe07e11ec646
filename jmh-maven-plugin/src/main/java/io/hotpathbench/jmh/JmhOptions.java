package io.hotpathbench.jmh;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * The run's options, from Maven's {@code -Djmh.*} properties. Pure, so every mapping and every
 * error can be unit-tested without Maven; every error is one line.
 *
 * <p>The plugin's own options are {@link #PLUGIN_KEYS} and {@code p.NAME}, described once, in
 * docs/protocol.md ("Options"). Every other {@code -Djmh.FLAG=VALUE} is one of JMH's flags and
 * becomes JMH's {@code -FLAG VALUE}: JMH's own parser ({@link CommandLineOptions}) says whether
 * FLAG is one and VALUE fits it, and its reason is the error. The flags the plugin sets itself
 * (where results go, failing on error, listing) are refused, whatever name JMH knows them by.
 */
public final class JmhOptions {

    /** The plugin's own options; {@code p.NAME} is one too. Every other key is a JMH flag. */
    static final Set<String> PLUGIN_KEYS = new TreeSet<>(Set.of("include", "exclude", "quick", "prof", "resultsDir",
            "jdk", "skip", "trials", "budget", "seed", "against", "gate", "gateFigure", "claims", "oneCpu"));

    private static final Pattern BUDGET = Pattern.compile("(\\d+)(s|m|h)");

    static final List<String> DEFAULT_PROFILERS = List.of("gc");

    /** JMH flags {@code -Djmh.quick} sets, unless given. */
    static final Map<String, String> QUICK = quick();

    private static final Pattern INT = Pattern.compile("\\d+");
    private static final Pattern JDK_VERSION =
            Pattern.compile("\\d+(\\.\\d+)*|([\\[(][\\d.]*,?[\\d.]*[\\])],?)+");
    /** A profiler's name: one of JMH's short names or a class name. */
    private static final Pattern PROFILER_NAME = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");

    /** A JMH flag the plugin sets itself: what it would set, as JMH parses it, and why it cannot be given. */
    private record Reserved(Predicate<CommandLineOptions> sets, String why) {
    }

    private static final List<Reserved> RESERVED = List.of(
            new Reserved(o -> o.getResultFormat().hasValue(), "results are always JSON"),
            new Reserved(o -> o.getResult().hasValue(),
                    "results always go to results/ (set -Djmh.resultsDir to change the folder)"),
            new Reserved(o -> o.getOutput().hasValue(), "JMH output is streamed to the console"),
            new Reserved(o -> o.shouldFailOnError().hasValue(), "the run always fails on the first benchmark error (-foe true)"),
            new Reserved(o -> o.shouldList() || o.shouldListWithParams(), "use -Djmh.include to select benchmarks"),
            new Reserved(o -> !o.getExcludes().isEmpty(), "use -Djmh.exclude to leave benchmarks out"),
            new Reserved(o -> !o.getProfilers().isEmpty(), "use -Djmh.prof (gc is on by default, +NAME adds to it)"),
            new Reserved(o -> o.shouldListProfilers() || o.shouldListResultFormats(), "not supported through the plugin"),
            new Reserved(CommandLineOptions::shouldHelp, "docs/protocol.md lists the plugin's options"));

    private final String include;
    private final String exclude;
    private final List<String> profilers;
    private final Map<String, String> flags;
    private final Map<String, String> params;
    private final String jdk;
    private String jvm;
    private final boolean quick;
    private final boolean forksGiven;
    private final boolean warmupGiven;
    private final Integer trials;
    private final java.time.Duration budget;
    private final Long seed;
    private String against;
    private boolean gate;
    private boolean gateBest;
    private List<String> claims;
    private Pattern oneCpu;

    private JmhOptions(String include, String exclude, List<String> profilers, Map<String, String> flags,
                       Map<String, String> params, String jdk, boolean quick, boolean forksGiven,
                       boolean warmupGiven, Integer trials, java.time.Duration budget, Long seed) {
        this.include = include;
        this.exclude = exclude;
        this.profilers = profilers;
        this.flags = flags;
        this.params = params;
        this.jdk = jdk;
        this.quick = quick;
        this.forksGiven = forksGiven;
        this.warmupGiven = warmupGiven;
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
        Map<String, String> flags = new LinkedHashMap<>();
        if (quick) {
            flags.putAll(QUICK);
        }
        Map<String, String> params = new TreeMap<>();
        boolean forksGiven = false;
        boolean warmupGiven = quick;
        String jvmFlag = null;
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
            CommandLineOptions one = jmhFlag(key, value);
            forksGiven |= one.getForkCount().hasValue();
            warmupGiven |= one.getWarmupIterations().hasValue() || one.getWarmupTime().hasValue();
            if (one.getJvm().hasValue()) {
                jvmFlag = key;
            }
            flags.put(key, value);
        }
        if (jdk != null && jvmFlag != null) {
            throw new IllegalArgumentException("-Djmh.jdk=" + jdk + " and -Djmh." + jvmFlag + "=" + jmh.get(jvmFlag)
                    + " both choose the JVM the benchmarks run on; give only one");
        }
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
                quick, forksGiven, warmupGiven, trials, budget, seed);
        try {
            o.jvm = new CommandLineOptions(o.arguments("result.json").toArray(new String[0])).getJvm().orElse(null);
        } catch (CommandLineOptionException | RuntimeException e) {
            throw new IllegalArgumentException("JMH rejects the options " + String.join(" ", o.arguments()) + ": " + oneLine(e));
        }
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
        return warmupGiven;
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
        return jvm;
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

    /**
     * The profilers {@code -Djmh.prof} asks for, each as JMH's {@code -prof} takes it
     * ({@code name[:options]}), separated by {@code +}, which JMH's syntax never uses: {@link
     * #DEFAULT_PROFILERS} unless given, added to by a leading {@code +}, replaced by any other
     * list, none for {@code none}; a profiler named twice keeps its last spec.
     */
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

    /**
     * Parses one JMH flag alone ({@code --FLAG=VALUE}, so that JMH's parser cannot read a long
     * name as several one-letter flags), so that a rejection names the property that caused it.
     */
    private static CommandLineOptions jmhFlag(String key, String value) {
        if (key.equals("ignoreLock")) {
            throw new IllegalArgumentException("-Djmh.ignoreLock cannot be set: two JMH runs on one machine measure each other;"
                    + " wait for the other run");
        }
        if (key.equals("p")) {
            throw new IllegalArgumentException("-Djmh.p=" + value + ": give a param as -Djmh.p.NAME=v1,v2");
        }
        CommandLineOptions one;
        try {
            one = new CommandLineOptions(value.isEmpty() ? "--" + key : "--" + key + "=" + value);
        } catch (CommandLineOptionException | RuntimeException e) {
            String reason = oneLine(e);
            if (reason.endsWith(" is not a recognized option")) {
                throw new IllegalArgumentException("-Djmh." + key + "=" + value + " is neither a JMH flag (JMH: " + reason
                        + ") nor one of the plugin's options: " + String.join(", ", PLUGIN_KEYS) + ", p.NAME");
            }
            throw new IllegalArgumentException("-Djmh." + key + "=" + value + ": JMH rejects it: " + reason);
        }
        for (Reserved r : RESERVED) {
            if (r.sets().test(one)) {
                throw new IllegalArgumentException("-Djmh." + key + " cannot be set: " + r.why());
            }
        }
        return one;
    }

    /** JMH's reason, on one line. */
    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return String.join(" ", m.strip().split("\\s*\\R\\s*"));
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
