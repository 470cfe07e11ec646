package io.hotpathbench.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * One {@code GET} per key issued asynchronously on one connection that every thread shares (no
 * pool), then every reply awaited: Lettuce writes each command as it is issued and matches replies
 * in order, so a request's commands are in flight together, and other threads' requests interleave
 * with them on the same connection. Lettuce's own I/O threads (Netty) read the replies.
 */
public final class LettuceAsyncReader implements KeyReader {

    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final RedisAsyncCommands<byte[], byte[]> commands;

    public LettuceAsyncReader(String host, int port) {
        client = RedisClient.create(RedisURI.create(host, port));
        try {
            connection = client.connect(ByteArrayCodec.INSTANCE);
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw e;
        }
        commands = connection.async();
    }

    @Override
    public List<byte[]> read(byte[][] keys) {
        List<RedisFuture<byte[]>> futures = new ArrayList<>(keys.length);
        for (byte[] key : keys) {
            futures.add(commands.get(key));
        }
        List<byte[]> values = new ArrayList<>(keys.length);
        try {
            for (RedisFuture<byte[]> future : futures) {
                values.add(future.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException(e);
        } catch (ExecutionException e) {
            throw new RedisException(e.getCause());
        }
        return values;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
