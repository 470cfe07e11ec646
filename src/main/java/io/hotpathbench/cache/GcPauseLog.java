package io.hotpathbench.cache;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Records every stop-the-world collection of this JVM from the platform's GC notifications, which
 * (unlike {@link GarbageCollectorMXBean}'s count and total) carry each pause's duration, so the
 * longest pause is known. Durations have the millisecond resolution of {@code GcInfo}. Collectors
 * that run concurrently ("Cycles", "Concurrent" in the name) are not pauses and are skipped.
 */
public final class GcPauseLog {

    /** Pauses since the last {@link #drain()}. */
    public record Window(long pauses, long totalMillis, long longestMillis) {
    }

    private static final GcPauseLog INSTANCE = new GcPauseLog();

    /** How long {@link #drain()} waits for notifications that the collectors have counted but not yet sent. */
    private static final long CATCH_UP_NANOS = 1_000_000_000L;

    private final List<GarbageCollectorMXBean> collectors = new ArrayList<>();
    private long notified;
    private long pauses;
    private long totalMillis;
    private long longestMillis;

    private GcPauseLog() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = gc.getName();
            if (gc instanceof NotificationEmitter emitter && !name.contains("Cycles") && !name.contains("Concurrent")) {
                emitter.addNotificationListener(this::onNotification, null, null);
                collectors.add(gc);
            }
        }
    }

    /** The JVM-wide log; listening starts on first use. */
    public static GcPauseLog get() {
        return INSTANCE;
    }

    private void onNotification(Notification n, Object handback) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            record(info.getGcInfo().getDuration());
        }
    }

    private synchronized void record(long millis) {
        notified++;
        pauses++;
        totalMillis += millis;
        longestMillis = Math.max(longestMillis, millis);
    }

    /**
     * Returns the pauses seen since the previous call and starts a new window. Notifications arrive
     * on another thread after the pause, so it first waits (up to a second) until every collection
     * the collectors have counted has been notified; otherwise a pause at the end of an iteration
     * would be missed or charged to the next one.
     */
    public synchronized Window drain() {
        long deadline = System.nanoTime() + CATCH_UP_NANOS;
        while (notified < counted() && System.nanoTime() < deadline) {
            try {
                wait(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Window w = new Window(pauses, totalMillis, longestMillis);
        pauses = 0;
        totalMillis = 0;
        longestMillis = 0;
        return w;
    }

    private long counted() {
        long n = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            n += gc.getCollectionCount();
        }
        return n;
    }
}
