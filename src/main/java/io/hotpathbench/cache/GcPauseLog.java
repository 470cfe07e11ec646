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
 * longest pause is known. Only stop-the-world pauses count, whatever the collector: G1's young,
 * mixed and full collections ("G1 Young Generation", "G1 Old Generation") and, from JDK 20, its
 * Remark and Cleanup pauses ("G1 Concurrent GC", which despite its name reports only those two
 * pauses; JDK 17 reports them nowhere); ZGC's and Shenandoah's pause beans ("ZGC Minor Pauses",
 * "ZGC Major Pauses", "Shenandoah Pauses"). Their "... Cycles" beans time whole concurrent cycles,
 * which are not pauses, and are skipped. Durations are whole milliseconds ({@code GcInfo} subtracts
 * truncated start and end stamps), so a sub-millisecond ZGC pause counts 0 or 1 ms, in proportion
 * to its length on average: sums over many pauses stay unbiased, a single pause does not.
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
            if (gc instanceof NotificationEmitter emitter && countsPauses(gc.getName())) {
                emitter.addNotificationListener(this::onNotification, null, null);
                collectors.add(gc);
            }
        }
        // Collections before the listeners existed were never notified; without this baseline
        // every drain() would wait its full second for them.
        synchronized (this) {
            notified = counted();
        }
    }

    /** Whether the collector bean of this name reports stop-the-world pauses (see the class comment). */
    static boolean countsPauses(String collectorName) {
        return !collectorName.endsWith(" Cycles");
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
