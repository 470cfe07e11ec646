package io.hotpathbench.cache;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
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

    private long pauses;
    private long totalMillis;
    private long longestMillis;

    private GcPauseLog() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = gc.getName();
            if (gc instanceof NotificationEmitter emitter && !name.contains("Cycles") && !name.contains("Concurrent")) {
                emitter.addNotificationListener(this::onNotification, null, null);
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
        pauses++;
        totalMillis += millis;
        longestMillis = Math.max(longestMillis, millis);
    }

    /** Returns the pauses seen since the previous call and starts a new window. */
    public synchronized Window drain() {
        Window w = new Window(pauses, totalMillis, longestMillis);
        pauses = 0;
        totalMillis = 0;
        longestMillis = 0;
        return w;
    }
}
