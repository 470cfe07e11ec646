package io.hotpathbench.jmh;

import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs exactly one fork of one configuration through JMH's {@link Runner}: {@code java -cp
 * <benchmarks>:<instrument> io.hotpathbench.jmh.TrialFork SPEC}, where SPEC is the fork spec of
 * {@link ForkContract} (a properties file, so a param value may hold any character; a
 * configuration's own warm-up from its technique file goes over the class's). It returns what JMH
 * measured as JMH's own types give it: the fork's {@link RunResult}, serialized for
 * {@link TrialMerge}; no figure is computed here (the scripts compute them from the merged
 * result). The plugin holds JMH's machine
 * lock for the whole schedule, so this run sets {@code jmh.ignoreLock} itself, as a property of
 * this JVM only: given on the command line, JMH would hand it on to the benchmark fork's JVM options.
 */
public final class TrialFork {

    private TrialFork() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("jmh.ignoreLock", "true");
        Properties spec = ForkContract.load(Path.of(args[0]), "the fork spec " + args[0]);
        List<String> jmhArgs = new ArrayList<>();
        for (int i = 0; spec.containsKey("arg." + i); i++) {
            jmhArgs.add(spec.getProperty("arg." + i));
        }
        ChainedOptionsBuilder options = new OptionsBuilder()
                .parent(new CommandLineOptions(jmhArgs.toArray(new String[0])))
                .include("^" + Pattern.quote(spec.getProperty("benchmark")) + "$")
                .mode(Mode.deepValueOf(spec.getProperty("mode")))
                .forks(1)
                .shouldFailOnError(true);
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
            out.writeInt(ForkContract.VERSION);
            out.writeObject(new ArrayList<>(results));
        }
    }
}
