package io.hotpathbench.jmh;

import java.io.InputStream;
import java.io.ObjectInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.WorkloadParams;

/**
 * Merges the forks of a trial schedule into one JMH JSON: the forks of each configuration (and
 * side, in a two-commit run) become one {@link RunResult} whose {@link BenchmarkResult}s are the
 * forks in the order they ran, so {@code rawData[k]} is the configuration's k-th fork and JMH's
 * own aggregation and JSON writer produce the rest. {@code forks} says how many forks were merged.
 * Arguments: {@code OUT.json LIST} where each line of LIST is {@code SIDE<TAB>FORK.ser}
 * ({@code -} for no side), each file the serialized result of {@link ForkContract}. In a two-commit
 * run both sides' forks are merged by the driver's own copy, so each side's file must speak its
 * version.
 */
public final class TrialMerge {

    /** The param that tells the two sides of a two-commit run apart. */
    static final String SIDE = "side";

    private TrialMerge() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, List<BenchmarkResult>> forks = new LinkedHashMap<>();
        Map<String, BenchmarkParams> params = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", 2);
            String side = f[0].equals("-") ? null : f[0];
            for (RunResult r : read(Path.of(f[1]))) {
                BenchmarkParams p = r.getParams();
                String key = p.id() + "|" + side;
                params.putIfAbsent(key, withSide(p, side, 0));
                forks.computeIfAbsent(key, k -> new ArrayList<>()).addAll(r.getBenchmarkResults());
            }
        }
        List<RunResult> merged = new ArrayList<>();
        forks.forEach((key, list) -> merged.add(new RunResult(withForks(params.get(key), list.size()), list)));
        merged.sort(RunResult.DEFAULT_SORT_COMPARATOR);
        ResultFormatFactory.getInstance(ResultFormatType.JSON, args[0]).writeOut(merged);
    }

    @SuppressWarnings("unchecked")
    private static Collection<RunResult> read(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file); ObjectInputStream objects = new ObjectInputStream(in)) {
            ForkContract.check(objects.readInt(), "the fork result " + file.getFileName());
            return (Collection<RunResult>) objects.readObject();
        }
    }

    private static BenchmarkParams withSide(BenchmarkParams p, String side, int forks) {
        WorkloadParams workload = new WorkloadParams();
        int order = 0;
        for (String k : p.getParamsKeys()) {
            workload.put(k, p.getParam(k), order++);
        }
        if (side != null) {
            workload.put(SIDE, side, order);
        }
        return copy(p, workload, forks == 0 ? p.getForks() : forks);
    }

    private static BenchmarkParams withForks(BenchmarkParams p, int forks) {
        WorkloadParams workload = new WorkloadParams();
        int order = 0;
        for (String k : p.getParamsKeys()) {
            workload.put(k, p.getParam(k), order++);
        }
        return copy(p, workload, forks);
    }

    @SuppressWarnings("unchecked")
    private static BenchmarkParams copy(BenchmarkParams p, WorkloadParams workload, int forks) {
        return new BenchmarkParams(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(),
                p.getThreads(), p.getThreadGroups(), (Collection<String>) p.getThreadGroupLabels(), forks,
                p.getWarmupForks(), p.getWarmup(), p.getMeasurement(), p.getMode(), workload, p.getTimeUnit(),
                p.getOpsPerInvocation(), p.getJvm(), (Collection<String>) p.getJvmArgs(), p.getJdkVersion(),
                p.getVmName(), p.getVmVersion(), p.getJmhVersion(), p.getTimeout());
    }
}
