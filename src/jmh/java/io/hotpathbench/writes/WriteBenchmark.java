package io.hotpathbench.writes;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import io.hotpathbench.postgres.LocalPostgres;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * Vehicle uploads of {@code pointsPerRequest} points ({@link Uploads}: the write-up's time-series
 * model over {@code timelines} timelines, seeded, every point a new key) written one by one or as a
 * batch, into two real stores. RocksDB in this process ({@link RocksStore}: a fresh database per
 * trial, deleted at its end): one write per point ({@code PUT_EACH}, HBase's autoflush) or the
 * upload's points in one {@code WriteBatch} ({@code WRITE_BATCH}, a client write buffer), behind one
 * interface ({@link RocksWrite}); {@code upload} runs them with the write-ahead log buffered (RocksDB's
 * default) at 1 (the control), 10, 100 and 500 points per request over 10k and 1M timelines, and
 * {@code uploadWal} with the log synced on every write or off, at 1 and 500 points over 10k timelines.
 * PostgreSQL over loopback ({@code uploadPostgres}, the server each fork starts with the shared
 * {@link LocalPostgres}): one {@code INSERT} per point with autocommit ({@code INSERT_EACH}) against
 * one {@code executeBatch} in one transaction, with pgjdbc's {@code reWriteBatchedInserts} off and on
 * ({@link PgWrite}), with {@code synchronous_commit} on and off, at 1 and 500 points. Two methods for
 * RocksDB keep the configurations few. Every variant writes the same points and leaves the same
 * contents ({@code WritesTest}). Scores are uploads per second; beside them the JSON holds
 * {@code points} (points per second) and per-point figures: the process's CPU (RocksDB's flush and
 * compaction threads included), write-ahead log syncs and bytes, bytes flushed and compacted, write
 * stalls, and for PostgreSQL the server's CPU and WAL syncs. Run with
 * {@code mvn jmh:run -Djmh.include=Write}.
 */
@OutputTimeUnit(TimeUnit.SECONDS)
// Not yet piloted. From quick runs: a fork's start (the JVM, RocksDB's native library and an empty
// database, or a PostgreSQL server's initdb and start) takes one to a few seconds; a fresh RocksDB's
// first flushes and compactions come within its first seconds at the batched rates, so the figures
// are those of a young database growing by up to a few hundred MB per fork. Three 1 s warm-ups, five
// 1 s measured iterations; at least three trials (min_trials in scripts/techniques/writes.json; @Fork
// is JMH's fork count, for -Djmh.f).
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class WriteBenchmark extends BenchmarkDefaults {

    /** A trial's database, uploads and writer, and the counts the figures are taken from. */
    abstract static class Store {
        RocksStore store;
        Uploads uploads;
        PointWriter writer;
        private WriteOptions writeOptions;
        /** The next upload's number. */
        long next;
        /** Points written since the trial began. */
        long written;

        void open(int pointsPerRequest, int timelines, WalMode wal, RocksWrite variant, long seed) throws Exception {
            uploads = new Uploads(timelines, pointsPerRequest, seed);
            store = RocksStore.open();
            System.out.println("# " + store.describe());
            writeOptions = wal.writeOptions();
            writer = variant.create(store.db(), writeOptions, pointsPerRequest);
        }

        int upload() throws Exception {
            int n = writer.write(uploads, next++);
            written += n;
            return n;
        }

        void close() {
            try {
                if (writer != null) {
                    writer.close();
                }
                if (writeOptions != null) {
                    writeOptions.close();
                }
            } finally {
                if (store != null) {
                    store.close();
                }
            }
        }
    }

    /** {@code upload}'s configurations: the write-ahead log buffered, every size and timeline count. */
    @State(Scope.Benchmark)
    public static class Buffered extends Store {

        /** 1, the control (a one-point batch costs one native call more); 10 and 100; 500, the write-up's request. */
        @Param({"1", "10", "100", "500"})
        int pointsPerRequest;

        /** The write-up's smallest and largest timeline counts. */
        @Param({"10000", "1000000"})
        int timelines;

        @Param("BUFFERED")
        WalMode wal;

        @Param
        RocksWrite variant;

        @Param("42")
        long seed;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            open(pointsPerRequest, timelines, wal, variant, seed);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /**
     * {@code uploadWal}'s configurations: the log synced on every write (what a synced write costs
     * depends on the disk: these rows hold for the machine they ran on) or off (the write-up's "WAL
     * off"), at the smallest and the write-up's request size, over 10k timelines.
     */
    @State(Scope.Benchmark)
    public static class Logged extends Store {

        @Param({"1", "500"})
        int pointsPerRequest;

        @Param("10000")
        int timelines;

        @Param({"SYNC", "OFF"})
        WalMode wal;

        @Param
        RocksWrite variant;

        @Param("42")
        long seed;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            open(pointsPerRequest, timelines, wal, variant, seed);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /**
     * {@code uploadPostgres}'s configurations: the same uploads into a real PostgreSQL that each fork
     * starts ({@link LocalPostgres}, the audit-log technique's launcher: a fresh data directory, loopback
     * only, removed at the fork's end), over pgjdbc, with {@code synchronous_commit} on (a commit waits
     * for its WAL to reach the disk: these rows hold for the machine they ran on) or off.
     */
    @State(Scope.Benchmark)
    public static class Postgres {

        @Param({"1", "500"})
        int pointsPerRequest;

        @Param("10000")
        int timelines;

        @Param({"on", "off"})
        String synchronousCommit;

        @Param
        PgWrite variant;

        @Param("42")
        long seed;

        LocalPostgres server;
        Uploads uploads;
        PgWrite.Writer writer;
        long next;
        long written;

        @Setup(Level.Trial)
        public void setUp() throws LocalPostgres.Unavailable, SQLException {
            uploads = new Uploads(timelines, pointsPerRequest, seed);
            server = LocalPostgres.start();
            try {
                System.out.println("# " + server.describe() + "; an 8 KiB write and fdatasync there: "
                        + Math.round(server.syncMicros()) + " us (median of 50)");
                try (Connection c = server.connect()) {
                    PgWrite.createTable(c);
                }
                writer = variant.open(server, synchronousCommit);
            } catch (SQLException | RuntimeException e) {
                server.close();
                throw e;
            }
        }

        int upload() throws SQLException {
            int n = writer.write(uploads, next++);
            written += n;
            return n;
        }

        /** WAL syncs so far, the writer's own included (its session's statistics published first). */
        long walSyncs() throws SQLException {
            writer.publishStatistics(server);
            return server.walSyncs();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            try {
                if (writer != null) {
                    writer.close();
                }
            } finally {
                server.close();
            }
        }
    }

    /** Points written, as a rate: points per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Points {
        public long points;
    }

    /**
     * Figures per measured iteration, as {@link EventShares} shares (their sums are the means over
     * the measured iterations): {@code cpuUsPerPoint}, the process's CPU time (every thread: the
     * writer, RocksDB's flush and compaction threads, the JVM's) per point written, in microseconds;
     * {@code walSyncsPerPoint} and {@code walBytesPerPoint}, the write-ahead log's syncs and bytes;
     * {@code storeBytesPerPoint}, bytes written by flushes and compactions (what the points cost again
     * in SST files); {@code stallUsPerPoint}, the time RocksDB delayed or stopped writes for its
     * compactions to catch up, in microseconds. From RocksDB's statistics tickers, which count what the
     * background threads did in the iteration, whoever's points they were. JMH reads an aux counter
     * only from the fields its state class declares itself, so each method's class declares them and
     * this one measures.
     */
    abstract static class Figures {
        private static final com.sun.management.OperatingSystemMXBean OS =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        private boolean measuring;
        private long writtenAtStart;
        private long cpuAtStart;
        private long syncsAtStart;
        private long walBytesAtStart;
        private long storeBytesAtStart;
        private long stallAtStart;

        void begin(Store s, IterationParams iteration) {
            measuring = iteration.getType() == IterationType.MEASUREMENT;
            writtenAtStart = s.written;
            syncsAtStart = s.store.ticker(TickerType.WAL_FILE_SYNCED);
            walBytesAtStart = s.store.ticker(TickerType.WAL_FILE_BYTES);
            storeBytesAtStart = storeBytes(s);
            stallAtStart = s.store.ticker(TickerType.STALL_MICROS);
            cpuAtStart = OS.getProcessCpuTime();
        }

        /** CPU, syncs, log bytes, store bytes and stall per point of the iteration, as shares; zeros in warm-up. */
        double[] end(Store s, BenchmarkParams params) {
            if (!measuring) {
                return new double[5];
            }
            long cpuNanos = OS.getProcessCpuTime() - cpuAtStart;
            double points = Math.max(1, s.written - writtenAtStart);
            double[] perPoint = {
                cpuNanos / 1e3 / points,
                (s.store.ticker(TickerType.WAL_FILE_SYNCED) - syncsAtStart) / points,
                (s.store.ticker(TickerType.WAL_FILE_BYTES) - walBytesAtStart) / points,
                (storeBytes(s) - storeBytesAtStart) / points,
                (s.store.ticker(TickerType.STALL_MICROS) - stallAtStart) / points,
            };
            for (int i = 0; i < perPoint.length; i++) {
                perPoint[i] = EventShares.share(perPoint[i], params, 1);
            }
            return perPoint;
        }

        private static long storeBytes(Store s) {
            return s.store.ticker(TickerType.FLUSH_WRITE_BYTES) + s.store.ticker(TickerType.COMPACT_WRITE_BYTES);
        }
    }

    /** {@link Figures} of {@code upload}'s trials. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class BufferedFigures extends Figures {
        public double cpuUsPerPoint;
        public double walSyncsPerPoint;
        public double walBytesPerPoint;
        public double storeBytesPerPoint;
        public double stallUsPerPoint;

        @Setup(Level.Iteration)
        public void start(Buffered store, IterationParams iteration) {
            begin(store, iteration);
        }

        @TearDown(Level.Iteration)
        public void stop(Buffered store, BenchmarkParams params) {
            double[] f = end(store, params);
            cpuUsPerPoint = f[0];
            walSyncsPerPoint = f[1];
            walBytesPerPoint = f[2];
            storeBytesPerPoint = f[3];
            stallUsPerPoint = f[4];
        }
    }

    /** {@link Figures} of {@code uploadWal}'s trials. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class LoggedFigures extends Figures {
        public double cpuUsPerPoint;
        public double walSyncsPerPoint;
        public double walBytesPerPoint;
        public double storeBytesPerPoint;
        public double stallUsPerPoint;

        @Setup(Level.Iteration)
        public void start(Logged store, IterationParams iteration) {
            begin(store, iteration);
        }

        @TearDown(Level.Iteration)
        public void stop(Logged store, BenchmarkParams params) {
            double[] f = end(store, params);
            cpuUsPerPoint = f[0];
            walSyncsPerPoint = f[1];
            walBytesPerPoint = f[2];
            storeBytesPerPoint = f[3];
            stallUsPerPoint = f[4];
        }
    }

    /**
     * Figures of {@code uploadPostgres}'s measured iterations, as {@link EventShares} shares:
     * {@code cpuUsPerPoint}, this process's CPU time (the client: pgjdbc and the JVM) per point;
     * {@code serverCpuUsPerPoint}, the server's processes' CPU time per point (its backend, the WAL
     * writer, the rest; 10 ms resolution over the iteration); {@code walSyncsPerPoint}, the server's
     * WAL syncs ({@code pg_stat_wal}) per point.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class PostgresFigures {
        private static final com.sun.management.OperatingSystemMXBean OS =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        public double cpuUsPerPoint;
        public double serverCpuUsPerPoint;
        public double walSyncsPerPoint;

        private boolean measuring;
        private long writtenAtStart;
        private long cpuAtStart;
        private double serverCpuAtStart;
        private long syncsAtStart;

        /**
         * Before each iteration, outside its time: a checkpoint writes every dirty page, so none is
         * owed during the iteration, and only then are the counters read.
         */
        @Setup(Level.Iteration)
        public void start(Postgres pg, IterationParams iteration) throws SQLException {
            pg.server.checkpoint();
            measuring = iteration.getType() == IterationType.MEASUREMENT;
            if (!measuring) {
                return;
            }
            syncsAtStart = pg.walSyncs();
            serverCpuAtStart = pg.server.serverCpuSeconds();
            writtenAtStart = pg.written;
            cpuAtStart = OS.getProcessCpuTime();
        }

        @TearDown(Level.Iteration)
        public void stop(Postgres pg, BenchmarkParams params) throws SQLException {
            if (!measuring) {
                return;
            }
            long cpuNanos = OS.getProcessCpuTime() - cpuAtStart;
            double points = Math.max(1, pg.written - writtenAtStart);
            double serverSeconds = pg.server.serverCpuSeconds() - serverCpuAtStart;
            cpuUsPerPoint = EventShares.share(cpuNanos / 1e3 / points, params, 1);
            serverCpuUsPerPoint = EventShares.share(serverSeconds * 1e6 / points, params, 1);
            walSyncsPerPoint = EventShares.share((pg.walSyncs() - syncsAtStart) / points, params, 1);
        }
    }

    /**
     * One upload written with the write-ahead log buffered, in uploads per second ({@code points}:
     * points per second): {@code PUT_EACH} makes {@code pointsPerRequest} writes, each a log record
     * and a pass through RocksDB's write path; {@code WRITE_BATCH} copies the points into its batch
     * and makes one write.
     */
    @Benchmark
    public int upload(Buffered store, BufferedFigures figures, Points points) throws Exception {
        int n = store.upload();
        points.points += n;
        return n;
    }

    /**
     * One upload written with the write-ahead log synced on every write ({@code SYNC}: an fsync per
     * point for {@code PUT_EACH}, one per upload for {@code WRITE_BATCH}) or off ({@code OFF}).
     */
    @Benchmark
    public int uploadWal(Logged store, LoggedFigures figures, Points points) throws Exception {
        int n = store.upload();
        points.points += n;
        return n;
    }

    /**
     * One upload written into PostgreSQL, in uploads per second ({@code points}: points per second):
     * {@code INSERT_EACH} makes {@code pointsPerRequest} round trips and commits, the batches one
     * round trip's worth of pipelined statements (or multi-row inserts) and one commit.
     */
    @Benchmark
    public int uploadPostgres(Postgres pg, PostgresFigures figures, Points points) throws SQLException {
        int n = pg.upload();
        points.points += n;
        return n;
    }
}
