package io.hotpathbench.gc;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The JVM flags that are the G1 technique's variants, and the check that a fork really runs with
 * them. The write-up's service ran {@code -Xms24G -Xmx24G -Xmn12G -XX:+UseG1GC -XX:MaxGCPauseMillis=50
 * -XX:G1ReservePercent=10 -XX:InitiatingHeapOccupancyPercent=45} on a 24 GB heap; this machine has
 * 24 GiB for everything, so every size is scaled by {@code 1/}{@link #SCALE}: a 3 GiB heap with the
 * young generation fixed at half of it, as the write-up fixed 12 of its 24. The pause goal and the
 * percentages do not scale. Two of the five flags restate G1's defaults on JDK 17 and 25
 * ({@code G1ReservePercent=10}, {@code InitiatingHeapOccupancyPercent=45}, which adaptive IHOP only
 * seeds), so what the write-up's set changes is the fixed young generation and the pause goal; the
 * pause goal alone is a variant of its own, so that the two can be told apart.
 *
 * <p>The constants are the benchmark methods' {@code @Fork(jvmArgsAppend)} values (annotations take
 * only compile-time constants), so each flag is written once.
 */
public final class G1Flags {

    /** The write-up's heap sizes divided by this. */
    public static final int SCALE = 8;

    public static final String HEAP_MIN = "-Xms3g";
    public static final String HEAP_MAX = "-Xmx3g";
    /** The write-up's {@code -Xmn12G} scaled: half the heap. */
    public static final String YOUNG = "-Xmn1536m";
    public static final String G1 = "-XX:+UseG1GC";
    public static final String PAUSE_GOAL = "-XX:MaxGCPauseMillis=50";
    public static final String RESERVE = "-XX:G1ReservePercent=10";
    public static final String IHOP = "-XX:InitiatingHeapOccupancyPercent=45";

    /**
     * Not the write-up's, and given to every variant alike: the JVM touches the whole heap at start.
     * On the virtual machines this suite runs on, a first touch of memory is slow (the host maps the
     * page then; seconds for this heap); a running service paid that long ago, and without this flag
     * it would fall into whichever variant's measured window first reaches fresh heap regions
     * ({@code -Xmn} reaches 1.5 GB of them at once: quick forks of {@code g1Published} ran many times
     * slower than the others).
     */
    public static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";

    /** The write-up's flags as it published them. */
    public static final List<String> PUBLISHED = List.of("-Xms24G", "-Xmx24G", "-Xmn12G", "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=50", "-XX:G1ReservePercent=10", "-XX:InitiatingHeapOccupancyPercent=45");

    /** The write-up's flags scaled to this machine, in the write-up's order. */
    public static final List<String> WRITE_UP = List.of(HEAP_MIN, HEAP_MAX, YOUNG, G1, PAUSE_GOAL, RESERVE, IHOP);

    /**
     * Options JMH adds to a fork's command line on its own, after the benchmark's (its compiler hints'
     * file, and the compiler blackholes it uses on JDK 17 and later): no variant and no override.
     */
    static final List<String> ADDED_BY_JMH = List.of("-XX:CompileCommandFile=", "-XX:+UnlockDiagnosticVMOptions",
            "-XX:+UnlockExperimentalVMOptions", "-DcompilerBlackholesEnabled=");

    private G1Flags() {
    }

    /** This JVM's options as it was started, less those JMH adds on its own. */
    public static List<String> thisJvm() {
        return withoutJmhOwn(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** {@code options} less those JMH adds to every fork on its own ({@link #ADDED_BY_JMH}). */
    static List<String> withoutJmhOwn(List<String> options) {
        return options.stream().filter(a -> ADDED_BY_JMH.stream().noneMatch(a::startsWith)).toList();
    }

    /**
     * Fails with one line unless {@code actual} is exactly {@code expected}: the flags are the
     * variant, so a fork that runs with other or more options (a {@code -Djmh.jvmArgs},
     * {@code -Djmh.jvmArgsAppend} or {@code -Djmh.jvmArgsPrepend} given to the run) would measure
     * something else under the variant's name.
     */
    public static void require(String variant, List<String> expected, List<String> actual) {
        if (!actual.equals(expected)) {
            throw new IllegalStateException("the G1 benchmark's variants are JVM flags, and this fork of " + variant
                    + " runs with " + String.join(" ", actual) + " instead of its own " + String.join(" ", expected)
                    + ": run it without -Djmh.jvmArgs, -Djmh.jvmArgsAppend and -Djmh.jvmArgsPrepend");
        }
    }
}
