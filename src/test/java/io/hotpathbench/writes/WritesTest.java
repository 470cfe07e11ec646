package io.hotpathbench.writes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotpathbench.ParamValues;
import io.hotpathbench.postgres.LocalPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.TickerType;
import org.postgresql.core.BaseConnection;
import org.rocksdb.WriteOptions;

class WritesTest {

    /** Uploads written per configuration: enough to cycle the drawn uploads at one point per request. */
    private static final int UPLOADS = 1_500;
    private static final int SMALL_TIMELINES = 1_000;

    /** What the uploads should leave in a store: every point's key and value, in key order. */
    private static List<byte[][]> expected(Uploads uploads, long count) {
        List<byte[][]> out = new ArrayList<>();
        for (long n = 0; n < count; n++) {
            for (int j = 0; j < uploads.pointsPerRequest(); j++) {
                byte[] key = new byte[Uploads.KEY_BYTES];
                byte[] value = new byte[Uploads.VALUE_BYTES];
                uploads.key(n, j, key);
                uploads.value(n, j, value);
                out.add(new byte[][] {key, value});
            }
        }
        out.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
        return out;
    }

    private static void assertSameContents(List<byte[][]> expected, List<byte[][]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": entries");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i)[0], actual.get(i)[0], what + ": key " + i);
            assertArrayEquals(expected.get(i)[1], actual.get(i)[1], what + ": value " + i);
        }
    }

    /** The benchmark's upload state at one configuration, run for {@code count} uploads; its contents, read back. */
    private static List<byte[][]> runUpload(RocksWrite variant, int points, int timelines, long count) throws Exception {
        WriteBenchmark bench = new WriteBenchmark();
        WriteBenchmark.Buffered store = new WriteBenchmark.Buffered();
        store.pointsPerRequest = points;
        store.timelines = timelines;
        store.wal = WalMode.BUFFERED;
        store.variant = variant;
        store.seed = 42;
        store.setUp();
        Path dir = store.store.directory();
        try {
            WriteBenchmark.Points counted = new WriteBenchmark.Points();
            for (long n = 0; n < count; n++) {
                assertEquals(points, bench.upload(store, null, counted));
            }
            assertEquals(count * points, counted.points);
            return store.store.contents();
        } finally {
            store.tearDown();
            assertFalse(Files.exists(dir), "the trial's directory is deleted at its end");
        }
    }

    /**
     * Both variants leave exactly the points the uploads hold, every one a new key, at every upload
     * size the benchmark runs, 1 (the control) included.
     */
    @Test
    void bothVariantsLeaveTheSameContentsAtEveryUploadSize() throws Exception {
        for (int points : ParamValues.ints(WriteBenchmark.Buffered.class, "pointsPerRequest")) {
            long count = Math.max(2, UPLOADS / points);
            List<byte[][]> want = expected(new Uploads(SMALL_TIMELINES, points, 42), count);
            assertEquals(count * points, new HashSet<>(want.stream().map(e -> Arrays.toString(e[0])).toList()).size(),
                    "every point is a new key");
            for (RocksWrite variant : RocksWrite.values()) {
                assertSameContents(want, runUpload(variant, points, SMALL_TIMELINES, count), variant + " at " + points + " points");
            }
        }
    }

    @Test
    void theBenchmarksTimelineCountsGiveTheSameContentsToBothVariants() throws Exception {
        for (int timelines : ParamValues.ints(WriteBenchmark.Buffered.class, "timelines")) {
            List<byte[][]> want = expected(new Uploads(timelines, 100, 42), 20);
            for (RocksWrite variant : RocksWrite.values()) {
                assertSameContents(want, runUpload(variant, 100, timelines, 20), variant + " over " + timelines + " timelines");
            }
        }
    }

    /**
     * Every WAL mode of {@code uploadWal} leaves the same contents with both variants, and RocksDB's
     * statistics count what the mode promises: a sync per write when synced (per point for
     * {@code PUT_EACH}, per upload for {@code WRITE_BATCH}), no log at all when off.
     */
    @ParameterizedTest
    @EnumSource(RocksWrite.class)
    void walModesLeaveTheSameContentsAndSyncAsPromised(RocksWrite variant) throws Exception {
        int points = ParamValues.ints(WriteBenchmark.Logged.class, "pointsPerRequest")[1];
        int uploads = 3;
        Uploads source = new Uploads(SMALL_TIMELINES, points, 42);
        List<byte[][]> want = expected(source, uploads);
        for (String mode : ParamValues.of(WriteBenchmark.Logged.class, "wal")) {
            WalMode wal = WalMode.valueOf(mode);
            try (RocksStore store = RocksStore.open(); WriteOptions options = wal.writeOptions();
                 PointWriter writer = variant.create(store.db(), options, points)) {
                for (long n = 0; n < uploads; n++) {
                    writer.write(source, n);
                }
                assertSameContents(want, store.contents(), variant + " with the log " + wal);
                long syncs = store.ticker(TickerType.WAL_FILE_SYNCED);
                long walBytes = store.ticker(TickerType.WAL_FILE_BYTES);
                if (wal == WalMode.SYNC) {
                    assertEquals(variant == RocksWrite.PUT_EACH ? (long) uploads * points : uploads, syncs, variant + " synced");
                    assertTrue(walBytes >= (long) uploads * points * (Uploads.KEY_BYTES + Uploads.VALUE_BYTES), "log bytes " + walBytes);
                } else {
                    assertEquals(0, syncs);
                    assertEquals(0, walBytes, "no log when it is off");
                }
            }
        }
    }

    @Test
    void theBufferedLogWritesEveryPointOnceAndSyncsNothing() throws Exception {
        Uploads source = new Uploads(SMALL_TIMELINES, 100, 42);
        long[] logBytes = new long[RocksWrite.values().length];
        for (RocksWrite variant : RocksWrite.values()) {
            try (RocksStore store = RocksStore.open(); WriteOptions options = WalMode.BUFFERED.writeOptions();
                 PointWriter writer = variant.create(store.db(), options, 100)) {
                for (long n = 0; n < 10; n++) {
                    writer.write(source, n);
                }
                assertEquals(0, store.ticker(TickerType.WAL_FILE_SYNCED));
                logBytes[variant.ordinal()] = store.ticker(TickerType.WAL_FILE_BYTES);
                assertTrue(logBytes[variant.ordinal()] >= 1_000 * (Uploads.KEY_BYTES + Uploads.VALUE_BYTES));
            }
        }
        assertTrue(logBytes[RocksWrite.WRITE_BATCH.ordinal()] < logBytes[RocksWrite.PUT_EACH.ordinal()],
                "one log record per upload instead of one per point: " + Arrays.toString(logBytes));
    }

    @Test
    void walModesSetRocksDbsWriteOptions() {
        try (WriteOptions sync = WalMode.SYNC.writeOptions(); WriteOptions buffered = WalMode.BUFFERED.writeOptions();
             WriteOptions off = WalMode.OFF.writeOptions()) {
            assertTrue(sync.sync());
            assertFalse(sync.disableWAL());
            assertFalse(buffered.sync());
            assertFalse(buffered.disableWAL());
            assertFalse(off.sync());
            assertTrue(off.disableWAL());
        }
    }

    @Test
    void uploadsAreSeededAndFollowTheWriteUpsModel() {
        Uploads a = new Uploads(10_000, 500, 7);
        Uploads b = new Uploads(10_000, 500, 7);
        Uploads other = new Uploads(10_000, 500, 8);
        boolean differs = false;
        for (long n = 0; n < 3 * Uploads.SLOTS; n += 97) {
            long vehicle = a.timeline(n, 0) / Uploads.METRICS;
            Set<Long> timelines = new HashSet<>();
            for (int j = 0; j < 500; j++) {
                assertEquals(a.timeline(n, j), b.timeline(n, j));
                assertEquals(a.timestamp(n, j), b.timestamp(n, j));
                assertEquals(a.value(n, j), b.value(n, j));
                differs |= a.timeline(n, j) != other.timeline(n, j);
                assertTrue(a.timeline(n, j) >= 0 && a.timeline(n, j) < 10_000);
                assertEquals(vehicle, a.timeline(n, j) / Uploads.METRICS, "one vehicle per upload");
                timelines.add(a.timeline(n, j));
            }
            assertEquals(Uploads.METRICS, timelines.size(), "500 points cover the vehicle's 10 metrics");
            assertTrue(a.timestamp(n, 499) - a.timestamp(n, 0) <= 50_000, "50 samples a second apart");
            for (long k = 0; k < 10; k++) {
                // the last sample of an upload starting at its vehicle's last metric, and the next upload's first
                assertTrue(a.timestamp(n + k + 1, 0) > a.timestamp(n + k, 499), "time only moves on");
            }
        }
        assertTrue(differs, "another seed draws other vehicles");
        assertEquals(10, Uploads.metricName(12_345).length());
        assertEquals("metric0005", Uploads.metricName(12_345));
        assertEquals("V000001234", Uploads.vin(12_345));
        assertThrows(IllegalArgumentException.class, () -> new Uploads(15, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Uploads(10, 0, 1));
    }

    @Test
    void keysSortByTimelineThenTimeAndValuesRoundTrip() {
        Uploads u = new Uploads(1_000, 10, 3);
        byte[] k1 = new byte[Uploads.KEY_BYTES];
        byte[] k2 = new byte[Uploads.KEY_BYTES];
        byte[] v = new byte[Uploads.VALUE_BYTES];
        for (long n = 0; n < 500; n++) {
            u.key(n, 0, k1);
            u.key(n + 1, 0, k2);
            assertEquals(u.timeline(n, 0), Uploads.getLong(k1, 0));
            assertEquals(u.timestamp(n, 0), Uploads.getLong(k1, 8));
            int byTimeline = Long.compare(u.timeline(n, 0), u.timeline(n + 1, 0));
            int expected = byTimeline != 0 ? byTimeline : Long.compare(u.timestamp(n, 0), u.timestamp(n + 1, 0));
            assertEquals(Integer.signum(expected), Integer.signum(Arrays.compareUnsigned(k1, k2)));
            u.value(n, 3, v);
            assertEquals(u.value(n, 3), Double.longBitsToDouble(Uploads.getLong(v, 0)));
        }
        assertNotEquals(0, Arrays.compareUnsigned(k1, k2));
    }

    @Test
    void aDirectoryLeftByAProcessThatIsGoneIsDeletedAndALiveOnesIsKept(@TempDir Path root) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long dead = gone.pid();
        Path abandoned = Files.createDirectories(root.resolve(RocksStore.PREFIX + dead + "-123"));
        Files.writeString(abandoned.resolve("000001.log"), "x");
        Path live = Files.createDirectories(root.resolve(RocksStore.PREFIX + ProcessHandle.current().pid() + "-456"));
        Path unrelated = Files.createDirectories(root.resolve(RocksStore.PREFIX + "notapid"));
        try (RocksStore store = RocksStore.open(root)) {
            assertTrue(Files.isDirectory(store.directory()));
            assertTrue(store.directory().getFileName().toString().startsWith(RocksStore.PREFIX + ProcessHandle.current().pid() + "-"));
            assertFalse(store.fileSystem().isEmpty());
            assertTrue(store.describe().contains(store.directory().toString()), store.describe());
        }
        assertFalse(Files.exists(abandoned));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(unrelated));
        try (var left = Files.list(root)) {
            assertEquals(2, left.count(), "only the live process's and the unrelated directory remain");
        }
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
        RocksStore store = RocksStore.open();
        Path dir = store.directory();
        store.close();
        store.close();
        assertFalse(Files.exists(dir));
    }

    // ---------------------------------------------------------------- PostgreSQL

    /** One server for the class's PostgreSQL tests, started by the first; none where it cannot start (CI fails instead). */
    private static LocalPostgres postgres;

    private static LocalPostgres postgres() {
        if (postgres == null) {
            try {
                postgres = LocalPostgres.start();
            } catch (LocalPostgres.Unavailable e) {
                if ("true".equals(System.getenv("CI"))) {
                    fail(e.getMessage());
                }
                Assumptions.abort(e.getMessage());
            }
        }
        return postgres;
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            Path data = postgres.dataDirectory();
            postgres.close();
            assertFalse(Files.exists(data), "the server's data directory is removed");
        }
    }

    private static long commits(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * Every PostgreSQL variant, with synchronous commit on and off, leaves exactly the points the
     * uploads hold: the same contents as RocksDB's variants, read back in key order. A batch commits
     * once per upload, an insert per point once per point.
     */
    @ParameterizedTest
    @EnumSource(PgWrite.class)
    void postgresVariantsLeaveTheSameContents(PgWrite variant) throws Exception {
        LocalPostgres server = postgres();
        int uploads = 4;
        for (int points : ParamValues.ints(WriteBenchmark.Postgres.class, "pointsPerRequest")) {
            Uploads source = new Uploads(SMALL_TIMELINES, points, 42);
            List<byte[][]> want = expected(source, uploads);
            for (String commit : ParamValues.of(WriteBenchmark.Postgres.class, "synchronousCommit")) {
                try (Connection admin = server.connect()) {
                    PgWrite.createTable(admin);
                    long commitsBefore;
                    try (PgWrite.Writer writer = variant.open(server, commit)) {
                        assertEquals(variant == PgWrite.EXECUTE_BATCH_REWRITE,
                                writer.connection().unwrap(BaseConnection.class).getQueryExecutor().isReWriteBatchedInsertsEnabled());
                        try (Statement s = writer.connection().createStatement();
                             ResultSet r = s.executeQuery("SHOW synchronous_commit")) {
                            r.next();
                            assertEquals(commit, r.getString(1));
                        }
                        writer.publishStatistics(server);
                        commitsBefore = commits(admin);
                        for (long n = 0; n < uploads; n++) {
                            assertEquals(points, writer.write(source, n));
                        }
                        writer.publishStatistics(server);
                    }
                    long made = commits(admin) - commitsBefore;
                    long perUpload = variant == PgWrite.INSERT_EACH ? points : 1;
                    assertTrue(made >= uploads * perUpload && made <= uploads * perUpload + 3,
                            variant + " made " + made + " commits for " + uploads + " uploads of " + points);
                    assertSameContents(want, PgWrite.contents(admin), variant + " at " + points + " points, synchronous_commit " + commit);
                }
            }
        }
    }

    /** With synchronous commit on, an insert per point waits for a WAL flush per point; a batch for one per upload. */
    @Test
    void aSynchronousCommitSyncsTheWalOncePerTransaction() throws Exception {
        LocalPostgres server = postgres();
        assumeWalStatistics(server);
        Uploads source = new Uploads(SMALL_TIMELINES, 100, 42);
        long[] syncs = new long[2];
        PgWrite[] variants = {PgWrite.INSERT_EACH, PgWrite.EXECUTE_BATCH};
        for (int v = 0; v < 2; v++) {
            try (Connection admin = server.connect()) {
                PgWrite.createTable(admin);
            }
            try (PgWrite.Writer writer = variants[v].open(server, "on")) {
                writer.publishStatistics(server);
                long before = server.walSyncs();
                for (long n = 0; n < 5; n++) {
                    writer.write(source, n);
                }
                writer.publishStatistics(server);
                syncs[v] = server.walSyncs() - before;
            }
        }
        assertTrue(syncs[0] >= 5 * 100 / 2, "an insert per point: " + syncs[0] + " WAL syncs for 500 commits");
        assertTrue(syncs[1] < syncs[0] / 10, "a batch per upload: " + syncs[1] + " WAL syncs for 5 commits");
    }

    private static void assumeWalStatistics(LocalPostgres server) {
        Assumptions.assumeTrue(server.majorVersion() >= 14, "pg_stat_wal needs PostgreSQL 14 or later");
    }

    /** The benchmark's own state, end to end: its server starts, takes the uploads, and is gone with its data afterwards. */
    @Test
    void thePostgresStateWritesAndLeavesNothing() throws Exception {
        postgres();
        WriteBenchmark bench = new WriteBenchmark();
        WriteBenchmark.Postgres pg = new WriteBenchmark.Postgres();
        pg.pointsPerRequest = 500;
        pg.timelines = SMALL_TIMELINES;
        pg.synchronousCommit = "off";
        pg.variant = PgWrite.EXECUTE_BATCH_REWRITE;
        pg.seed = 42;
        pg.setUp();
        Path data = pg.server.dataDirectory();
        long pid = pg.server.pid();
        try {
            WriteBenchmark.Points counted = new WriteBenchmark.Points();
            for (int n = 0; n < 3; n++) {
                assertEquals(500, bench.uploadPostgres(pg, null, counted));
            }
            try (Connection c = pg.server.connect()) {
                assertSameContents(expected(new Uploads(SMALL_TIMELINES, 500, 42), 3), PgWrite.contents(c), "the benchmark's table");
            }
        } finally {
            pg.tearDown();
        }
        assertFalse(Files.exists(data), "the fork's data directory is removed");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the fork's server is stopped");
    }
}
