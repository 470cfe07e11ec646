package io.hotpathbench.gc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Every stop-the-world GC pause of this JVM, from the same JFR events the cache technique's
 * GcPauseLog sums ({@code jdk.GCPhasePause}, one per pause, in nanoseconds), kept one by one so that
 * the pauses of chosen time windows can be ranked afterwards: {@link #open()} and {@link #close()}
 * bracket a window (a measured iteration), {@link #pauses()} stops the recording and returns the
 * durations of the pauses that began inside a window. The recording is written to a temporary file
 * only for that read, and the file is deleted at once. GcPauseLog keeps per-window sums, which its
 * own technique's figures rest on; this adds the distribution without changing it.
 */
public final class PauseRecording implements AutoCloseable {

    static final String EVENT = "jdk.GCPhasePause";

    private final Recording recording = new Recording();
    private final List<Instant[]> windows = new ArrayList<>();
    private Instant openedAt;

    public PauseRecording() {
        recording.enable(EVENT).withThreshold(Duration.ZERO).withoutStackTrace();
        recording.setName("hotpathbench GC pauses");
        recording.start();
    }

    /** Starts a window now. */
    public void open() {
        openedAt = Instant.now();
    }

    /** Ends the window {@link #open()} started. */
    public void closeWindow() {
        if (openedAt == null) {
            throw new IllegalStateException("no window is open");
        }
        windows.add(new Instant[] {openedAt, Instant.now()});
        openedAt = null;
    }

    /** Stops recording; the durations, in nanoseconds, of the pauses that began inside a window. */
    public long[] pauses() throws IOException {
        recording.stop();
        Path file = Files.createTempFile("hotpathbench-gc-pauses-", ".jfr");
        try {
            recording.dump(file);
            List<Long> in = new ArrayList<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (e.getEventType().getName().equals(EVENT) && inWindow(e.getStartTime())) {
                    in.add(e.getDuration().toNanos());
                }
            }
            return in.stream().mapToLong(Long::longValue).toArray();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private boolean inWindow(Instant t) {
        for (Instant[] w : windows) {
            if (!t.isBefore(w[0]) && t.isBefore(w[1])) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        recording.close();
    }
}
