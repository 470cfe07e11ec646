package io.hotpathbench.cache;

import java.time.Duration;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Records every stop-the-world GC pause of this JVM with its duration in nanoseconds, from JFR's
 * {@code jdk.GCPhasePause} events, one per pause whatever the collector: G1's young, mixed, full,
 * Remark and Cleanup pauses; ZGC's mark-start, mark-end and relocate-start pauses of its minor and
 * major collections. Concurrent work is no pause and has no such event. (The GC MXBeans' notifications
 * used before carry whole milliseconds, so ZGC's pauses of some tens of microseconds read 0 ms, and on
 * JDK 17 they do not report G1's Remark and Cleanup at all.) Pauses fall into windows separated by
 * boundary events that {@link #mark} and {@link #drain} commit into the same ordered stream, so a
 * window holds exactly the pauses that ended between its two boundaries. JFR delivers events about
 * once a second, so {@link #drain} waits up to a second for its boundary to come back.
 */
public final class GcPauseLog {

    /** Pauses of one window, durations in nanoseconds. */
    public record Window(long pauses, long totalNanos, long longestNanos) {
    }

    /** Closes the current window and opens the next. */
    @Name("io.hotpathbench.cache.PauseWindowBoundary")
    @Label("GC pause window boundary")
    @StackTrace(false)
    static final class Boundary extends Event {
        @Label("Boundary id")
        long id;
    }

    private static final GcPauseLog INSTANCE = new GcPauseLog();

    /** How long {@link #drain} waits for JFR to deliver its boundary before it gives up. */
    private static final long DELIVERY_TIMEOUT_NANOS = 10_000_000_000L;

    private final RecordingStream stream = new RecordingStream();
    private long committed;
    private long delivered;
    private long pauses;
    private long totalNanos;
    private long longestNanos;
    private Window closed = new Window(0, 0, 0);

    private GcPauseLog() {
        stream.enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
        stream.enable(Boundary.class);
        stream.onEvent("jdk.GCPhasePause", this::onPause);
        stream.onEvent("io.hotpathbench.cache.PauseWindowBoundary", this::onBoundary);
        // startAsync() would run the stream on a non-daemon thread, which keeps a benchmark's
        // forked JVM alive after its run until JMH gives up waiting (30 s per trial).
        Thread reader = new Thread(stream::start, "GcPauseLog JFR stream");
        reader.setDaemon(true);
        reader.start();
        awaitFirstBoundary();
    }

    /** The stream records once its thread has started it; boundaries committed before are lost. */
    private synchronized void awaitFirstBoundary() {
        long deadline = System.nanoTime() + DELIVERY_TIMEOUT_NANOS;
        while (delivered == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("JFR delivered no GC pause window boundary within 10 s");
            }
            commitBoundary();
            waitUninterrupted(100);
        }
    }

    /** The JVM-wide log; recording starts on first use. */
    public static GcPauseLog get() {
        return INSTANCE;
    }

    private synchronized void onPause(RecordedEvent event) {
        long nanos = event.getDuration().toNanos();
        pauses++;
        totalNanos += nanos;
        longestNanos = Math.max(longestNanos, nanos);
    }

    private synchronized void onBoundary(RecordedEvent event) {
        closed = new Window(pauses, totalNanos, longestNanos);
        pauses = 0;
        totalNanos = 0;
        longestNanos = 0;
        delivered = event.getLong("id");
        notifyAll();
    }

    /** Starts a new window now, without waiting: pauses that ended before this call are not in it. */
    public void mark() {
        commitBoundary();
    }

    /**
     * Ends the window that the previous {@link #mark} or {@link #drain} started and returns its
     * pauses, once JFR has delivered every pause that ended before this call; the next window starts
     * now. Fails if JFR delivers nothing for ten seconds rather than return a partial window.
     */
    public synchronized Window drain() {
        long id = commitBoundary();
        long deadline = System.nanoTime() + DELIVERY_TIMEOUT_NANOS;
        while (delivered < id) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("JFR delivered no GC pause window boundary within 10 s");
            }
            waitUninterrupted(Math.max(1, left / 1_000_000));
        }
        return closed;
    }

    private void waitUninterrupted(long millis) {
        try {
            wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for JFR", e);
        }
    }

    private synchronized long commitBoundary() {
        Boundary boundary = new Boundary();
        boundary.id = ++committed;
        boundary.commit();
        return boundary.id;
    }
}
