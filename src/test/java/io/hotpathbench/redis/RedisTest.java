package io.hotpathbench.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotpathbench.ParamValues;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Every variant against one real Redis server started for the class (a server that cannot start
 * fails the class in CI, where CI=true, and skips it elsewhere with the reason). Nothing here times
 * anything.
 */
class RedisTest {

    /** The benchmark's configurations, read from its @Param annotations. */
    private static final int[] KEYS_PER_REQUEST = ParamValues.ints(RedisBenchmark.Store.class, "keysPerRequest");
    private static final int[] VALUE_BYTES = ParamValues.ints(RedisBenchmark.Store.class, "valueBytes");
    private static final long[] SEEDS = ParamValues.longs(RedisBenchmark.Store.class, "seed");

    /** A smaller key space than the benchmark's (the same code loads it), so every configuration loads in a fraction of a second. */
    private static final int KEYS = 1024;
    /** Requests checked per configuration, through the benchmark method. */
    private static final int CHECKED = 64;

    private static LocalRedis server;
    private static Jedis admin;

    @BeforeAll
    static void startServer() {
        try {
            server = LocalRedis.start();
        } catch (LocalRedis.Unavailable e) {
            if ("true".equals(System.getenv("CI"))) {
                fail(e.getMessage());
            }
            Assumptions.abort(e.getMessage());
        }
        admin = new Jedis(LocalRedis.HOST, server.port());
    }

    @AfterAll
    static void stopServer() {
        if (admin != null) {
            admin.close();
        }
        if (server != null) {
            ProcessHandle process = server.serverProcess().orElseThrow();
            server.close();
            assertFalse(process.isAlive(), "redis-server still runs after close()");
        }
    }

    /** The benchmark's own state and method, for every configuration, against GET_EACH's answers and the stored values. */
    @ParameterizedTest
    @EnumSource(BatchingType.class)
    void everyBatchingVariantReadsWhatGetEachReads(BatchingType variant) {
        for (int keysPerRequest : KEYS_PER_REQUEST) {
            for (int valueBytes : VALUE_BYTES) {
                for (long seed : SEEDS) {
                    RedisBenchmark.Batched state = new RedisBenchmark.Batched();
                    state.variant = variant;
                    configure(state, keysPerRequest, valueBytes, seed);
                    assertReadsAsBaseline(variant, state, BatchingType.GET_EACH.create(LocalRedis.HOST, server.port()),
                            c -> new RedisBenchmark().batched(state, c, null));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ConnectionType.class)
    void everyConnectionVariantReadsWhatAConnectionPerRequestReads(ConnectionType variant) {
        for (int keysPerRequest : KEYS_PER_REQUEST) {
            for (int valueBytes : VALUE_BYTES) {
                for (long seed : SEEDS) {
                    RedisBenchmark.Connections state = new RedisBenchmark.Connections();
                    state.variant = variant;
                    configure(state, keysPerRequest, valueBytes, seed);
                    assertReadsAsBaseline(variant, state, ConnectionType.PER_REQUEST.create(LocalRedis.HOST, server.port()),
                            c -> new RedisBenchmark().connection(state, c, null));
                }
            }
        }
    }

    /** A key the server does not hold reads as null in its place, between stored ones, for every variant. */
    @ParameterizedTest
    @EnumSource(BatchingType.class)
    void missingKeysReadAsNullInTheirPlace(BatchingType variant) {
        FeatureStore store = loaded(16, 100);
        byte[][] keys = {FeatureStore.key(3), FeatureStore.key(16), FeatureStore.key(5), FeatureStore.key(1_000_000)};
        try (KeyReader reader = variant.create(LocalRedis.HOST, server.port())) {
            List<byte[]> values = reader.read(keys);
            assertEquals(4, values.size());
            assertArrayEquals(store.value(3), values.get(0));
            assertNull(values.get(1));
            assertArrayEquals(store.value(5), values.get(2));
            assertNull(values.get(3));
            assertNull(reader.read(new byte[][] {FeatureStore.key(99)}).get(0));
        }
    }

    @ParameterizedTest
    @EnumSource(ConnectionType.class)
    void missingKeysReadAsNullOnEveryConnection(ConnectionType variant) {
        FeatureStore store = loaded(16, 100);
        try (KeyReader reader = variant.create(LocalRedis.HOST, server.port())) {
            List<byte[]> values = reader.read(new byte[][] {FeatureStore.key(20), FeatureStore.key(7)});
            assertNull(values.get(0));
            assertArrayEquals(store.value(7), values.get(1));
        }
    }

    /** One key, and the same key twice in one request. */
    @ParameterizedTest
    @EnumSource(BatchingType.class)
    void oneKeyAndARepeatedKey(BatchingType variant) {
        FeatureStore store = loaded(16, 1024);
        try (KeyReader reader = variant.create(LocalRedis.HOST, server.port())) {
            List<byte[]> one = reader.read(new byte[][] {FeatureStore.key(9)});
            assertEquals(1, one.size());
            assertArrayEquals(store.value(9), one.get(0));
            List<byte[]> twice = reader.read(new byte[][] {FeatureStore.key(2), FeatureStore.key(2)});
            assertArrayEquals(store.value(2), twice.get(0));
            assertArrayEquals(store.value(2), twice.get(1));
        }
    }

    /**
     * What each variant asks of the server per request of N keys, from INFO commandstats: N GETs
     * (GET_EACH, PIPELINED, LETTUCE_ASYNC) or one MGET, and nothing else once the reader exists.
     */
    @ParameterizedTest
    @EnumSource(BatchingType.class)
    void commandsPerRequest(BatchingType variant) {
        loaded(64, 100);
        int keys = 10;
        int requests = 20;
        byte[][] request = new byte[keys][];
        for (int k = 0; k < keys; k++) {
            request[k] = FeatureStore.key(k);
        }
        try (KeyReader reader = variant.create(LocalRedis.HOST, server.port())) {
            reader.read(request);
            Map<String, Long> before = commandCalls();
            for (int r = 0; r < requests; r++) {
                reader.read(request);
            }
            Map<String, Long> after = commandCalls();
            long gets = after.getOrDefault("get", 0L) - before.getOrDefault("get", 0L);
            long mgets = after.getOrDefault("mget", 0L) - before.getOrDefault("mget", 0L);
            long all = total(after) - total(before) - 1;  // less the first INFO commandstats
            if (variant == BatchingType.MGET) {
                assertEquals(requests, mgets, "MGETs");
                assertEquals(requests, all, "commands in all");
            } else {
                assertEquals((long) requests * keys, gets, "GETs");
                assertEquals((long) requests * keys, all, "commands in all");
            }
        }
    }

    /** PER_REQUEST opens one connection per request; POOLED opens none once the pool is filled, however many requests. */
    @ParameterizedTest
    @EnumSource(ConnectionType.class)
    void connectionsOpenedPerRequest(ConnectionType variant) {
        loaded(16, 100);
        byte[][] request = {FeatureStore.key(1), FeatureStore.key(2)};
        int requests = 50;
        try (KeyReader reader = variant.create(LocalRedis.HOST, server.port())) {
            reader.read(request);
            long before = connectionsReceived();
            for (int r = 0; r < requests; r++) {
                reader.read(request);
            }
            long opened = connectionsReceived() - before;
            assertEquals(variant == ConnectionType.PER_REQUEST ? requests : 0, opened);
        }
    }

    /** The pool is filled to the write-up's min-idle of 100 up front and serves concurrent requests from it. */
    @Test
    void thePoolServesConcurrentRequestsFromItsIdleConnections() throws Exception {
        FeatureStore store = loaded(16, 100);
        long before = connectionsReceived();
        try (KeyReader reader = ConnectionType.POOLED.create(LocalRedis.HOST, server.port())) {
            assertEquals(100, connectionsReceived() - before, "connections opened by the pool");
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int key = t;
                    results.add(threads.submit(() -> {
                        for (int r = 0; r < 200; r++) {
                            if (!Arrays.equals(store.value(key), reader.read(new byte[][] {FeatureStore.key(key)}).get(0))) {
                                return false;
                            }
                        }
                        return true;
                    }));
                }
                for (Future<Boolean> result : results) {
                    assertTrue(result.get(30, TimeUnit.SECONDS));
                }
            } finally {
                threads.shutdownNow();
            }
            assertEquals(100, connectionsReceived() - before, "connections opened in all");
        }
    }

    /** The server CPU figure counts the requests made since the mark and the CPU the server spent on them. */
    @Test
    void serverCpuPerRequestIsPositiveAndCountsEveryRequest() {
        RedisBenchmark.Batched state = new RedisBenchmark.Batched();
        state.variant = BatchingType.GET_EACH;
        state.keysPerRequest = 10;
        state.valueBytes = 100;
        state.seed = 42;
        state.open(server.port(), KEYS);
        try {
            RedisBenchmark.Cursor cursor = new RedisBenchmark.Cursor();
            state.mark(true);
            for (int r = 0; r < 500; r++) {
                new RedisBenchmark().batched(state, cursor, null);
            }
            assertEquals(500, state.served.sum() - state.servedAtStart);
            double perRequest = state.serverCpuUsPerOp();
            assertTrue(perRequest > 0 && perRequest < 100_000, "server CPU per request " + perRequest + " us");
        } finally {
            state.close();
        }
    }

    @Test
    void serverCpuParsesInfoCpu() {
        String info = "# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:0.500000\r\nused_cpu_sys_children:9.0\r\n";
        assertEquals(1.75, ServerCpu.parse(info), 1e-9);
        assertTrue(ServerCpu.seconds(admin) > 0);
    }

    /** Loopback only, nothing persisted, and the version and binary known for the run's log. */
    @Test
    void theServerIsLoopbackOnlyAndPersistsNothing() {
        assertEquals("127.0.0.1", admin.configGet("bind").get("bind"));
        assertEquals("", admin.configGet("save").get("save"));
        assertEquals("no", admin.configGet("appendonly").get("appendonly"));
        assertTrue(server.version().matches("\\d+\\.\\d+\\.\\d+.*"), server.version());
        assertTrue(server.describe().contains(server.version()) && server.describe().contains(":" + server.port()));
        assertNotNull(server.source());
    }

    /**
     * The watchdog stops the server when the JVM that started it dies without running any hook
     * (SIGKILL): a `sleep` stands in for that JVM here, and is killed.
     */
    @Test
    void theWatchdogStopsTheServerWhenItsParentIsKilled() throws Exception {
        Process parent = new ProcessBuilder("sleep", "60").start();
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LocalRedis.HOST))) {
            port = socket.getLocalPort();
        }
        Process watchdog = new ProcessBuilder("/bin/sh", "-c", LocalRedis.WATCHDOG, "hpb-redis-watchdog",
                Long.toString(parent.pid()), server.binary().toString(), "--bind", LocalRedis.HOST,
                "--port", Integer.toString(port), "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            ProcessHandle redis = awaitChild(watchdog);
            parent.destroyForcibly();
            assertTrue(watchdog.waitFor(10, TimeUnit.SECONDS), "the watchdog did not exit after its parent died");
            redis.onExit().get(5, TimeUnit.SECONDS);
            assertFalse(redis.isAlive(), "redis-server outlived the watchdog's parent");
        } finally {
            parent.destroyForcibly();
            watchdog.descendants().forEach(ProcessHandle::destroyForcibly);
            watchdog.destroyForcibly();
        }
    }

    /** A second server of its own stops when closed, and closing again does nothing. */
    @Test
    void closeStopsTheServer() throws Exception {
        LocalRedis other = LocalRedis.start();
        ProcessHandle process = other.serverProcess().orElseThrow();
        try (Jedis jedis = new Jedis(LocalRedis.HOST, other.port())) {
            assertEquals("PONG", jedis.ping());
        }
        other.close();
        assertFalse(process.isAlive());
        other.close();
    }

    @Test
    void keySpaceStaysWithinItsMemoryBudget() {
        for (int valueBytes : VALUE_BYTES) {
            int keys = RedisBenchmark.keysFor(valueBytes);
            assertTrue(keys <= RedisBenchmark.MAX_KEYS && (long) keys * valueBytes <= RedisBenchmark.MAX_VALUE_BYTES, "valueBytes " + valueBytes);
        }
        assertEquals(RedisBenchmark.MAX_KEYS, RedisBenchmark.keysFor(1024));
    }

    @Test
    void keysAreZeroPaddedIndexes() {
        assertEquals("feature:0000000", new String(FeatureStore.key(0), StandardCharsets.US_ASCII));
        assertEquals("feature:1048575", new String(FeatureStore.key(1_048_575), StandardCharsets.US_ASCII));
        assertEquals("feature:12345678", new String(FeatureStore.key(12_345_678), StandardCharsets.US_ASCII));
    }

    @Test
    void sameValuesAndRequestsForTheSameSeed() {
        FeatureStore a = new FeatureStore(1000, 100, 7);
        FeatureStore b = new FeatureStore(1000, 100, 7);
        assertArrayEquals(a.value(123), b.value(123));
        assertFalse(Arrays.equals(a.value(123), new FeatureStore(1000, 100, 8).value(123)));
        byte[][][] ra = a.requests(8, 10);
        byte[][][] rb = b.requests(8, 10);
        for (int i = 0; i < ra.length; i++) {
            for (int k = 0; k < ra[i].length; k++) {
                assertArrayEquals(ra[i][k], rb[i][k]);
                assertTrue(index(ra[i][k]) < 1000);
            }
        }
    }

    private static void configure(RedisBenchmark.Store state, int keysPerRequest, int valueBytes, long seed) {
        state.keysPerRequest = keysPerRequest;
        state.valueBytes = valueBytes;
        state.seed = seed;
    }

    /**
     * Opens the state on the class's server with {@link #KEYS} keys, then for {@link #CHECKED}
     * requests compares what the benchmark method returns with what the baseline reader and the
     * store hold.
     */
    private static void assertReadsAsBaseline(Enum<?> variant, RedisBenchmark.Store state, KeyReader baseline,
                                              Function<RedisBenchmark.Cursor, List<byte[]>> benchmark) {
        String config = variant + " keysPerRequest=" + state.keysPerRequest + " valueBytes=" + state.valueBytes + " seed=" + state.seed;
        state.open(server.port(), KEYS);
        FeatureStore store = new FeatureStore(KEYS, state.valueBytes, state.seed);
        try (baseline) {
            RedisBenchmark.Cursor cursor = new RedisBenchmark.Cursor();
            for (int r = 0; r < CHECKED; r++) {
                byte[][] keys = state.requests[r];
                List<byte[]> expected = baseline.read(keys);
                List<byte[]> actual = benchmark.apply(cursor);
                assertEquals(state.keysPerRequest, actual.size(), config);
                for (int k = 0; k < keys.length; k++) {
                    assertArrayEquals(store.value(index(keys[k])), expected.get(k), config + " baseline, request " + r + " key " + k);
                    assertArrayEquals(expected.get(k), actual.get(k), config + " request " + r + " key " + k);
                }
            }
            assertEquals(CHECKED, state.served.sum(), config);
        } finally {
            state.close();
        }
    }

    private static FeatureStore loaded(int keys, int valueBytes) {
        FeatureStore store = new FeatureStore(keys, valueBytes, 42);
        store.load(admin);
        return store;
    }

    private static int index(byte[] key) {
        String text = new String(key, StandardCharsets.US_ASCII);
        return Integer.parseInt(text.substring(text.indexOf(':') + 1));
    }

    /** Calls per command since the server started, from INFO commandstats ("cmdstat_get:calls=12,..."). */
    private static Map<String, Long> commandCalls() {
        Map<String, Long> calls = new HashMap<>();
        for (String line : admin.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                String count = line.substring(line.indexOf("calls=") + "calls=".length());
                calls.put(name, Long.parseLong(count.substring(0, count.indexOf(','))));
            }
        }
        return calls;
    }

    private static long total(Map<String, Long> calls) {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long connectionsReceived() {
        for (String line : admin.info("stats").split("\r?\n")) {
            if (line.startsWith("total_connections_received:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no total_connections_received in INFO stats");
    }

    /** The watchdog's redis-server child, once it runs. */
    private static ProcessHandle awaitChild(Process watchdog) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            var child = watchdog.children().filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false)).findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            Thread.sleep(25);
        }
        throw new AssertionError("the watchdog started no redis-server");
    }
}
