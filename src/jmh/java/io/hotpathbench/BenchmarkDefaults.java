package io.hotpathbench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The one place where the suite's default fork, warm-up and measurement settings live. Every
 * benchmark class extends it (JMH reads these annotations through the class hierarchy) and
 * overrides only what its workload needs, such as a larger heap for ten-million-entry state.
 * Command-line flags ({@code -Djmh.f}, {@code -Djmh.wi}, ...) override both.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class BenchmarkDefaults {
}
