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
 * waypoints; fifteen constraints) drawn from a seeded pool of 1,024 requests, a quarter of them
 * invalid. The variants differ only in how the checks run: a Hibernate {@code ValidatorFactory}
 * built in every call as the map service did ({@code PER_CALL}), one static Hibernate
 * {@code Validator} ({@code SHARED}), adapters that Avaje's annotation processor generates at
 * compile time from the same annotations ({@code AVAJE_GENERATED}), and plain {@code if} checks
 * ({@code HAND_WRITTEN}, the floor); all report the same violations ({@code ValidatorTest}).
 * Run: {@code mvn jmh:run -Djmh.include=Valid} (add {@code -Djmh.exclude=coldStart} for the
 * steady state alone).
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

    /**
     * What one call costs a long-running service: average time per {@code validate} call, in
     * microseconds, with the validator built before timing ({@link Built}) and requests cycled
     * through the pool.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    // Settings from the pilot (results/pilot/: 20261123T233104Z at these settings, 20261124T000542Z a
    // warm-up curve of 30 x 1 s from a cold start, two trials each): PER_CALL keeps speeding up for
    // about 30 s (JIT of the factory bootstrap: 39 ms per call in the first 3 s, 2.5-3 ms after 12 s,
    // 1.6-1.7 ms after the 30 s of warm-up), so every variant still warms up for 15 two-second
    // iterations; the others are steady after 6 s. A fork costs 42 s. After the warm-up a fork's
    // iterations agree to 1-12%, and forks differ by 2% (SHARED) to 9% (PER_CALL): at least 4 trials
    // (min_trials in scripts/techniques/validation.json; @Fork is JMH's fork count, for -Djmh.f).
    @Fork(4)
    @Warmup(iterations = 15, time = 2)
    @Measurement(iterations = 5, time = 2)
    public List<Violation> validate(Built built) {
        return built.validator.validate(requests[next++ & MASK]);
    }

    /**
     * What the write-up measured (100 validations, 2,772 ms before and 278 ms after), and what a
     * service pays when it validates right after start: each fork is a fresh JVM that times, in
     * one shot, {@code variant.create()} (for {@code SHARED} and {@code AVAJE_GENERATED} this
     * builds the static validator) plus the first 100 {@code validate} calls, and reports
     * milliseconds per call ({@code @OperationsPerInvocation(100)}: multiply by 100 for the
     * write-up's figure). Only a JVM's first shot is cold, so warm-up iterations do nothing (the
     * quick run's {@code -wi 1} cannot warm it) and a second measured iteration in one fork fails
     * the run: raise forks ({@code -Djmh.f}), not {@code -i}, for more samples.
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    // One cold shot per fresh JVM; the ten forks are the samples and give the error bar.
    // Budget: 4 variants x 10 forks x ~0.8 s start, plus the shots (PER_CALL's ~1.1 s, SHARED's ~0.4 s) = ~0.8 min.
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
