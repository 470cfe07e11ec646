package io.hotpathbench.keys;

import net.openhft.hashing.LongHashFunction;

/**
 * The 64-bit key of a feature cross: xxHash64 of each feature value's UTF-16 chars (its 64-bit id),
 * then xxHash64 of the two ids as 16 little-endian bytes. Both steps are the published xxHash64 with
 * seed 0, so keys are stable across runs, JVMs and machines. Treating the result as uniformly random,
 * the chance that any two of {@code n} distinct crosses share a key is at most the birthday bound
 * {@code n^2 / 2^65}: about 2.7e-6 for the ten million entries of the largest table, 3.3e-6 with the
 * one million absent crosses the benchmark also looks up.
 */
public final class CrossHash {

    private static final LongHashFunction XX = LongHashFunction.xx();

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private CrossHash() {
    }

    /** The key of the cross {@code userFeature#itemFeature}. */
    public static long of(String userFeature, String itemFeature) {
        return combine(id(userFeature), id(itemFeature));
    }

    /** A feature value's 64-bit id: xxHash64 of its chars, read without copying. */
    public static long id(String featureValue) {
        return XX.hashChars(featureValue);
    }

    /**
     * xxHash64 (seed 0) of the 16 bytes {@code first, second} in little-endian order, written out for
     * this one length so that it allocates nothing.
     */
    public static long combine(long first, long second) {
        long h = P5 + 16;
        h = Long.rotateLeft(h ^ lane(first), 27) * P1 + P4;
        h = Long.rotateLeft(h ^ lane(second), 27) * P1 + P4;
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        return h ^ (h >>> 32);
    }

    private static long lane(long input) {
        return Long.rotateLeft(input * P2, 31) * P1;
    }
}
