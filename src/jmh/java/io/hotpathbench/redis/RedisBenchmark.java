package io.hotpathbench.redis;

import io.hotpathbench.BenchmarkDefaults;
import io.hotpathbench.EventShares;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;
import redis.clients.jedis.Jedis;

/**
 * Requests that read {@code keysPerRequest} feature records of {@code valueBytes} each from a real
 * Redis server that every fork starts on a free loopback port ({@link LocalRedis}: the
 * {@code redis-server} on the {@code PATH}, else the one embedded-redis ships) and fills, pipelined,
 * with a seeded key space ({@link FeatureStore}) before measuring; the requests' keys are drawn from
 * it with the same seed for every variant. Two pairs, each picking its variant with its own
 * {@code variant}: how a request reads its keys ({@code batched}: one {@code GET} per key, the
 * write-up's "before", against one {@code MGET}, one pipeline of {@code GET}s, and asynchronous
 * {@code GET}s on one shared Lettuce connection), and where its connection comes from
 * ({@code connection}: opened and closed per request against borrowed from a {@code JedisPool} with
 * the write-up's settings, each request one {@code MGET}). Every variant returns the same values
 * ({@code RedisTest}, against a running server). Scores are requests per second; beside them the
 * JSON holds {@code serverCpuUsPerOp}, the server's CPU per request from {@code INFO cpu}, so a gain
 * can be placed on the client's side or the server's. A loopback round trip has no network in it:
 * what is measured is the client's and the server's work per round trip and how many round trips a
 * request makes, not a cluster across a network (docs/redis.md shows how the gain grows with a
 * network's round-trip time). Client threads are set with {@code -Djmh.t} (1 by default; 2 for a
 * busy service's request threads); with two client threads on this 2-core machine the server
 * shares their cores, so its CPU per request is then part of what limits the client's rate. Run
 * with {@code mvn jmh:run -Djmh.include=Redis} (add {@code -Djmh.quick} for a short check).
 */
@OutputTimeUnit(TimeUnit.SECONDS)
// From the pilot (results/pilot/, one quick trial of every configuration): a fork's start, the
// server's start and the load of the key space cost 4-6 s before the first iteration (4 s at 100 B,
// about 6 s at 1 KiB), and a fork's one measured 1 s iteration came out 0.6x to 1.9x of its one
// 1 s warm-up: single loopback iterations wander. So forks, not long iterations, carry the
// replication: five trials (min_trials in redis.json; @Fork, JMH's default 5), three 1 s warm-ups, five 1 s
// measured iterations to average the wandering within a fork; a batched trial (four forks) then
// costs about 55 s and a connection trial about 27 s.
@Fork(value = 5, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RedisBenchmark extends BenchmarkDefaults {

    /** Requests drawn per trial and cycled by every thread: at 100 keys, 409,600 keys of 15 bytes, about 13 MB of heap. */
    static final int REQUESTS = 4096;
    private static final int MASK = REQUESTS - 1;

    /** At most 1M keys: a service-sized key space, far larger than the server's CPU caches... */
    static final int MAX_KEYS = 1 << 20;

    /**
     * ...and at most 1 GiB of values: 1M keys at 100 B and 1 KiB, 65,536 keys at 16 KiB. The
     * server then holds about 1.3 GiB at most (values rounded up to the allocator's size classes,
     * plus the key, entry and object headers of each key: used_memory measured 0.18, 1.32 and
     * 1.26 GiB after loading the three sizes), beside this fork's 1 GiB heap: under 3 GiB of the
     * machine's 24, where 1M keys at 16 KiB (16 GiB of values, about 20 GiB in the allocator)
     * would not fit beside anything. The gap between the sizes' key counts changes how much of the
     * server's dictionary a request touches, equally for every variant of a configuration.
     */
    static final long MAX_VALUE_BYTES = 1L << 30;

    /** The key count of the store for {@code valueBytes}-byte values. */
    static int keysFor(int valueBytes) {
        return (int) Math.min(MAX_KEYS, MAX_VALUE_BYTES / valueBytes);
    }

    /**
     * The server, its key space, the requests and the reader under test, shared by the client
     * threads of one trial, and the bookkeeping of the server CPU figure.
     */
    @State(Scope.Benchmark)
    public abstract static class Store {

        /**
         * 2, the write-up's "at least twice per request", where batching saves one round trip of
         * two; 10, the headline, a request's handful of feature records; 100, a fan-out where the
         * per-key cost of parsing and copying starts to weigh against the round trips saved.
         */
        @Param({"2", "10", "100"})
        int keysPerRequest;

        /**
         * 100 B, a few counters or an id list, where a request's cost is almost all round trips;
         * 1 KiB, a feature record (the headline); 16 KiB, an embedding or a cached page fragment,
         * where copying the bytes on both sides starts to matter.
         */
        @Param({"100", "1024", "16384"})
        int valueBytes;

        @Param("42")
        long seed;

        /** The trial's own server; null when a test lends the store one of its own. */
        LocalRedis server;
        Jedis admin;
        byte[][][] requests;
        KeyReader reader;
        /** Requests made, counted for the server CPU figure (a LongAdder cell per thread: a few ns per request). */
        final LongAdder served = new LongAdder();
        boolean measuring;
        long servedAtStart;
        double cpuAtStart;
        double iterationServerCpuUsPerOp;

        abstract KeyReader createReader(String host, int port);

        /** Starts this trial's server, loads it and builds the reader; the reason in one line if no server can start. */
        void startServer() throws LocalRedis.Unavailable {
            server = LocalRedis.start();
            System.out.println("# " + server.describe());
            open(server.port(), keysFor(valueBytes));
        }

        /** Loads {@code keys} records into the server on {@code port} and builds the reader. */
        void open(int port, int keys) {
            admin = new Jedis(LocalRedis.HOST, port);
            FeatureStore store = new FeatureStore(keys, valueBytes, seed);
            store.load(admin);
            requests = store.requests(REQUESTS, keysPerRequest);
            reader = createReader(LocalRedis.HOST, port);
        }

        void close() {
            try {
                if (reader != null) {
                    reader.close();
                }
                if (admin != null) {
                    admin.close();
                }
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }

        /** Before the iteration's first request (one thread, while the others wait): the start of the server CPU window. */
        void mark(boolean measured) {
            measuring = measured;
            if (measuring) {
                servedAtStart = served.sum();
                cpuAtStart = ServerCpu.seconds(admin);
            }
        }

        /** Server CPU per request since {@link #mark}, in microseconds. */
        double serverCpuUsPerOp() {
            long requestsServed = served.sum() - servedAtStart;
            double cpuSeconds = ServerCpu.seconds(admin) - cpuAtStart;
            return requestsServed == 0 ? 0 : cpuSeconds * 1e6 / requestsServed;
        }

        /**
         * After the iteration's last request (one thread, once every thread has left the iteration,
         * warm-up and wind-down requests of a multi-threaded iteration included): the end of the
         * window. Read here rather than in the counters' tear-down, which another thread's trial
         * tear-down, closing the server, can overtake.
         */
        void endIteration() {
            if (measuring) {
                iterationServerCpuUsPerOp = serverCpuUsPerOp();
            }
        }

        /**
         * What thread {@code thread} posts as {@code serverCpuUsPerOp} for the iteration that just
         * ended: thread 0 posts the window's CPU per request as an {@link EventShares} share, the
         * others 0.
         */
        double serverCpuShare(ThreadParams thread, BenchmarkParams params) {
            if (!measuring || thread.getThreadIndex() != 0) {
                return 0;
            }
            return EventShares.share(iterationServerCpuUsPerOp, params, 1);
        }
    }

    /** The {@code batched} pair's store and reader. */
    @State(Scope.Benchmark)
    public static class Batched extends Store {

        @Param
        BatchingType variant;

        @Override
        KeyReader createReader(String host, int port) {
            return variant.create(host, port);
        }

        @Setup(Level.Trial)
        public void start() throws LocalRedis.Unavailable {
            startServer();
        }

        @Setup(Level.Iteration)
        public void iteration(IterationParams iteration) {
            mark(iteration.getType() == IterationType.MEASUREMENT);
        }

        @TearDown(Level.Iteration)
        public void iterationEnd() {
            endIteration();
        }

        @TearDown(Level.Trial)
        public void stop() {
            close();
        }
    }

    /** The {@code connection} pair's store and reader. */
    @State(Scope.Benchmark)
    public static class Connections extends Store {

        @Param
        ConnectionType variant;

        @Override
        KeyReader createReader(String host, int port) {
            return variant.create(host, port);
        }

        @Setup(Level.Trial)
        public void start() throws LocalRedis.Unavailable {
            startServer();
        }

        @Setup(Level.Iteration)
        public void iteration(IterationParams iteration) {
            mark(iteration.getType() == IterationType.MEASUREMENT);
        }

        @TearDown(Level.Iteration)
        public void iterationEnd() {
            endIteration();
        }

        @TearDown(Level.Trial)
        public void stop() {
            close();
        }
    }

    /** One client thread's position in the requests; threads start spread over them. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        @Setup(Level.Trial)
        public void start(ThreadParams thread) {
            next = thread.getThreadIndex() * (REQUESTS / thread.getThreadCount());
        }
    }

    /** Puts {@code batched}'s server CPU per request into the results as {@link EventShares} describes. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class BatchedServerCpu {

        /** The Redis server's CPU (user + system, all its threads) per request, in microseconds. */
        public double serverCpuUsPerOp;

        @TearDown(Level.Iteration)
        public void post(Batched store, ThreadParams thread, BenchmarkParams params) {
            serverCpuUsPerOp = store.serverCpuShare(thread, params);
        }
    }

    /** Puts {@code connection}'s server CPU per request into the results as {@link EventShares} describes. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class ConnectionServerCpu {

        /** The Redis server's CPU (user + system, all its threads) per request, in microseconds. */
        public double serverCpuUsPerOp;

        @TearDown(Level.Iteration)
        public void post(Connections store, ThreadParams thread, BenchmarkParams params) {
            serverCpuUsPerOp = store.serverCpuShare(thread, params);
        }
    }

    /**
     * One request's {@code keysPerRequest} values read through the variant's reader, in requests
     * per second: {@code GET_EACH} makes {@code keysPerRequest} round trips, {@code MGET} and
     * {@code PIPELINED} one, {@code LETTUCE_ASYNC} has all its {@code GET}s in flight at once on a
     * connection shared with the other threads. The Jedis variants borrow a pooled connection per
     * request, as the write-up's {@code redisTemplate} did, so only the batching differs.
     */
    @Benchmark
    public List<byte[]> batched(Batched store, Cursor cursor, BatchedServerCpu cpu) {
        store.served.increment();
        return store.reader.read(store.requests[cursor.next++ & MASK]);
    }

    /**
     * One request's values read with one {@code MGET}, in requests per second, on a connection
     * opened and closed for the request ({@code PER_REQUEST}: TCP connect, Jedis's greeting, the
     * {@code MGET}, close) or borrowed from the pool and returned ({@code POOLED}: the {@code MGET}
     * alone). The pair's question is the cost of a connection against one round trip; the request's
     * size is the batched pair's subject.
     */
    @Benchmark
    public List<byte[]> connection(Connections store, Cursor cursor, ConnectionServerCpu cpu) {
        store.served.increment();
        return store.reader.read(store.requests[cursor.next++ & MASK]);
    }
}
