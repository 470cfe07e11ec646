package io.hotpathbench.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/** The "before": one {@code GET} per key on a pooled connection, each a round trip of its own. */
public final class GetEachReader implements KeyReader {

    private final JedisPool pool;

    public GetEachReader(JedisPool pool) {
        this.pool = pool;
    }

    @Override
    public List<byte[]> read(byte[][] keys) {
        try (Jedis jedis = pool.getResource()) {
            List<byte[]> values = new ArrayList<>(keys.length);
            for (byte[] key : keys) {
                values.add(jedis.get(key));
            }
            return values;
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
