package io.hotpathbench.validation;

import io.hotpathbench.BenchmarkDefaults;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Validating a {@link PickupRequest} (coordinates, city code, user id, a {@code @Valid} list of
 * waypoints; fifteen constraints) from a seeded pool of 1,024 requests, a quarter of them invalid,
 * with a {@code ValidatorFactory} built in every call as the map service did ({@code PER_CALL}),
 * with one static {@code Validator} ({@code SHARED}), and with plain {@code if} checks that report
 * the same violations ({@code HAND_WRITTEN}, the floor). {@code validate} answers "what does one
 * call cost a long-running service": average time per call in microseconds after 15 two-second
 * warm-up iterations (the per-call variant was still settling after 10 on a 2-core machine). {@code coldStart} answers
 * "what did the write-up measure" (100 validations, 2,772 ms before and 278 ms after) and what a
 * service pays when it builds the factory per request right after start: each fork is a fresh JVM
 * that times, in one shot, {@code variant.create()} (for {@code SHARED} this builds the static
 * factory) plus the first 100 {@code validate} calls, and reports milliseconds per call
 * ({@code @OperationsPerInvocation(100)}, so multiply by 100 for the write-up's figure); ten forks
 * give the error bar. Only the JVM's first shot is cold, so warm-up iterations of
 * {@code coldStart} do nothing (the quick run's {@code -wi 1} cannot warm it) and it must run with
 * one measurement iteration per fork (its default; raise forks, not {@code -i}, for more samples).
 * Run: {@code mvn jmh:run -Djmh.include=Valid}.
 */
@State(Scope.Thread)
public class ValidatorBenchmark extends BenchmarkDefaults {

    private static final int POOL_SIZE = 1024;
    private static final int MASK = POOL_SIZE - 1;
    static final int COLD_CALLS = 100;

    @Param
    ValidatorKind variant;

    @Param("42")
    long seed;

    @Param("25")
    int invalidPercent;

    PickupRequest[] requests;
    int next;
    boolean warmupIteration;
    int measuredIterations;

    @Setup(Level.Trial)
    public void generate() {
        requests = RequestPool.generate(seed, POOL_SIZE, invalidPercent);
    }

    @Setup(Level.Iteration)
    public void iteration(BenchmarkParams benchmark, IterationParams params) {
        warmupIteration = params.getType() == IterationType.WARMUP;
        // A second measured shot in the same JVM is warm: refuse it rather than report it as cold.
        if (!warmupIteration && ++measuredIterations > 1 && benchmark.getBenchmark().endsWith(".coldStart")) {
            throw new IllegalStateException("coldStart measures one cold shot per fork: add forks (-Djmh.f), "
                    + "not measurement iterations (-Djmh.i); exclude it with -Djmh.exclude=coldStart");
        }
    }

    /** The validator for {@code validate}, built before timing; {@code coldStart} builds its own inside the shot. */
    @State(Scope.Thread)
    public static class Built {
        RequestValidator validator;

        @Setup(Level.Trial)
        public void build(ValidatorBenchmark benchmark) {
            validator = benchmark.variant.create();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    // PER_CALL keeps speeding up for 10 or more two-second iterations (JIT of the factory bootstrap).
    @Warmup(iterations = 15, time = 2)
    @Measurement(iterations = 5, time = 2)
    public List<Violation> validate(Built built) {
        return built.validator.validate(requests[next++ & MASK]);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    // One cold shot per fresh JVM; the forks are the samples.
    @Fork(10)
    @Warmup(iterations = 0)
    @Measurement(iterations = 1, batchSize = 1)
    @OperationsPerInvocation(COLD_CALLS)
    public int coldStart() {
        if (warmupIteration) {
            return 0;
        }
        RequestValidator validator = variant.create();
        int violations = 0;
        for (int k = 0; k < COLD_CALLS; k++) {
            violations += validator.validate(requests[k & MASK]).size();
        }
        return violations;
    }
}
