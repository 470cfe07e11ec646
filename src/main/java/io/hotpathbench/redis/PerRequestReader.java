package io.hotpathbench.redis;

import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * One {@code MGET} on a connection opened for the request and closed after it: a TCP connect, the
 * client's greeting (Jedis sends its library name and version) and a close on every request, the
 * connection-level version of building a validator per call.
 */
public final class PerRequestReader implements KeyReader {

    private final HostAndPort server;

    public PerRequestReader(String host, int port) {
        this.server = new HostAndPort(host, port);
    }

    @Override
    public List<byte[]> read(byte[][] keys) {
        try (Jedis jedis = new Jedis(server, JedisPools.CLIENT)) {
            return jedis.mget(keys);
        }
    }

    @Override
    public void close() {
    }
}
