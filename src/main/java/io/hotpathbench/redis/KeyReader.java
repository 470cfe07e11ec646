package io.hotpathbench.redis;

import java.util.List;

/**
 * Reads the values of one request's keys from Redis: the values in the keys' order, {@code null}
 * for a key the server does not hold. Every implementation is safe for concurrent requests.
 */
public interface KeyReader extends AutoCloseable {

    List<byte[]> read(byte[][] keys);

    /** Releases the connections, pool or client the reader holds. */
    @Override
    void close();
}
