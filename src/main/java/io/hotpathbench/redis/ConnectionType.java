package io.hotpathbench.redis;

/** Where one request's connection comes from, baseline first; both read with one {@code MGET}. */
public enum ConnectionType {
    /** A new Jedis connection opened for the request and closed after it. */
    PER_REQUEST {
        @Override
        public KeyReader create(String host, int port) {
            return new PerRequestReader(host, port);
        }
    },
    /** A connection borrowed from a {@code JedisPool} with the write-up's settings and returned after the request. */
    POOLED {
        @Override
        public KeyReader create(String host, int port) {
            return new MgetReader(JedisPools.writeUp(host, port));
        }
    };

    public abstract KeyReader create(String host, int port);
}
