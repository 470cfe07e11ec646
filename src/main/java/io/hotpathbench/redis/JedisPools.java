package io.hotpathbench.redis;

import java.time.Duration;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

/** The Jedis settings every reader uses: the client's defaults, and the write-up's pool. */
final class JedisPools {

    /** Jedis's defaults (RESP2, 2 s timeouts, the client library's name and version sent on connect), for pooled and per-request connections alike. */
    static final JedisClientConfig CLIENT = DefaultJedisClientConfig.builder().build();

    private JedisPools() {
    }

    /**
     * A pool with the write-up's settings (max-active 500, max-idle 300, min-idle 100, max-wait
     * 3,000 ms) on Jedis's pool defaults otherwise, filled to its 100 idle connections before it is
     * returned, as a service's pool is once it has run a while: the background evictor would
     * otherwise open them during a measurement.
     */
    static JedisPool writeUp(String host, int port) {
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(500);
        config.setMaxIdle(300);
        config.setMinIdle(100);
        config.setMaxWait(Duration.ofMillis(3_000));
        JedisPool pool = new JedisPool(config, new HostAndPort(host, port), CLIENT);
        try {
            pool.preparePool();
        } catch (Exception e) {
            pool.close();
            throw new IllegalStateException("could not open the pool's idle connections to " + host + ":" + port, e);
        }
        return pool;
    }
}
