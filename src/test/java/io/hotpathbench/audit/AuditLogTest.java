package io.hotpathbench.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotpathbench.ParamValues;
import io.hotpathbench.postgres.LocalPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every variant against one real PostgreSQL started for the class (a server that cannot start
 * fails the class in CI, where CI=true, and skips it elsewhere with the reason), through the
 * benchmark's own state and methods. Nothing here times anything: where a test needs a backlog, it
 * holds the table locked.
 */
class AuditLogTest {

    /** The benchmark's synchronous_commit values, read from its @Param. */
    private static final List<String> SYNCHRONOUS_COMMIT = ParamValues.of(AuditLogBenchmark.Service.class, "synchronousCommit");
    private static final long[] SEEDS = ParamValues.longs(AuditLogBenchmark.Service.class, "seed");

    private static final AuditLogBenchmark BENCHMARK = new AuditLogBenchmark();
    private static LocalPostgres server;

    @BeforeAll
    static void startServer() {
        try {
            server = LocalPostgres.start();
        } catch (LocalPostgres.Unavailable e) {
            if ("true".equals(System.getenv("CI"))) {
                fail(e.getMessage());
            }
            Assumptions.abort(e.getMessage());
        }
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
            assertTrue(server.serverProcess().isEmpty(), "postgres still runs after close()");
        }
    }

    /**
     * Through the benchmark's methods, saturated and paced, every variant leaves in the table exactly
     * the rows the request path builds (what SYNC_INSERT writes, one by one), at every
     * synchronous_commit value: same ids, same columns; the row-count check holds.
     */
    @ParameterizedTest
    @EnumSource(AuditLogType.class)
    void everyVariantWritesTheRowsSyncInsertWrites(AuditLogType variant) throws Exception {
        for (String synchronousCommit : SYNCHRONOUS_COMMIT) {
            AuditLogBenchmark.Service bench = open(variant, synchronousCommit, SEEDS[0]);
            long before = System.currentTimeMillis();
            try {
                bench.begin(true, false);
                for (int i = 0; i < AuditLogBenchmark.BURST; i++) {
                    BENCHMARK.saturated(bench, null);
                }
                bench.endIteration();
                bench.begin(true, true);
                for (int i = 0; i < 40; i++) {
                    BENCHMARK.paced(bench, null);
                }
                bench.endIteration();
                bench.check();
                int made = (int) bench.made.get();
                assertEquals(AuditLogBenchmark.BURST + 40, made);
                List<String> rows = tableRows(bench);
                long after = System.currentTimeMillis();
                assertEquals(made, rows.size(), variant + " " + synchronousCommit);
                SendMessageHandler reference = new SendMessageHandler(bench.keywords, null);
                for (int id = 0; id < made; id++) {
                    AuditRow expected = reference.audit(id, bench.requests[id & (AuditLogBenchmark.REQUESTS - 1)], 0);
                    String[] row = rows.get(id).split("\t", -1);
                    assertEquals(describe(expected), rows.get(id).substring(0, rows.get(id).lastIndexOf('\t')),
                            variant + " " + synchronousCommit + " row " + id);
                    long loggedAt = Long.parseLong(row[row.length - 1]);
                    assertTrue(loggedAt >= before - 1 && loggedAt <= after + 1, "logged_at " + loggedAt);
                }
            } finally {
                bench.close();
            }
        }
    }

    /** The trial's check fails the fork when a row is missing or one too many, whatever the counters say. */
    @Test
    void theRowCountCheckFailsOnAMissingOrAnExtraRow() throws Exception {
        AuditLogBenchmark.Service bench = open(AuditLogType.ASYNC_EXECUTOR, "on", SEEDS[0]);
        try {
            for (int i = 0; i < 200; i++) {
                BENCHMARK.saturated(bench, null);
            }
            bench.check();
            execute(bench, "DELETE FROM " + AuditTable.NAME + " WHERE request_id = 17");
            IllegalStateException missing = assertThrows(IllegalStateException.class, bench::check);
            assertTrue(missing.getMessage().contains("holds 199 rows, but 200 requests were made and 0 rows counted as dropped"),
                    missing.getMessage());
            execute(bench, "INSERT INTO " + AuditTable.NAME + " SELECT request_id + 1000, app_id, template_id, phone, verdict, keyword, content, logged_at"
                    + " FROM " + AuditTable.NAME + " WHERE request_id < 2");
            IllegalStateException extra = assertThrows(IllegalStateException.class, bench::check);
            assertTrue(extra.getMessage().contains("-1 rows unaccounted for"), extra.getMessage());
        } finally {
            bench.close();
        }
    }

    /** A failed insert on a pool thread is counted as dropped, not lost: the check holds with it subtracted. */
    @Test
    void aFailedInsertOffTheRequestThreadIsCountedAsDropped() throws Exception {
        AuditLogBenchmark.Service bench = open(AuditLogType.ASYNC_EXECUTOR, "off", SEEDS[0]);
        try {
            execute(bench, "ALTER TABLE " + AuditTable.NAME + " ADD CONSTRAINT not_42 CHECK (request_id <> 42)");
            for (int i = 0; i < 100; i++) {
                BENCHMARK.saturated(bench, null);
            }
            bench.check();
            assertEquals(1, bench.log.dropped());
            assertTrue(bench.log.firstFailure().getMessage().contains("not_42"), bench.log.firstFailure().getMessage());
            assertEquals(99, AuditTable.count(bench.pool));
        } finally {
            bench.close();
        }
    }

    /**
     * With the table locked, rows pile up in the queue and no drain ends; once it is released the
     * drain empties the backlog and every row is in the table. The iteration's figures count the
     * backlog and its heap.
     */
    @ParameterizedTest
    @EnumSource(value = AuditLogType.class, names = {"ASYNC_EXECUTOR", "ASYNC_BOUNDED", "BATCH_WRITER"})
    void aBacklogHeldUpByALockDrainsOnceItIsReleased(AuditLogType variant) throws Exception {
        AuditLogBenchmark.Service bench = open(variant, "on", SEEDS[0]);
        try (Connection locker = server.connect()) {
            locker.setAutoCommit(false);
            execute(locker, "LOCK TABLE " + AuditTable.NAME + " IN ACCESS EXCLUSIVE MODE");
            int requests = 200;
            bench.begin(true, false);
            for (int i = 0; i < requests; i++) {
                BENCHMARK.saturated(bench, null);
            }
            assertEquals(requests, bench.log.pending(), "every row waits behind the lock");
            assertFalse(bench.log.drain(100));
            CompletableFuture<Void> release = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(300);
                    locker.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            bench.endIteration();
            release.get(30, TimeUnit.SECONDS);
            assertEquals(0, bench.log.pending());
            assertEquals(requests, bench.figures.backlogRows);
            assertTrue(bench.figures.drainMs >= 100, bench.figures.drainMs + " ms");
            assertTrue(bench.figures.backlogBytes >= requests * 100.0, bench.figures.backlogBytes + " bytes");
            bench.check();
            assertEquals(requests, AuditTable.count(bench.pool));
        } finally {
            bench.close();
        }
    }

    /**
     * A full queue: ASYNC_BOUNDED's caller writes the row itself and BATCH_WRITER's caller waits,
     * both counted; the unbounded pool never does either, and SYNC_INSERT has no queue.
     */
    @ParameterizedTest
    @EnumSource(AuditLogType.class)
    void aFullQueueMakesTheCallerWriteOrWaitCounted(AuditLogType variant) throws Exception {
        AuditLogBenchmark.Service bench = open(variant, "off", SEEDS[0]);
        try (Connection locker = server.connect()) {
            locker.setAutoCommit(false);
            execute(locker, "LOCK TABLE " + AuditTable.NAME + " IN ACCESS EXCLUSIVE MODE");
            CompletableFuture<Void> release = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(500);
                    locker.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            int requests = AuditLogBenchmark.BURST;
            for (int i = 0; i < requests; i++) {
                BENCHMARK.saturated(bench, null);
            }
            release.get(30, TimeUnit.SECONDS);
            bench.check();
            long writes = bench.log.callerWrites();
            long waits = bench.log.callerWaits();
            switch (variant) {
                case SYNC_INSERT, ASYNC_EXECUTOR -> {
                    assertEquals(0, writes);
                    assertEquals(0, waits);
                }
                case ASYNC_BOUNDED -> {
                    assertTrue(writes >= 1, writes + " caller writes");
                    assertEquals(0, waits);
                }
                case BATCH_WRITER -> {
                    assertEquals(0, writes);
                    assertTrue(waits >= 1, waits + " caller waits");
                }
            }
            assertEquals(requests, AuditTable.count(bench.pool));
        } finally {
            bench.close();
        }
    }

    /**
     * Rows per transaction, from the rows' xmin: one for each single-row variant; for the batch
     * writer, several rows share a commit (it drained a backlog) and none more than its limit.
     */
    @ParameterizedTest
    @EnumSource(AuditLogType.class)
    void rowsPerTransaction(AuditLogType variant) throws Exception {
        AuditLogBenchmark.Service bench = open(variant, "off", SEEDS[0]);
        try (Connection locker = server.connect()) {
            locker.setAutoCommit(false);
            execute(locker, "LOCK TABLE " + AuditTable.NAME + " IN ACCESS EXCLUSIVE MODE");
            int requests = variant == AuditLogType.SYNC_INSERT ? 50 : 600;
            CompletableFuture<Void> release = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(300);
                    locker.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            if (variant == AuditLogType.SYNC_INSERT) {
                release.get(30, TimeUnit.SECONDS);
            }
            for (int i = 0; i < requests; i++) {
                BENCHMARK.saturated(bench, null);
            }
            release.get(30, TimeUnit.SECONDS);
            bench.check();
            long transactions;
            long largest;
            try (Connection c = bench.pool.getConnection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT count(*), max(n) FROM (SELECT xmin, count(*) AS n FROM "
                         + AuditTable.NAME + " GROUP BY xmin) t")) {
                r.next();
                transactions = r.getLong(1);
                largest = r.getLong(2);
            }
            if (variant == AuditLogType.BATCH_WRITER) {
                assertTrue(largest > 1 && largest <= BatchWriterLog.ROWS_PER_TRANSACTION, largest + " rows in the largest transaction");
                assertTrue(transactions < requests, transactions + " transactions for " + requests + " rows");
            } else {
                assertEquals(1, largest);
                assertEquals(requests, transactions);
            }
        } finally {
            bench.close();
        }
    }

    /**
     * An iteration's figures: committed rows per second, CPU of both sides per request, and WAL
     * syncs per request, one per commit for SYNC_INSERT under synchronous commit, none of the
     * backends' own without it.
     */
    @Test
    void theIterationFiguresCountTheRequestsAndTheirCommits() throws Exception {
        for (String synchronousCommit : SYNCHRONOUS_COMMIT) {
            AuditLogBenchmark.Service bench = open(AuditLogType.SYNC_INSERT, synchronousCommit, SEEDS[0]);
            try {
                bench.begin(true, false);
                for (int i = 0; i < 300; i++) {
                    BENCHMARK.saturated(bench, null);
                }
                bench.endIteration();
                AuditLogBenchmark.Figures f = bench.figures;
                assertTrue(f.committedRowsPerSec > 0, "committed rows/s");
                assertTrue(f.cpuUsPerRequest > 0, "CPU per request");
                assertTrue(f.serverCpuUsPerRequest > 0, "server CPU per request");
                assertEquals(0, f.backlogRows);
                assertEquals(0, f.callerWritesPerRequest);
                assertEquals(0, f.droppedPerRequest);
                if (synchronousCommit.equals("on")) {
                    assertTrue(f.walSyncsPerRequest >= 0.95 && f.walSyncsPerRequest <= 1.1, f.walSyncsPerRequest + " syncs per commit");
                } else {
                    assertTrue(f.walSyncsPerRequest < 0.5, f.walSyncsPerRequest + " syncs per commit");
                }
                assertTrue(bench.capacity > 0 && bench.offeredRate == bench.capacity * AuditLogBenchmark.LOAD);
                assertTrue(bench.syncUs > 0);
                assertEquals(0, bench.queuedRowBytes);
                bench.check();
            } finally {
                bench.close();
            }
        }
    }

    /** A queued row costs the heap its row and the queue's hold on it. */
    @Test
    void aQueuedRowsHeapIsMeasured() throws Exception {
        AuditLogBenchmark.Service bench = open(AuditLogType.ASYNC_EXECUTOR, "off", SEEDS[0]);
        try {
            assertTrue(bench.queuedRowBytes > 200 && bench.queuedRowBytes < 4_000, bench.queuedRowBytes + " bytes per queued row");
        } finally {
            bench.close();
        }
    }

    /**
     * The paced schedule: request k is due 1/rate after request k-1; at the iteration's end the
     * requests that were due but never started are recorded with the wait they had so far.
     */
    @Test
    void thePacerSpacesRequestsByTheRate() {
        AuditLogBenchmark.Pacer pacer = new AuditLogBenchmark.Pacer();
        pacer.begin(1_000);
        long[] intended = new long[10];
        for (int k = 0; k < intended.length; k++) {
            intended[k] = pacer.await();
            assertTrue(System.nanoTime() >= intended[k], "a request starts no earlier than its turn");
            pacer.done(intended[k]);
        }
        assertEquals(pacer.t0, intended[0]);
        for (int k = 1; k < intended.length; k++) {
            assertEquals(1_000_000, intended[k] - intended[k - 1], 1);
        }
        assertEquals(10, pacer.recorder.getIntervalHistogram().getTotalCount());
    }

    /** At an iteration's end the requests that were due but never started are recorded with the wait they had so far. */
    @Test
    void thePacerRecordsRequestsThatWereDueButNeverStarted() {
        AuditLogBenchmark.Pacer pacer = new AuditLogBenchmark.Pacer();
        pacer.begin(1_000);
        pacer.end(pacer.t0 + 20_500_000);
        Histogram h = pacer.recorder.getIntervalHistogram();
        assertEquals(21, h.getTotalCount(), "21 due by 20.5 ms");
        assertEquals(500_000, h.getMinValue(), 1_000, "the last had waited 0.5 ms");
        assertEquals(20_500_000, h.getMaxValue(), 50_000, "the first 20.5 ms");
        pacer.begin(0);
        pacer.end(System.nanoTime() + 1_000_000_000L);
        assertEquals(0, pacer.recorder.getIntervalHistogram().getTotalCount(), "no schedule, nothing due");
    }

    @Test
    void sameRequestsForTheSameSeedWithAFewBlocked() {
        MessageRequests a = new MessageRequests(7, 4096);
        MessageRequests b = new MessageRequests(7, 4096);
        assertEquals(List.of(a.lines()), List.of(b.lines()));
        assertEquals(a.keywords(), b.keywords());
        assertEquals(MessageRequests.KEYWORDS, new HashSet<>(a.keywords()).size());
        SendMessageHandler handler = new SendMessageHandler(a.keywords(), null);
        int blocked = 0;
        long bytes = 0;
        for (String line : a.lines()) {
            assertEquals(4, line.split("\\|").length, line);
            AuditRow row = handler.audit(1, line, 0);
            assertTrue(row.content().length() >= 80 && row.content().length() <= 170, row.content());
            bytes += row.appId().length() + row.templateId().length() + row.phone().length() + row.verdict().length()
                    + (row.keyword() == null ? 0 : row.keyword().length()) + row.content().length() + 16;
            if (row.verdict().equals(AuditRow.BLOCKED)) {
                blocked++;
                assertTrue(a.keywords().contains(row.keyword()));
            }
        }
        assertTrue(blocked > 4096 * 0.03 && blocked < 4096 * 0.08, blocked + " blocked");
        double perRow = bytes / 4096.0;
        assertTrue(perRow > 150 && perRow < 220, perRow + " bytes of data per row");
        assertTrue(!List.of(new MessageRequests(8, 16).lines()).equals(List.of(new MessageRequests(7, 16).lines())));
    }

    @Test
    void theRequestIsSplitCheckedAndMasked() {
        List<String> keywords = List.of("casino", "lottery");
        List<AuditRow> written = new ArrayList<>();
        SendMessageHandler handler = new SendMessageHandler(keywords, new RecordingLog(written));
        AuditRow pass = handler.send(5, "app-0001|tpl-000001|13812345678|Your code is 123456. casinos closed", 99);
        AuditRow blocked = handler.send(6, "app-0002|tpl-010002|13900001111|Win the lottery now", 100);
        assertEquals(new AuditRow(5, "app-0001", "tpl-000001", "138****5678", "PASS", null, "Your code is 123456. casinos closed", 99), pass);
        assertEquals("BLOCKED", blocked.verdict());
        assertEquals("lottery", blocked.keyword());
        assertEquals(List.of(pass, blocked), written);
        assertThrows(IllegalArgumentException.class, () -> handler.send(7, "app|tpl|phone", 0));
        assertEquals("****", SendMessageHandler.mask("1234"));
        assertThrows(IllegalArgumentException.class, () -> handler.audit(8, "a|b|13800000000|", 0), "no content");
        assertNull(handler.audit(8, "a|b|13800000000|hello", 0).keyword());
    }

    private static AuditLogBenchmark.Service open(AuditLogType variant, String synchronousCommit, long seed) throws SQLException {
        AuditLogBenchmark.Service bench = new AuditLogBenchmark.Service();
        bench.variant = variant;
        bench.synchronousCommit = synchronousCommit;
        bench.seed = seed;
        bench.calibrationMs = 250;
        bench.warmupRequests = 10_000;
        bench.writeWarmupRequests = 500;
        bench.heapProbeRows = 20_000;
        bench.open(server);
        return bench;
    }

    /** Every row as "request_id, app_id, ..., content, logged_at in ms", tab-separated, by request id. */
    private static List<String> tableRows(AuditLogBenchmark.Service bench) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = bench.pool.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT " + AuditTable.COLUMNS + " FROM " + AuditTable.NAME + " ORDER BY request_id")) {
            while (r.next()) {
                rows.add(String.join("\t", r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                        String.valueOf(r.getString(6)), r.getString(7), Long.toString(r.getTimestamp(8).getTime())));
            }
        }
        return rows;
    }

    private static String describe(AuditRow row) {
        return String.join("\t", Long.toString(row.requestId()), row.appId(), row.templateId(), row.phone(), row.verdict(),
                String.valueOf(row.keyword()), row.content());
    }

    private static void execute(AuditLogBenchmark.Service bench, String sql) throws SQLException {
        try (Connection c = bench.pool.getConnection()) {
            execute(c, sql);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** A log that keeps what it is given, for the request's own test. */
    private record RecordingLog(List<AuditRow> rows) implements AuditLog {
        @Override
        public void write(AuditRow row) {
            rows.add(row);
        }

        @Override
        public long accepted() {
            return rows.size();
        }

        @Override
        public long committed() {
            return rows.size();
        }

        @Override
        public long dropped() {
            return 0;
        }

        @Override
        public long callerWrites() {
            return 0;
        }

        @Override
        public long callerWaits() {
            return 0;
        }

        @Override
        public Object backlogOf(java.util.Iterator<AuditRow> rows, int count) {
            return null;
        }

        @Override
        public List<Thread> threads() {
            return List.of();
        }

        @Override
        public Throwable firstFailure() {
            return null;
        }

        @Override
        public void close() {
        }
    }
}
