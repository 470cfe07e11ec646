package io.hotpathbench.writes;

import io.hotpathbench.postgres.LocalPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * How an upload's points go into PostgreSQL over pgjdbc, into the table {@link #TABLE} (timeline,
 * timestamp and value, the first two its primary key, as the RocksDB key is): one {@code INSERT} per
 * point with autocommit, a transaction and a commit each ({@code INSERT_EACH}, the baseline); one
 * {@code executeBatch} of the upload's inserts in one transaction, which pgjdbc sends as one pipelined
 * series of statements ({@code EXECUTE_BATCH}); the same with {@code reWriteBatchedInserts=true}, with
 * which pgjdbc rewrites the batch into multi-row {@code INSERT ... VALUES (...), (...)} statements
 * ({@code EXECUTE_BATCH_REWRITE}). Each writer has its own connection and one prepared statement,
 * reused for every upload.
 */
public enum PgWrite {
    INSERT_EACH(false),
    EXECUTE_BATCH(false),
    EXECUTE_BATCH_REWRITE(true);

    public static final String TABLE = "points";
    static final String INSERT = "INSERT INTO " + TABLE + " (timeline, ts, value) VALUES (?, ?, ?)";

    private final boolean rewrite;

    PgWrite(boolean rewrite) {
        this.rewrite = rewrite;
    }

    /**
     * A writer on a new connection to {@code server}, with {@code synchronous_commit} set for its
     * session ({@code on}: a commit returns once its WAL is flushed to disk; {@code off}: at once, the
     * WAL writer flushing it within a fraction of a second, so a crash may lose the last commits).
     */
    public Writer open(LocalPostgres server, String synchronousCommit) throws SQLException {
        if (!synchronousCommit.equals("on") && !synchronousCommit.equals("off")) {
            throw new IllegalArgumentException("synchronous_commit on or off, not " + synchronousCommit);
        }
        Connection connection = DriverManager.getConnection(server.jdbcUrl() + (rewrite ? "&reWriteBatchedInserts=true" : ""));
        try {
            try (Statement s = connection.createStatement()) {
                s.execute("SET synchronous_commit TO " + synchronousCommit);
            }
            connection.setAutoCommit(this == INSERT_EACH);
            return new Writer(connection, this != INSERT_EACH);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** An upload's points written one statement each, or as one batch in one transaction. */
    public static final class Writer implements PointWriter {
        private final Connection connection;
        private final PreparedStatement insert;
        private final boolean batched;

        Writer(Connection connection, boolean batched) throws SQLException {
            this.connection = connection;
            this.insert = connection.prepareStatement(INSERT);
            this.batched = batched;
        }

        /** The writer's connection. */
        public Connection connection() {
            return connection;
        }

        /**
         * Makes the server count this session's work so far (commits, WAL syncs) now: a backend
         * publishes its statistics when it goes idle, never inside an open transaction, so the batched
         * writers' connection runs the request in autocommit mode, outside any upload's transaction.
         */
        public void publishStatistics(LocalPostgres server) throws SQLException {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try {
                server.flushStatistics(connection);
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        }

        @Override
        public int write(Uploads uploads, long n) throws SQLException {
            int points = uploads.pointsPerRequest();
            for (int j = 0; j < points; j++) {
                insert.setLong(1, uploads.timeline(n, j));
                insert.setLong(2, uploads.timestamp(n, j));
                insert.setDouble(3, uploads.value(n, j));
                if (batched) {
                    insert.addBatch();
                } else {
                    insert.executeUpdate();
                }
            }
            if (batched) {
                insert.executeBatch();
                connection.commit();
            }
            return points;
        }

        @Override
        public void close() {
            try {
                insert.close();
                connection.close();
            } catch (SQLException e) {
                throw new IllegalStateException("closing the writer's connection: " + e.getMessage(), e);
            }
        }
    }

    /** Drops and creates the points table: its primary key is the timeline and the timestamp, as RocksDB's key is. */
    public static void createTable(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
            s.execute("CREATE TABLE " + TABLE + " (timeline bigint NOT NULL, ts bigint NOT NULL, "
                    + "value double precision NOT NULL, PRIMARY KEY (timeline, ts))");
        }
    }

    /** Every row in key order, encoded as RocksDB's keys and values ({@link Uploads#key}, {@link Uploads#value}), for tests. */
    public static List<byte[][]> contents(Connection connection) throws SQLException {
        List<byte[][]> out = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT timeline, ts, value FROM " + TABLE + " ORDER BY timeline, ts")) {
            while (r.next()) {
                byte[] key = new byte[Uploads.KEY_BYTES];
                byte[] value = new byte[Uploads.VALUE_BYTES];
                Uploads.putLong(key, 0, r.getLong(1));
                Uploads.putLong(key, 8, r.getLong(2));
                Uploads.putLong(value, 0, Double.doubleToRawLongBits(r.getDouble(3)));
                out.add(new byte[][] {key, value});
            }
        }
        return out;
    }
}
