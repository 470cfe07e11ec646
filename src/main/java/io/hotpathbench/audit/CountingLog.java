package io.hotpathbench.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * The bookkeeping every variant shares, and its two ways of inserting: one row per autocommitted
 * statement (as a {@code JdbcTemplate.update} would), or many rows in one multi-row statement, one
 * transaction. Each insert borrows a connection from the pool for just that statement.
 */
abstract class CountingLog implements AuditLog {

    /** Multi-row statements by row count, built once each. */
    private static final String[] INSERTS = new String[BatchWriterLog.ROWS_PER_TRANSACTION + 1];

    final DataSource pool;
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong committed = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong callerWrites = new AtomicLong();
    final AtomicLong callerWaits = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

    CountingLog(DataSource pool) {
        this.pool = pool;
    }

    /** Inserts one row, autocommitted; the failure propagates. */
    final void insert(AuditRow row) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement s = c.prepareStatement(sql(1))) {
            AuditTable.bind(s, 0, row);
            s.executeUpdate();
        }
        committed.incrementAndGet();
    }

    /** Inserts one row where no request waits for it: a failure is counted as a dropped row, never lost silently. */
    final void insertCounted(AuditRow row) {
        try {
            insert(row);
        } catch (SQLException | RuntimeException e) {
            drop(1, e);
        }
    }

    /** Inserts {@code rows} in one multi-row statement, one transaction; a failure drops them all, counted. */
    final void insertAll(List<AuditRow> rows) {
        int n = rows.size();
        try (Connection c = pool.getConnection(); PreparedStatement s = c.prepareStatement(sql(n))) {
            for (int i = 0; i < n; i++) {
                AuditTable.bind(s, i * AuditTable.COLUMN_COUNT, rows.get(i));
            }
            s.executeUpdate();
            committed.addAndGet(n);
        } catch (SQLException | RuntimeException e) {
            drop(n, e);
        }
    }

    final void drop(int rows, Throwable why) {
        dropped.addAndGet(rows);
        firstFailure.compareAndSet(null, why);
    }

    private static String sql(int rows) {
        String s = INSERTS[rows];
        if (s == null) {
            s = AuditTable.insert(rows);
            INSERTS[rows] = s;
        }
        return s;
    }

    @Override
    public long accepted() {
        return accepted.get();
    }

    @Override
    public long committed() {
        return committed.get();
    }

    @Override
    public long dropped() {
        return dropped.get();
    }

    @Override
    public long callerWrites() {
        return callerWrites.get();
    }

    @Override
    public long callerWaits() {
        return callerWaits.get();
    }

    @Override
    public Throwable firstFailure() {
        return firstFailure.get();
    }
}
