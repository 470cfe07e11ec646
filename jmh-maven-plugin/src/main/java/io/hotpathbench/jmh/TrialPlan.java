package io.hotpathbench.jmh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeMap;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Optional;

/**
 * Lists the configurations a JMH command line selects: one per benchmark method, mode and
 * combination of {@code @Param} values, with the fork count and the measured time JMH's own
 * precedence gives it (command line over annotation over JMH's default). Runs on the benchmarks'
 * class path ({@code java -cp <benchmarks>:<instrument> io.hotpathbench.jmh.TrialPlan OUT <jmh
 * args>}) and writes the plan of {@link ForkContract}, a properties file, so values with commas
 * (the {@code ","} delimiter) survive, which JMH's {@code -p} cannot express.
 */
public final class TrialPlan {

    private TrialPlan() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        CommandLineOptions options = new CommandLineOptions(Arrays.copyOfRange(args, 1, args.length));
        List<String> includes = options.getIncludes().isEmpty() ? List.of(".*") : options.getIncludes();
        SortedSet<BenchmarkListEntry> entries = BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT),
                includes, options.getExcludes());
        Properties plan = ForkContract.create();
        int i = 0;
        for (BenchmarkListEntry entry : entries) {
            for (Mode mode : modes(entry, options)) {
                for (Map<String, String> params : combinations(entry, options)) {
                    String at = i + ".";
                    plan.setProperty(at + "benchmark", entry.getUsername());
                    plan.setProperty(at + "class", entry.getUserClassQName());
                    plan.setProperty(at + "mode", mode.shortLabel());
                    plan.setProperty(at + "params", String.join(",", params.keySet()));
                    params.forEach((k, v) -> plan.setProperty(at + "param." + k, v));
                    plan.setProperty(at + "forks", String.valueOf(
                            first(options.getForkCount(), entry.getForks(), Defaults.MEASUREMENT_FORKS)));
                    plan.setProperty(at + "estimateSeconds", Double.toString(estimateSeconds(entry, options, mode)));
                    i++;
                }
            }
        }
        plan.setProperty("count", String.valueOf(i));
        ForkContract.store(plan, out);
    }

    private static List<Mode> modes(BenchmarkListEntry entry, CommandLineOptions options) {
        Collection<Mode> given = options.getBenchModes().isEmpty() ? List.of(entry.getMode()) : options.getBenchModes();
        List<Mode> modes = new ArrayList<>();
        for (Mode m : given) {
            if (m == Mode.All) {
                modes.addAll(List.of(Mode.Throughput, Mode.AverageTime, Mode.SampleTime, Mode.SingleShotTime));
            } else if (!modes.contains(m)) {
                modes.add(m);
            }
        }
        return modes;
    }

    /** Every combination of the entry's param values, the command line's overrides applied. */
    static List<Map<String, String>> combinations(BenchmarkListEntry entry, CommandLineOptions options) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        Map<String, String[]> declared = new TreeMap<>(entry.getParams().orElse(Map.of()));
        for (Map.Entry<String, String[]> p : declared.entrySet()) {
            Collection<String> values = options.getParameter(p.getKey()).orElse(Arrays.asList(p.getValue()));
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : out) {
                for (String v : values) {
                    Map<String, String> m = new LinkedHashMap<>(partial);
                    m.put(p.getKey(), v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    private static double estimateSeconds(BenchmarkListEntry entry, CommandLineOptions options, Mode mode) {
        int wi = first(options.getWarmupIterations(), entry.getWarmupIterations(),
                mode == Mode.SingleShotTime ? Defaults.WARMUP_ITERATIONS_SINGLESHOT : Defaults.WARMUP_ITERATIONS);
        int mi = first(options.getMeasurementIterations(), entry.getMeasurementIterations(),
                mode == Mode.SingleShotTime ? Defaults.MEASUREMENT_ITERATIONS_SINGLESHOT : Defaults.MEASUREMENT_ITERATIONS);
        if (mode == Mode.SingleShotTime) {
            return 3.0;
        }
        TimeValue w = first(options.getWarmupTime(), entry.getWarmupTime(), Defaults.WARMUP_TIME);
        TimeValue r = first(options.getMeasurementTime(), entry.getMeasurementTime(), Defaults.MEASUREMENT_TIME);
        return wi * w.convertTo(java.util.concurrent.TimeUnit.MILLISECONDS) / 1000.0
                + mi * r.convertTo(java.util.concurrent.TimeUnit.MILLISECONDS) / 1000.0 + 3.0;
    }

    private static <T> T first(Optional<T> given, Optional<T> annotated, T fallback) {
        return given.hasValue() ? given.get() : annotated.orElse(fallback);
    }
}
