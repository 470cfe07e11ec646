package io.hotpathbench.cache;

import java.nio.ByteBuffer;
import org.caffinitas.ohc.CacheSerializer;

/** OHC's view of a user id: eight big-endian bytes. */
final class UserIdSerializer implements CacheSerializer<Long> {

    @Override
    public void serialize(Long id, ByteBuffer buf) {
        buf.putLong(id);
    }

    @Override
    public Long deserialize(ByteBuffer buf) {
        return buf.getLong();
    }

    @Override
    public int serializedSize(Long id) {
        return Long.BYTES;
    }
}
