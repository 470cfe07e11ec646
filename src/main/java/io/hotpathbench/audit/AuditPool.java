package io.hotpathbench.audit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * The HikariCP pool every variant writes through. Fixed at {@link #SIZE} connections, opened before
 * it is returned (HikariCP's advice for a fixed pool: minimum idle = maximum), so no connection is
 * opened during a measurement: enough for the 8 pool threads of the executor variants, a request
 * thread writing beside them when their queue is full, and a second request thread. Each
 * connection sets {@code synchronous_commit} when it opens, so every write of a run commits alike.
 */
public final class AuditPool {

    /** Connections in the pool. */
    public static final int SIZE = 12;

    private AuditPool() {
    }

    /** A pool on {@code jdbcUrl} whose connections commit with {@code synchronous_commit} set to {@code synchronousCommit}. */
    public static HikariDataSource open(String jdbcUrl, String synchronousCommit) {
        if (!synchronousCommit.matches("on|off|local|remote_write|remote_apply")) {
            throw new IllegalArgumentException("not a synchronous_commit value: " + synchronousCommit);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("audit");
        config.setMaximumPoolSize(SIZE);
        config.setMinimumIdle(SIZE);
        config.setAutoCommit(true);
        config.setConnectionInitSql("SET synchronous_commit = " + synchronousCommit);
        HikariDataSource pool = new HikariDataSource(config);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (pool.getHikariPoolMXBean().getTotalConnections() < SIZE) {
            if (System.nanoTime() > deadline) {
                pool.close();
                throw new IllegalStateException("the pool opened " + pool.getHikariPoolMXBean().getTotalConnections() + " of " + SIZE + " connections in 30 s");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                pool.close();
                throw new IllegalStateException("interrupted while opening the pool");
            }
        }
        return pool;
    }
}
