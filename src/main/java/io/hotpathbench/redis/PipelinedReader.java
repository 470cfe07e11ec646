package io.hotpathbench.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * One {@code GET} per key, all written before any reply is read (a Jedis pipeline on a pooled
 * connection): the server runs the same commands as {@link GetEachReader}'s, in one round trip.
 */
public final class PipelinedReader implements KeyReader {

    private final JedisPool pool;

    public PipelinedReader(JedisPool pool) {
        this.pool = pool;
    }

    @Override
    public List<byte[]> read(byte[][] keys) {
        try (Jedis jedis = pool.getResource()) {
            Pipeline pipeline = jedis.pipelined();
            List<Response<byte[]>> responses = new ArrayList<>(keys.length);
            for (byte[] key : keys) {
                responses.add(pipeline.get(key));
            }
            pipeline.sync();
            List<byte[]> values = new ArrayList<>(keys.length);
            for (Response<byte[]> response : responses) {
                values.add(response.get());
            }
            return values;
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
