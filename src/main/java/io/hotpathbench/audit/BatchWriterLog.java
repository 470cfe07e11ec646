package io.hotpathbench.audit;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * What a team would pick today: the request thread puts its row in a bounded queue and one writer
 * thread takes whatever is there, up to {@link #ROWS_PER_TRANSACTION} rows, and writes them in one
 * multi-row insert, one transaction: under load, many rows share a commit and its WAL sync. When
 * the queue is full the request thread waits for room (counted), so memory stays bounded and
 * nothing is dropped; an idle writer commits a lone row at once, so a quiet service waits no
 * longer than with one insert per row.
 */
final class BatchWriterLog extends CountingLog {

    /** Rows the queue holds: as ASYNC_BOUNDED's queue, Logback's AsyncAppender's default. */
    static final int CAPACITY = AuditLogType.BOUNDED_CAPACITY;
    /** The most rows one transaction writes. */
    static final int ROWS_PER_TRANSACTION = 256;

    private final BlockingQueue<AuditRow> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread writer;
    private volatile boolean closing;

    BatchWriterLog(DataSource pool) {
        super(pool);
        writer = new Thread(this::run, "audit-batch-writer");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public void write(AuditRow row) {
        accepted.incrementAndGet();
        if (closing) {
            drop(1, new IllegalStateException("audit log closed"));
            return;
        }
        if (!queue.offer(row)) {
            callerWaits.incrementAndGet();
            try {
                queue.put(row);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                drop(1, e);
                throw new IllegalStateException("interrupted while waiting to queue audit row " + row.requestId(), e);
            }
        }
    }

    private void run() {
        List<AuditRow> batch = new ArrayList<>(ROWS_PER_TRANSACTION);
        while (true) {
            AuditRow first;
            try {
                first = queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                first = queue.poll();
            }
            if (first == null) {
                if (closing && queue.isEmpty()) {
                    return;
                }
                continue;
            }
            batch.add(first);
            queue.drainTo(batch, ROWS_PER_TRANSACTION - 1);
            insertAll(batch);
            batch.clear();
        }
    }

    @Override
    public Object backlogOf(Iterator<AuditRow> rows, int count) {
        BlockingQueue<AuditRow> held = new ArrayBlockingQueue<>(count);
        for (int i = 0; i < count; i++) {
            held.add(rows.next());
        }
        return held;
    }

    @Override
    public List<Thread> threads() {
        return List.of(writer);
    }

    @Override
    public void close() {
        closing = true;
        try {
            writer.join(TimeUnit.MINUTES.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            throw new IllegalStateException("audit writer still writing " + pending() + " rows after 5 minutes");
        }
    }
}
