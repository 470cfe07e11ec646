package io.hotpathbench.gc;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;

/**
 * G1's collection counts and young generation size, from this JVM's management beans. G1's
 * "G1 Young Generation" bean counts every young collection, mixed ones included (each is a pause
 * that evacuates the young generation; a mixed one also takes some old regions), which is what a GC
 * log calls "Pause Young"; its "G1 Old Generation" bean counts full collections.
 */
public final class G1Collections {

    private final GarbageCollectorMXBean young;
    private final GarbageCollectorMXBean full;
    private final MemoryPoolMXBean eden;
    private final MemoryPoolMXBean survivor;

    private G1Collections(GarbageCollectorMXBean young, GarbageCollectorMXBean full, MemoryPoolMXBean eden,
                          MemoryPoolMXBean survivor) {
        this.young = young;
        this.full = full;
        this.eden = eden;
        this.survivor = survivor;
    }

    /** This JVM's G1 beans; fails with one line when it runs another collector. */
    public static G1Collections of() {
        GarbageCollectorMXBean young = null;
        GarbageCollectorMXBean full = null;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (b.getName().equals("G1 Young Generation")) {
                young = b;
            } else if (b.getName().equals("G1 Old Generation")) {
                full = b;
            }
        }
        MemoryPoolMXBean eden = null;
        MemoryPoolMXBean survivor = null;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getName().equals("G1 Eden Space")) {
                eden = p;
            } else if (p.getName().equals("G1 Survivor Space")) {
                survivor = p;
            }
        }
        if (young == null || full == null || eden == null || survivor == null) {
            throw new IllegalStateException("this JVM does not run G1 (its collectors: "
                    + ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList() + ")");
        }
        return new G1Collections(young, full, eden, survivor);
    }

    /** Young collections (mixed ones included) since the JVM started. */
    public long young() {
        return young.getCollectionCount();
    }

    /** Full collections since the JVM started. */
    public long full() {
        return full.getCollectionCount();
    }

    /** Eden and survivor space G1 has committed now: the young generation's current size, in bytes. */
    public long youngGenerationBytes() {
        return eden.getUsage().getCommitted() + survivor.getUsage().getCommitted();
    }
}
