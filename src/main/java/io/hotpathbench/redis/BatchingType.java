package io.hotpathbench.redis;

/** How one request reads its keys, baseline first; each builds its {@link KeyReader} for a server. */
public enum BatchingType {
    /** One {@code GET} per key, one round trip each, on a pooled Jedis connection: the write-up's "before". */
    GET_EACH {
        @Override
        public KeyReader create(String host, int port) {
            return new GetEachReader(JedisPools.writeUp(host, port));
        }
    },
    /** One {@code MGET} of all keys on a pooled Jedis connection: the write-up's {@code multiGet}. */
    MGET {
        @Override
        public KeyReader create(String host, int port) {
            return new MgetReader(JedisPools.writeUp(host, port));
        }
    },
    /** One {@code GET} per key in one Jedis pipeline on a pooled connection: one round trip. */
    PIPELINED {
        @Override
        public KeyReader create(String host, int port) {
            return new PipelinedReader(JedisPools.writeUp(host, port));
        }
    },
    /** One asynchronous {@code GET} per key on one Lettuce connection shared by every thread, no pool. */
    LETTUCE_ASYNC {
        @Override
        public KeyReader create(String host, int port) {
            return new LettuceAsyncReader(host, port);
        }
    };

    public abstract KeyReader create(String host, int port);
}
