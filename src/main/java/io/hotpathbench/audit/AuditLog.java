package io.hotpathbench.audit;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a request's audit row goes: {@link #write} is called on the request thread, and what it
 * does before returning is what the variants differ in (insert it, queue it for a pool, queue it
 * for a batching writer). Every row is accounted for: accepted by {@link #write}, then committed
 * or counted as dropped (a failed insert on a thread the request no longer waits for); the rows
 * still pending are the backlog. Rows the request thread wrote itself because a queue was full,
 * and the times it waited for room, are counted too.
 */
public interface AuditLog extends AutoCloseable {

    /** Hands over one row, on the request thread. */
    void write(AuditRow row);

    /** Rows handed to {@link #write}. */
    long accepted();

    /** Rows whose insert has committed. */
    long committed();

    /** Rows lost and counted: their insert failed where no request could see it. */
    long dropped();

    /** Rows the request thread inserted itself because the queue was full. */
    long callerWrites();

    /** Times the request thread waited for room in a full queue. */
    long callerWaits();

    /** Rows accepted but neither committed nor dropped yet: the backlog. */
    default long pending() {
        return accepted() - committed() - dropped();
    }

    /** Waits until the backlog is empty, at most {@code timeoutMillis}; whether it is. */
    default boolean drain(long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (pending() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(100_000);
        }
        return true;
    }

    /**
     * {@code count} rows from {@code rows} held the way this log's queue holds its backlog (null when
     * it keeps none), so that the heap a backlog takes can be measured per row.
     */
    Object backlogOf(Iterator<AuditRow> rows, int count);

    /** The threads this log writes on besides the request threads (its pool's, its writer), as started so far. */
    List<Thread> threads();

    /** The first failure behind a dropped row, or null. */
    Throwable firstFailure();

    /** Stops accepting rows and stops the log's threads once its backlog is written. */
    @Override
    void close();
}
