package io.hotpathbench.audit;

import javax.sql.DataSource;

/** The ways of writing a request's audit row that the benchmark compares, the write-up's "before" first. */
public enum AuditLogType {
    /** The request thread inserts its row, autocommitted, and waits for the commit. */
    SYNC_INSERT {
        @Override
        public AuditLog create(DataSource pool) {
            return new SyncInsertLog(pool);
        }
    },
    /**
     * The write-up's {@code @Async} as Spring Boot configures it by default: 8 pool threads, an
     * unbounded queue; each pool thread inserts one row per autocommitted statement.
     */
    ASYNC_EXECUTOR {
        @Override
        public AuditLog create(DataSource pool) {
            return new ExecutorLog(pool, Integer.MAX_VALUE);
        }
    },
    /**
     * The same pool with a bounded queue of {@link #BOUNDED_CAPACITY} rows; when it is full the
     * request thread inserts its row itself ({@code CallerRunsPolicy}), counted.
     */
    ASYNC_BOUNDED {
        @Override
        public AuditLog create(DataSource pool) {
            return new ExecutorLog(pool, BOUNDED_CAPACITY);
        }
    },
    /**
     * One writer thread drains a bounded queue of {@link #BOUNDED_CAPACITY} rows, up to
     * {@value BatchWriterLog#ROWS_PER_TRANSACTION} rows per multi-row insert, one transaction each;
     * when the queue is full the request thread waits for room, counted.
     */
    BATCH_WRITER {
        @Override
        public AuditLog create(DataSource pool) {
            return new BatchWriterLog(pool);
        }
    };

    /** ASYNC_BOUNDED's and BATCH_WRITER's queues: Logback's AsyncAppender's default queue size. */
    public static final int BOUNDED_CAPACITY = 256;

    /** A new log writing through {@code pool}; the caller closes it. */
    public abstract AuditLog create(DataSource pool);
}
