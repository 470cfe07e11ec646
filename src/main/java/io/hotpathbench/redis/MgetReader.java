package io.hotpathbench.redis;

import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * One {@code MGET} of all keys on a pooled connection: one round trip, the write-up's
 * {@code multiGet}. On its 32-shard cluster a {@code multiGet} splits into one request per hash
 * slot, so one node's {@code MGET} is the most that batching can save there.
 */
public final class MgetReader implements KeyReader {

    private final JedisPool pool;

    public MgetReader(JedisPool pool) {
        this.pool = pool;
    }

    @Override
    public List<byte[]> read(byte[][] keys) {
        try (Jedis jedis = pool.getResource()) {
            return jedis.mget(keys);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
