package io.hotpathbench.jmh;

import java.io.ObjectOutputStream;
import java.io.Reader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs exactly one fork of one configuration through JMH's {@link Runner} and keeps its
 * {@link RunResult} (serialized, for {@link TrialMerge}) and JMH's JSON of that fork (whose score
 * the plugin reads to decide whether a group needs more trials). The configuration comes in a
 * properties file, so a param value may hold any character: {@code arg.N} the run's JMH arguments,
 * {@code benchmark}, {@code mode}, {@code param.NAME}, {@code warmup.iterations} and {@code warmup.time} (a
 * configuration's own warm-up from its technique file, over the class's), {@code out.ser}, {@code out.json}.
 * The plugin holds JMH's machine lock for the whole schedule, so this run sets
 * {@code jmh.ignoreLock} itself, as a property of this JVM only: given on the command line, JMH would
 * hand it on to the benchmark fork's JVM options.
 */
public final class TrialFork {

    private TrialFork() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("jmh.ignoreLock", "true");
        Properties spec = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            spec.load(in);
        }
        List<String> jmhArgs = new ArrayList<>();
        for (int i = 0; spec.containsKey("arg." + i); i++) {
            jmhArgs.add(spec.getProperty("arg." + i));
        }
        ChainedOptionsBuilder options = new OptionsBuilder()
                .parent(new CommandLineOptions(jmhArgs.toArray(new String[0])))
                .include("^" + Pattern.quote(spec.getProperty("benchmark")) + "$")
                .mode(Mode.deepValueOf(spec.getProperty("mode")))
                .forks(1)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(spec.getProperty("out.json"));
        if (spec.containsKey("warmup.iterations")) {
            options.warmupIterations(Integer.parseInt(spec.getProperty("warmup.iterations")))
                    .warmupTime(TimeValue.fromString(spec.getProperty("warmup.time")));
        }
        for (String key : spec.stringPropertyNames()) {
            if (key.startsWith("param.")) {
                options.param(key.substring("param.".length()), spec.getProperty(key));
            }
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        if (results.size() != 1) {
            throw new IllegalStateException("expected one configuration, JMH ran " + results.size());
        }
        try (OutputStream file = Files.newOutputStream(Path.of(spec.getProperty("out.ser")));
             ObjectOutputStream out = new ObjectOutputStream(file)) {
            out.writeObject(new ArrayList<>(results));
        }
    }
}
