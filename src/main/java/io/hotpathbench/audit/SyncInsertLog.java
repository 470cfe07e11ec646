package io.hotpathbench.audit;

import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import javax.sql.DataSource;

/** The write-up's "before": the request thread inserts its row and waits for the commit. A failure fails the request. */
final class SyncInsertLog extends CountingLog {

    SyncInsertLog(DataSource pool) {
        super(pool);
    }

    @Override
    public void write(AuditRow row) {
        accepted.incrementAndGet();
        try {
            insert(row);
        } catch (SQLException e) {
            drop(1, e);
            throw new IllegalStateException("audit row " + row.requestId() + " not written: " + e.getMessage(), e);
        }
    }

    @Override
    public Object backlogOf(Iterator<AuditRow> rows, int count) {
        return null;
    }

    @Override
    public List<Thread> threads() {
        return List.of();
    }

    @Override
    public void close() {
    }
}
