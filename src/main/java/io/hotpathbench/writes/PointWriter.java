package io.hotpathbench.writes;

/**
 * Writes one upload's points into a store. Implementations keep their buffers (key and value bytes,
 * a batch) between uploads, so an upload allocates nothing on either side by design.
 */
public interface PointWriter extends AutoCloseable {

    /** Writes every point of upload {@code n} of {@code uploads}; returns how many it wrote. */
    int write(Uploads uploads, long n) throws Exception;

    /** Releases the writer's native buffers; the store stays open. */
    @Override
    void close();
}
