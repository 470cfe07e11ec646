package io.hotpathbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * A seeded key space of feature records, as a recommendation service keeps them in Redis: keys
 * {@code feature:0000000} to {@code feature:<keys - 1>}, each holding {@code valueBytes} random
 * bytes. Key {@code i}'s value comes from a generator seeded by {@code seed} and {@code i}, so
 * {@link #value} gives it again without holding the whole space in the client's memory, and the
 * contents do not depend on the order of the load.
 */
public final class FeatureStore {

    /** Records per {@code MSET} while loading, and {@code MSET}s per pipeline flush: 1,000 records, at most 16 MB, per flush. */
    private static final int PER_MSET = 100;
    private static final int MSETS_PER_FLUSH = 10;

    private static final byte[] PREFIX = "feature:".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGITS = 7;

    private final int keys;
    private final int valueBytes;
    private final long valueSeed;
    private final long requestSeed;

    public FeatureStore(int keys, int valueBytes, long seed) {
        if (keys <= 0 || valueBytes <= 0) {
            throw new IllegalArgumentException("keys and valueBytes must be positive: " + keys + ", " + valueBytes);
        }
        this.keys = keys;
        this.valueBytes = valueBytes;
        SplittableRandom random = new SplittableRandom(seed);
        this.valueSeed = random.nextLong();
        this.requestSeed = random.nextLong();
    }

    public int keys() {
        return keys;
    }

    public int valueBytes() {
        return valueBytes;
    }

    /** The key of record {@code i}; any non-negative {@code i}, also past the stored ones (a missing key). */
    public static byte[] key(int i) {
        if (i < 0) {
            throw new IllegalArgumentException("negative record index " + i);
        }
        // Written digit by digit: String.format took a second of every million-key load.
        int digits = Math.max(DIGITS, Integer.toString(i).length());
        byte[] key = Arrays.copyOf(PREFIX, PREFIX.length + digits);
        for (int d = key.length - 1, rest = i; d >= PREFIX.length; d--, rest /= 10) {
            key[d] = (byte) ('0' + rest % 10);
        }
        return key;
    }

    /** The value stored under {@link #key key(i)}, for {@code 0 <= i < keys}. */
    public byte[] value(int i) {
        byte[] value = new byte[valueBytes];
        new SplittableRandom(valueSeed + i).nextBytes(value);
        return value;
    }

    /**
     * Empties the server's database and writes every record: {@code MSET}s of {@value #PER_MSET}
     * records, {@value #MSETS_PER_FLUSH} of them pipelined per flush, so the load costs few
     * commands and round trips.
     */
    public void load(Jedis jedis) {
        jedis.flushAll();
        int batch = PER_MSET * MSETS_PER_FLUSH;
        for (int from = 0; from < keys; from += batch) {
            Pipeline pipeline = jedis.pipelined();
            for (int first = from; first < Math.min(keys, from + batch); first += PER_MSET) {
                int last = Math.min(keys, first + PER_MSET);
                byte[][] pairs = new byte[2 * (last - first)][];
                for (int i = first; i < last; i++) {
                    pairs[2 * (i - first)] = key(i);
                    pairs[2 * (i - first) + 1] = value(i);
                }
                pipeline.mset(pairs);
            }
            pipeline.sync();
        }
        long stored = jedis.dbSize();
        if (stored != keys) {
            throw new IllegalStateException("the server holds " + stored + " keys after loading " + keys);
        }
    }

    /**
     * {@code requests} requests of {@code keysPerRequest} stored keys each, drawn uniformly from the
     * key space by a generator seeded from the store's seed: the same keys for every variant.
     */
    public byte[][][] requests(int requests, int keysPerRequest) {
        SplittableRandom random = new SplittableRandom(requestSeed);
        byte[][][] out = new byte[requests][keysPerRequest][];
        for (byte[][] request : out) {
            for (int k = 0; k < keysPerRequest; k++) {
                request[k] = key(random.nextInt(keys));
            }
        }
        return out;
    }
}
