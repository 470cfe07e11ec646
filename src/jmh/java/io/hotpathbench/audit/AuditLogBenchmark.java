package io.hotpathbench.audit;

import com.zaxxer.hikari.HikariDataSource;
import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import io.hotpathbench.postgres.LocalPostgres;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The write-up's send-message request ({@link SendMessageHandler}: split
 * {@code appId|templateId|phone|content}, check the words against the keyword list loaded at
 * set-up, build a ~200-byte audit row) with its audit row written to a real PostgreSQL that every
 * fork starts ({@link LocalPostgres}: a fresh data directory, loopback, autovacuum off, a
 * checkpoint before every iteration and none during one) through pgjdbc and a HikariCP pool. The
 * {@code variant} decides what the request thread does with the row ({@link AuditLogType}): insert
 * it and wait for the commit ({@code SYNC_INSERT}, the write-up's "before"), submit it to Spring
 * Boot's default {@code @Async} pool ({@code ASYNC_EXECUTOR}), to that pool with a bounded queue
 * and the caller writing when it is full ({@code ASYNC_BOUNDED}), or queue it for one writer that
 * commits up to 256 rows per multi-row insert ({@code BATCH_WRITER}); {@code synchronousCommit} is
 * PostgreSQL's setting for every write. Two loads: {@code paced}, a fixed offered rate of half of
 * what {@code SYNC_INSERT} managed at the fork's start, whose figures are the request latencies
 * measured from each request's intended start; and {@code saturated}, bursts of back-to-back
 * requests. Every iteration ends by draining the backlog (its size, heap and drain time are
 * figures), and the trial ends by checking that the table holds exactly the rows of the requests
 * made less those counted as dropped, or the fork fails. Besides its score the JSON holds the
 * figures of {@link PacedFigures} and {@link SaturatedFigures}, each explained there. Run with
 * {@code mvn jmh:run -Djmh.include=AuditLog} ({@code -Djmh.quick} for a short check).
 */
// Before its first iteration a fork starts a JVM and a server (initdb included), opens two pools,
// warms the write path, calibrates for a second and probes the heap; after its last it drains,
// counts the rows and stops the server. With 16 configurations (4 variants x 2 loads x 2
// synchronous_commit settings) a trial of the class takes several minutes, so three forks of each
// configuration, the trials' minimum, keep a full run of the class near 20 minutes.
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
public class AuditLogBenchmark extends BenchmarkDefaults {

    /** Requests drawn per trial and cycled; each request still gets a fresh id, its row's key. */
    static final int REQUESTS = 1 << 14;
    static final int MASK = REQUESTS - 1;
    /**
     * Requests per saturated iteration: several seconds of SYNC_INSERT where a commit waits for a
     * disk sync of a few milliseconds, a fraction of a second otherwise, and four times the bounded
     * queues (256 rows), so that ASYNC_BOUNDED's and BATCH_WRITER's callers write or wait.
     */
    static final int BURST = 1_000;
    /** How long SYNC_INSERT runs closed-loop at a fork's start to measure its capacity, after a fifth of that unmeasured. */
    static final long CALIBRATION_MS = 1_000;
    /** The paced load's share of SYNC_INSERT's capacity. */
    static final double LOAD = 0.5;
    /** Requests handled (not written) at set-up, so the request path runs compiled from the first iteration on. */
    static final int JIT_WARMUP_REQUESTS = 200_000;
    /**
     * Requests written through the variant at set-up, into a pool without synchronous commit (a
     * second or two), then thrown away: the write path (the pool, the executor or the writer,
     * pgjdbc) runs compiled from the first iteration on, as in a service that has run a while,
     * where a paced load of a few hundred requests a second would otherwise leave it interpreted
     * for minutes and put the JIT's work into every figure.
     */
    static final int WRITE_WARMUP_REQUESTS = 10_000;
    /** Rows queued to measure the heap a queued row takes. */
    static final int HEAP_PROBE_ROWS = 100_000;
    /** The longest a drain may take before the fork fails. */
    static final long DRAIN_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(5);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * The service under load: its server, pool, audit log and request handler, the requests, the
     * paced schedule and the bookkeeping of the figures, shared by the request threads of a trial.
     */
    @State(Scope.Benchmark)
    public static class Service {

        @Param
        AuditLogType variant;

        /**
         * PostgreSQL's synchronous_commit for every write: on, a commit returns once its WAL is
         * synced to disk (then the disk's sync time sets SYNC_INSERT's pace, and these rows are
         * cited with the machine); off, the WAL writer syncs in the background every 200 ms and a
         * commit waits for no disk.
         */
        @Param({"on", "off"})
        String synchronousCommit;

        @Param("42")
        long seed;

        /** The trial's own server; a test lends the state its own instead. */
        LocalPostgres server;
        boolean ownsServer;
        HikariDataSource pool;
        AuditLog log;
        SendMessageHandler handler;
        String[] requests;
        List<String> keywords;
        /** Requests made since the table was last emptied; the next one's id. */
        final AtomicLong made = new AtomicLong();
        /** Requests per second SYNC_INSERT managed closed-loop at this fork's start, and the paced rate from it. */
        double capacity;
        double offeredRate;
        /** The median 8 KiB write + fdatasync in the data directory's file system, in microseconds. */
        double syncUs;
        /** Heap per queued row, in bytes (0 for SYNC_INSERT, which queues none). */
        double queuedRowBytes;
        /** The set-up's own work: the benchmark's constants, shortened by the tests. */
        long calibrationMs = CALIBRATION_MS;
        int warmupRequests = JIT_WARMUP_REQUESTS;
        int writeWarmupRequests = WRITE_WARMUP_REQUESTS;
        int heapProbeRows = HEAP_PROBE_ROWS;
        final Pacer pacer = new Pacer();
        /** The threads that make requests: the one that opened the service and every JMH worker thread. */
        final Set<Thread> requestThreads = ConcurrentHashMap.newKeySet();
        /** The paced latencies of every measured iteration of this fork so far, in nanoseconds. */
        final Histogram latencies = new Histogram(3);
        /** The last measured iteration's figures. */
        final Figures figures = new Figures();
        private Snapshot start;
        private boolean measuring;

        @Setup(Level.Trial)
        public void startServer() throws Exception {
            server = LocalPostgres.start();
            ownsServer = true;
            System.out.println("# " + server.describe());
            try {
                if (server.majorVersion() < 14) {
                    throw new LocalPostgres.Unavailable("the audit-log figures need pg_stat_wal, PostgreSQL 14 or later; found "
                            + server.version() + "; install a newer postgresql");
                }
                open(server);
            } catch (Exception | Error e) {
                close();
                throw e;
            }
            System.out.printf("# a sync takes %.0f us on %s; SYNC_INSERT made %.0f requests/s; paced at %.0f/s; %.0f bytes per queued row%n",
                    syncUs, server.fileSystem(), capacity, offeredRate, queuedRowBytes);
        }

        /** Everything but the server's start: the pool, the table, the requests, the warm-ups, the calibration and the log under test. */
        void open(LocalPostgres server) throws SQLException {
            this.server = server;
            requestThreads.add(Thread.currentThread());
            syncUs = server.syncMicros();
            pool = AuditPool.open(server.jdbcUrl(), synchronousCommit);
            AuditTable.create(pool);
            MessageRequests source = new MessageRequests(seed, REQUESTS);
            requests = source.lines();
            keywords = source.keywords();
            handler = new SendMessageHandler(keywords, null);
            warmRequestPath();
            warmWritePath();
            capacity = calibrate();
            offeredRate = capacity * LOAD;
            AuditTable.truncate(pool);
            made.set(0);
            server.checkpoint();
            log = variant.create(pool);
            queuedRowBytes = queuedRowBytes();
            handler = new SendMessageHandler(keywords, log);
        }

        /** The request path (split, keyword check, row), compiled before anything is measured. */
        private void warmRequestPath() {
            long sum = 0;
            for (int i = 0; i < warmupRequests; i++) {
                sum += handler.audit(i, requests[i & MASK], i).content().length();
            }
            if (sum == 0) {
                throw new IllegalStateException("no content");
            }
        }

        /** {@link #WRITE_WARMUP_REQUESTS} requests through the variant, on a pool of its own without synchronous commit. */
        private void warmWritePath() throws SQLException {
            try (HikariDataSource fast = AuditPool.open(server.jdbcUrl(), "off"); AuditLog warm = variant.create(fast)) {
                SendMessageHandler writing = new SendMessageHandler(keywords, warm);
                for (int i = 0; i < writeWarmupRequests; i++) {
                    send(writing);
                }
                if (!warm.drain(DRAIN_TIMEOUT_MS) || warm.dropped() > 0) {
                    throw new IllegalStateException(variant + " did not write its warm-up rows: " + warm.pending() + " pending, "
                            + warm.dropped() + " dropped (" + warm.firstFailure() + ")");
                }
            }
            AuditTable.truncate(pool);
        }

        /** SYNC_INSERT's requests per second, one thread closed-loop, on this fork's pool and server. */
        private double calibrate() {
            try (AuditLog sync = AuditLogType.SYNC_INSERT.create(pool)) {
                SendMessageHandler calibrating = new SendMessageHandler(keywords, sync);
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(calibrationMs / 5);
                while (System.nanoTime() < end) {
                    send(calibrating);
                }
                long before = made.get();
                long begin = System.nanoTime();
                end = begin + TimeUnit.MILLISECONDS.toNanos(calibrationMs);
                long now;
                do {
                    send(calibrating);
                    now = System.nanoTime();
                } while (now < end);
                return (made.get() - before) * 1e9 / (now - begin);
            }
        }

        /**
         * The heap one row takes while it waits in this variant's queue (the row and the queue's
         * hold on it: a FutureTask and a list node for the executors, an array slot for the batch
         * writer), measured on {@link #HEAP_PROBE_ROWS} rows built by the request path, between
         * full collections.
         */
        private double queuedRowBytes() {
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            System.gc();
            long before = memory.getHeapMemoryUsage().getUsed();
            Iterator<AuditRow> rows = new Iterator<>() {
                int i;

                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public AuditRow next() {
                    i++;
                    return handler.audit(-i, requests[i & MASK], System.currentTimeMillis());
                }
            };
            Object held = log.backlogOf(rows, heapProbeRows);
            System.gc();
            long after = memory.getHeapMemoryUsage().getUsed();
            if (held == null) {
                return 0;
            }
            return Math.max(0, after - before) / (double) heapProbeRows;
        }

        @Setup(Level.Iteration)
        public void beginIteration(IterationParams iteration, BenchmarkParams benchmark) throws SQLException {
            begin(iteration.getType() == IterationType.MEASUREMENT, benchmark.getBenchmark().endsWith(".paced"));
        }

        /** A checkpoint, so none falls in the iteration; the paced schedule if {@code paced}; the counters' start. */
        void begin(boolean measured, boolean paced) throws SQLException {
            server.checkpoint();
            measuring = measured;
            start = snapshot(true);
            pacer.begin(paced ? offeredRate : 0);
        }

        /**
         * After the iteration's last request: the backlog, drained, then the iteration's figures from
         * its start to the drain's end, so that each request's work is counted wherever it ran.
         */
        @TearDown(Level.Iteration)
        public void endIteration() throws SQLException {
            long end = System.nanoTime();
            long harnessCpu = THREADS.getCurrentThreadCpuTime();
            pacer.end(end);
            long backlog = log.pending();
            if (!log.drain(DRAIN_TIMEOUT_MS)) {
                throw new IllegalStateException(variant + ": " + log.pending() + " rows still pending after " + DRAIN_TIMEOUT_MS + " ms of drain");
            }
            harnessCpu = THREADS.getCurrentThreadCpuTime() - harnessCpu;
            Snapshot stop = snapshot(false);
            Histogram iterationLatencies = pacer.recorder.getIntervalHistogram();
            if (measuring) {
                latencies.add(iterationLatencies);
                figures.set(start, stop, end, backlog, queuedRowBytes, harnessCpu);
            }
        }

        @TearDown(Level.Trial)
        public void stopServer() throws Exception {
            try {
                check();
            } finally {
                close();
            }
        }

        /**
         * Drains the log and checks that the table holds exactly the requests made less the rows
         * counted as dropped; an IllegalStateException (the fork fails) if not.
         */
        void check() throws SQLException {
            if (!log.drain(DRAIN_TIMEOUT_MS)) {
                throw new IllegalStateException(variant + ": " + log.pending() + " rows still pending after " + DRAIN_TIMEOUT_MS + " ms of drain");
            }
            long rows = AuditTable.count(pool);
            long expected = made.get() - log.dropped();
            if (log.dropped() > 0) {
                System.out.println("# " + variant + " dropped " + log.dropped() + " rows, the first because of " + log.firstFailure());
            }
            if (rows != expected) {
                throw new IllegalStateException(variant + ": " + AuditTable.NAME + " holds " + rows + " rows, but " + made.get()
                        + " requests were made and " + log.dropped() + " rows counted as dropped: " + (expected - rows)
                        + " rows unaccounted for");
            }
        }

        void close() {
            try {
                if (log != null) {
                    log.close();
                }
            } finally {
                try {
                    if (pool != null) {
                        pool.close();
                    }
                } finally {
                    if (ownsServer && server != null) {
                        server.close();
                    }
                }
            }
        }

        /** One request, the next id, through {@code to}. */
        AuditRow send(SendMessageHandler to) {
            long id = made.getAndIncrement();
            return to.send(id, requests[(int) id & MASK], System.currentTimeMillis());
        }

        /**
         * The counters, read with the backlog drained, so every connection is idle: every pooled
         * connection's pending statistics published (so pg_stat_wal counts their WAL syncs), the
         * server's counters read, and the work threads' CPU read last at an iteration's start and
         * first at its end, so that none of this reading's own work falls in the window.
         */
        private Snapshot snapshot(boolean atStart) throws SQLException {
            Map<Long, Long> threadCpu = atStart ? null : threadCpu();
            long waitCpu = pacer.waitCpuNanos.sum();
            List<Connection> all = new ArrayList<>(AuditPool.SIZE);
            try {
                for (int i = 0; i < AuditPool.SIZE; i++) {
                    Connection c = pool.getConnection();
                    all.add(c);
                    server.flushStatistics(c);
                }
            } finally {
                for (Connection c : all) {
                    c.close();
                }
            }
            double serverCpu = server.serverCpuSeconds();
            long walSyncs = server.walSyncs();
            if (atStart) {
                threadCpu = threadCpu();
            }
            return new Snapshot(System.nanoTime(), made.get(), log.committed(), log.callerWrites(), log.callerWaits(), log.dropped(),
                    threadCpu, waitCpu, serverCpu, walSyncs);
        }

        /** CPU nanoseconds of each request thread and each of the log's threads, by id (-1 for one that has ended). */
        private Map<Long, Long> threadCpu() {
            Map<Long, Long> cpu = new HashMap<>();
            for (Thread t : requestThreads) {
                cpu.put(t.getId(), THREADS.getThreadCpuTime(t.getId()));
            }
            for (Thread t : log.threads()) {
                cpu.put(t.getId(), THREADS.getThreadCpuTime(t.getId()));
            }
            return cpu;
        }
    }

    /**
     * Bursts of {@value #BURST} requests made back to back, each splitting, checking and building
     * its row and handing it to the variant; the score is the time a burst takes the request
     * thread. For a queue that time misleads: the rows are not written yet. {@link SaturatedFigures}
     * say when they were (committed rows per second from the burst's start to the end of its
     * drain), how much was left queued, and what each request cost the process, the server and the
     * WAL. Bursts of a fixed size rather than iterations of a fixed time: an unbounded queue fed
     * for a second faster than it drains would take minutes to drain.
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1, batchSize = BURST)
    @Measurement(iterations = 5, batchSize = BURST)
    public AuditRow saturated(Service service, SaturatedFigures counters) {
        return service.send(service.handler);
    }

    /**
     * One request at its turn in a fixed schedule: half of SYNC_INSERT's capacity measured at the
     * fork's start, whatever the variant, so every variant serves the same offered load. Each
     * request's response time runs from its intended start, not from when the thread got to it,
     * so a request held up by a slow one before it counts its wait (no coordinated omission). The
     * score is the rate served, the offered rate when the variant keeps up; {@link PacedFigures}
     * hold the latency percentiles and the other figures.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 5, time = 2)
    public AuditRow paced(Service service, PacedFigures counters) {
        long intended = service.pacer.await();
        AuditRow row = service.send(service.handler);
        service.pacer.done(intended);
        return row;
    }

    /**
     * The paced schedule: request k of an iteration is due at t0 + k / rate, whichever thread takes
     * it. A thread parks until shortly before its request is due and spins the rest, since a park
     * alone wakes 60-90 microseconds late on Linux; the CPU it spends waiting is counted apart, so
     * the figures leave the load generator out.
     */
    static final class Pacer {
        /** Parks end this long before a request is due; the rest is spun. */
        static final long SPIN_NANOS = 100_000;
        /** The first request of an iteration is due this long after its set-up. */
        static final long START_NANOS = 2_000_000;

        final Recorder recorder = new Recorder(3);
        final LongAdder waitCpuNanos = new LongAdder();
        private final AtomicLong next = new AtomicLong();
        volatile long t0;
        private volatile double intervalNanos;

        /** A new schedule at {@code ratePerSecond}; 0 for none (the saturated load). */
        void begin(double ratePerSecond) {
            intervalNanos = ratePerSecond > 0 ? 1e9 / ratePerSecond : 0;
            next.set(0);
            recorder.reset();
            t0 = System.nanoTime() + START_NANOS;
        }

        /** Waits for the next request's turn; its intended start. */
        long await() {
            long intended = t0 + (long) (next.getAndIncrement() * intervalNanos);
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                long cpu = THREADS.getCurrentThreadCpuTime();
                if (wait > SPIN_NANOS) {
                    LockSupport.parkNanos(wait - SPIN_NANOS);
                }
                while (System.nanoTime() < intended) {
                    Thread.onSpinWait();
                }
                waitCpuNanos.add(THREADS.getCurrentThreadCpuTime() - cpu);
            }
            return intended;
        }

        void done(long intended) {
            recorder.recordValue(Math.max(0, System.nanoTime() - intended));
        }

        /**
         * At the iteration's end: requests that were due but never started (the schedule was behind)
         * are recorded with the time they had waited so far, the least their latency would be.
         */
        void end(long endNanos) {
            if (intervalNanos == 0) {
                return;
            }
            long due = (long) Math.floor((endNanos - t0) / intervalNanos) + 1;
            for (long k = next.get(); k < due; k++) {
                recorder.recordValue(Math.max(0, endNanos - (t0 + (long) (k * intervalNanos))));
            }
        }
    }

    /**
     * The counters an iteration's figures are differences of; {@code threadCpu}: CPU nanoseconds
     * of each request thread and each of the log's threads, by thread id (-1 for one that has ended).
     */
    record Snapshot(long nanos, long made, long committed, long callerWrites, long callerWaits, long dropped,
                    Map<Long, Long> threadCpu, long waitCpuNanos, double serverCpuSeconds, long walSyncs) {

        /** CPU the work threads used since {@code earlier}; a thread started since counts from zero. */
        long workCpuSince(Snapshot earlier) {
            long sum = 0;
            for (Map.Entry<Long, Long> e : threadCpu.entrySet()) {
                if (e.getValue() >= 0) {
                    sum += e.getValue() - Math.max(0, earlier.threadCpu.getOrDefault(e.getKey(), 0L));
                }
            }
            return sum;
        }
    }

    /** An iteration's figures (see {@link PacedFigures}), from its start to the end of the drain after it. */
    static final class Figures {
        double committedRowsPerSec;
        double backlogRows;
        double backlogBytes;
        double drainMs;
        double callerWritesPerRequest;
        double callerWaitsPerRequest;
        double droppedPerRequest;
        double cpuUsPerRequest;
        double serverCpuUsPerRequest;
        double walSyncsPerRequest;

        /** {@code harnessCpu}: what this thread spent waiting for the drain, left out with the pacer's waiting. */
        void set(Snapshot a, Snapshot b, long loadEndNanos, long backlog, double queuedRowBytes, long harnessCpu) {
            double requests = Math.max(1, b.made - a.made);
            committedRowsPerSec = (b.committed - a.committed) * 1e9 / (b.nanos - a.nanos);
            backlogRows = backlog;
            backlogBytes = backlog * queuedRowBytes;
            drainMs = Math.max(0, b.nanos - loadEndNanos) / 1e6;
            callerWritesPerRequest = (b.callerWrites - a.callerWrites) / requests;
            callerWaitsPerRequest = (b.callerWaits - a.callerWaits) / requests;
            droppedPerRequest = (b.dropped - a.dropped) / requests;
            cpuUsPerRequest = Math.max(0, b.workCpuSince(a) - (b.waitCpuNanos - a.waitCpuNanos) - harnessCpu) / 1e3 / requests;
            serverCpuUsPerRequest = (b.serverCpuSeconds - a.serverCpuSeconds) * 1e6 / requests;
            walSyncsPerRequest = (b.walSyncs - a.walSyncs) / requests;
        }
    }

    /**
     * The paced load's figures, posted by thread 0 after each measured iteration as
     * {@link EventShares} shares, so that a fork's sum is the figure's mean over its measured
     * iterations. Per iteration, from its start to the end of the drain that follows it:
     * {@code committedRowsPerSec}, rows committed per second (rows in the table, not requests
     * accepted); {@code backlogRows}, rows still queued when the load stopped, {@code backlogBytes}
     * the heap they held and {@code drainMs} how long they took to commit; per request,
     * {@code callerWritesPerRequest} (rows the request thread wrote itself, the queue being full),
     * {@code callerWaitsPerRequest} (times it waited for room), {@code droppedPerRequest},
     * {@code cpuUsPerRequest} (the CPU of the threads that do a request's work: the request threads,
     * less the pacer's waiting, and the log's pool or writer threads; the JIT's and the collector's
     * are left out: at a paced rate of a few hundred requests a second the JIT's compiling of the
     * harness would dominate them), {@code serverCpuUsPerRequest} (the PostgreSQL
     * processes' CPU) and {@code walSyncsPerRequest} (pg_stat_wal's syncs); and per fork:
     * {@code latencyP50Us}, {@code latencyP99Us} and {@code latencyP999Us}, the response-time
     * percentiles of every measured request of the fork from its intended start (posted as the
     * growth of the fork's running percentile, so the sum is the fork's percentile),
     * {@code offeredRatePerSec} and {@code syncUs}.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class PacedFigures {
        public double latencyP50Us;
        public double latencyP99Us;
        public double latencyP999Us;
        public double committedRowsPerSec;
        public double backlogRows;
        public double backlogBytes;
        public double drainMs;
        public double callerWritesPerRequest;
        public double callerWaitsPerRequest;
        public double droppedPerRequest;
        public double cpuUsPerRequest;
        public double serverCpuUsPerRequest;
        public double walSyncsPerRequest;
        public double offeredRatePerSec;
        public double syncUs;

        private double p50;
        private double p99;
        private double p999;

        /** This worker thread makes requests: its CPU counts. */
        @Setup(Level.Trial)
        public void register(Service service) {
            service.requestThreads.add(Thread.currentThread());
        }

        @TearDown(Level.Iteration)
        public void post(Service service, ThreadParams thread, IterationParams iteration, BenchmarkParams params) {
            if (thread.getThreadIndex() != 0 || iteration.getType() != IterationType.MEASUREMENT) {
                return;
            }
            Figures f = service.figures;
            committedRowsPerSec = EventShares.share(f.committedRowsPerSec, params, 1);
            backlogRows = EventShares.share(f.backlogRows, params, 1);
            backlogBytes = EventShares.share(f.backlogBytes, params, 1);
            drainMs = EventShares.share(f.drainMs, params, 1);
            callerWritesPerRequest = EventShares.share(f.callerWritesPerRequest, params, 1);
            callerWaitsPerRequest = EventShares.share(f.callerWaitsPerRequest, params, 1);
            droppedPerRequest = EventShares.share(f.droppedPerRequest, params, 1);
            cpuUsPerRequest = EventShares.share(f.cpuUsPerRequest, params, 1);
            serverCpuUsPerRequest = EventShares.share(f.serverCpuUsPerRequest, params, 1);
            walSyncsPerRequest = EventShares.share(f.walSyncsPerRequest, params, 1);
            offeredRatePerSec = EventShares.share(service.offeredRate, params, 1);
            syncUs = EventShares.share(service.syncUs, params, 1);
            double forks = EventShares.forks(params);
            double n50 = service.latencies.getValueAtPercentile(50) / 1e3;
            double n99 = service.latencies.getValueAtPercentile(99) / 1e3;
            double n999 = service.latencies.getValueAtPercentile(99.9) / 1e3;
            latencyP50Us = (n50 - p50) / forks;
            latencyP99Us = (n99 - p99) / forks;
            latencyP999Us = (n999 - p999) / forks;
            p50 = n50;
            p99 = n99;
            p999 = n999;
        }
    }

    /** The saturated load's figures: those of {@link PacedFigures} without the latencies and the offered rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class SaturatedFigures {
        public double committedRowsPerSec;
        public double backlogRows;
        public double backlogBytes;
        public double drainMs;
        public double callerWritesPerRequest;
        public double callerWaitsPerRequest;
        public double droppedPerRequest;
        public double cpuUsPerRequest;
        public double serverCpuUsPerRequest;
        public double walSyncsPerRequest;
        public double syncUs;

        /** This worker thread makes requests: its CPU counts. */
        @Setup(Level.Trial)
        public void register(Service service) {
            service.requestThreads.add(Thread.currentThread());
        }

        @TearDown(Level.Iteration)
        public void post(Service service, ThreadParams thread, IterationParams iteration, BenchmarkParams params) {
            if (thread.getThreadIndex() != 0 || iteration.getType() != IterationType.MEASUREMENT) {
                return;
            }
            Figures f = service.figures;
            committedRowsPerSec = EventShares.share(f.committedRowsPerSec, params, 1);
            backlogRows = EventShares.share(f.backlogRows, params, 1);
            backlogBytes = EventShares.share(f.backlogBytes, params, 1);
            drainMs = EventShares.share(f.drainMs, params, 1);
            callerWritesPerRequest = EventShares.share(f.callerWritesPerRequest, params, 1);
            callerWaitsPerRequest = EventShares.share(f.callerWaitsPerRequest, params, 1);
            droppedPerRequest = EventShares.share(f.droppedPerRequest, params, 1);
            cpuUsPerRequest = EventShares.share(f.cpuUsPerRequest, params, 1);
            serverCpuUsPerRequest = EventShares.share(f.serverCpuUsPerRequest, params, 1);
            walSyncsPerRequest = EventShares.share(f.walSyncsPerRequest, params, 1);
            syncUs = EventShares.share(service.syncUs, params, 1);
        }
    }
}
