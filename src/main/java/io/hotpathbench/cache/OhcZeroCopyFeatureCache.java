package io.hotpathbench.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.caffinitas.ohc.DirectValueAccess;

/**
 * The same OHC cache as {@link OhcFeatureCache}, read without copying: {@link #score} takes a
 * {@link java.nio.ByteBuffer} view of the entry's native bytes ({@code getDirect}, which pins the
 * entry until the view is closed) and reads the scored fields in place, so no record is built.
 * Puts still serialize; {@link #get} still copies (tests compare records through it).
 */
final class OhcZeroCopyFeatureCache extends OhcFeatureCache {

    OhcZeroCopyFeatureCache(long maximumEntries) {
        super(maximumEntries);
    }

    @Override
    public double score(long userId, float[] request) {
        DirectValueAccess value = ohc().getDirect(userId);
        if (value == null) {
            return MISSING;
        }
        try {
            return UserFeaturesSerializer.score(value.buffer(), request);
        } finally {
            close(value);
        }
    }

    private static void close(DirectValueAccess value) {
        try {
            value.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
