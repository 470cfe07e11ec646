package io.hotpathbench.jmh;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * What the plugin's driver (in Maven) and the instrument (the classes that run on the benchmarks'
 * own class path: {@link TrialPlan}, {@link TrialFork}, {@link TrialMerge}, {@link NoiseProfiler}
 * and this class) say to each other. Each side of a two-commit run runs its own copy of the
 * instrument ({@code Instrument}), so the driver of one commit may talk to the instrument of
 * another: both carry {@link #VERSION}, and any change to what follows is a new version.
 *
 * <ul>
 *   <li>The entry points {@link #PLAN}, {@link #FORK}, {@link #MERGE} and the profiler
 *       {@link #NOISE}, with the arguments their Javadoc names.
 *   <li>The plan {@code TrialPlan} writes: {@code count}, and for configuration {@code i} from 0
 *       {@code i.benchmark}, {@code i.class}, {@code i.mode}, {@code i.forks} (JMH's fork count,
 *       which the driver no longer reads), {@code i.estimateSeconds}, {@code i.params} (the param names in order, comma separated) and
 *       {@code i.param.NAME}.
 *   <li>The fork spec {@code TrialFork} reads: {@code arg.N} (the run's JMH arguments),
 *       {@code benchmark}, {@code mode}, {@code param.NAME}, optionally {@code warmup.iterations}
 *       and {@code warmup.time}, and where to write: {@code out.ser}.
 *   <li>The fork's result: {@code out.ser} holds {@link #VERSION} as an int, then JMH's
 *       {@code RunResult} list, Java-serialized, for {@code TrialMerge}. The fork computes no
 *       figure; the scripts compute them from the merged result.
 * </ul>
 * The plan and the spec are {@link Properties} files in UTF-8 whose {@value #KEY} entry is the
 * version that wrote them; a reader refuses any other.
 */
public final class ForkContract {

    /**
     * This copy's version of the contract. The driver reads it from the other commit's source,
     * so it stays a literal.
     */
    public static final int VERSION = 1;

    /** The entry in every contract file that holds its version. */
    static final String KEY = "contract";

    static final String PLAN = "io.hotpathbench.jmh.TrialPlan";
    static final String FORK = "io.hotpathbench.jmh.TrialFork";
    static final String MERGE = "io.hotpathbench.jmh.TrialMerge";
    static final String NOISE = "io.hotpathbench.jmh.NoiseProfiler";

    /** The sources the instrument is compiled from, under {@code io/hotpathbench/jmh/}; javac finds what they use. */
    static final List<String> SOURCES = List.of("ForkContract.java", "TrialPlan.java", "TrialFork.java",
            "TrialMerge.java", "NoiseProfiler.java");

    private ForkContract() {
    }

    /** An empty contract file of this version. */
    static Properties create() {
        Properties p = new Properties();
        p.setProperty(KEY, String.valueOf(VERSION));
        return p;
    }

    static void store(Properties p, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, null);
        }
    }

    /**
     * Reads a contract file, {@code what} naming it in the error.
     *
     * @throws IllegalStateException if another version (or none) wrote it
     */
    static Properties load(Path file, String what) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        check(p.getProperty(KEY), what);
        return p;
    }

    /** Refuses a version other than this copy's. */
    static void check(Object version, String what) {
        if (!String.valueOf(VERSION).equals(String.valueOf(version))) {
            throw new IllegalStateException(what + " speaks fork contract "
                    + (version == null ? "none" : "v" + version) + ", this instrument v" + VERSION);
        }
    }
}
