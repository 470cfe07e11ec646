package io.hotpathbench.keys;

/**
 * The 64-bit key of a feature cross: xxHash64 of each feature value's UTF-16 chars in little-endian
 * order (its 64-bit id), then xxHash64 of the two ids as 16 little-endian bytes. Both steps are the
 * published xxHash64 with seed 0, so keys are stable across runs, JVMs and machines; both are written
 * here in plain Java, reading the string through {@code charAt}, so they allocate nothing and need no
 * {@code sun.misc.Unsafe} (which JDK 25 can deny, {@code --sun-misc-unsafe-memory-access=deny}).
 * Treating the result as uniformly random, the chance that any two of {@code n} distinct crosses
 * share a key is at most the birthday bound {@code n^2 / 2^65}: about 2.7e-6 for the ten million
 * entries of the largest table, 3.3e-6 with the one million absent crosses the benchmark also looks up.
 */
public final class CrossHash {

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

    /**
     * A feature value's 64-bit id: xxHash64 (seed 0) of its {@code 2 * length()} bytes in UTF-16LE,
     * read four chars to a 64-bit lane, sixteen to a 32-byte stripe.
     */
    public static long id(String featureValue) {
        int length = featureValue.length();
        int i = 0;
        long h;
        if (length >= 16) {
            long v1 = P1 + P2;
            long v2 = P2;
            long v3 = 0;
            long v4 = -P1;
            do {
                v1 = round(v1, lane(featureValue, i));
                v2 = round(v2, lane(featureValue, i + 4));
                v3 = round(v3, lane(featureValue, i + 8));
                v4 = round(v4, lane(featureValue, i + 12));
                i += 16;
            } while (i <= length - 16);
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        } else {
            h = P5;
        }
        h += 2L * length;
        for (; i <= length - 4; i += 4) {
            h = Long.rotateLeft(h ^ round(0, lane(featureValue, i)), 27) * P1 + P4;
        }
        if (i <= length - 2) {
            long word = featureValue.charAt(i) | (long) featureValue.charAt(i + 1) << 16;
            h = Long.rotateLeft(h ^ word * P1, 23) * P2 + P3;
            i += 2;
        }
        if (i < length) {
            char c = featureValue.charAt(i);
            h = Long.rotateLeft(h ^ (c & 0xFF) * P5, 11) * P1;
            h = Long.rotateLeft(h ^ (c >>> 8) * P5, 11) * P1;
        }
        return avalanche(h);
    }

    /**
     * xxHash64 (seed 0) of the 16 bytes {@code first, second} in little-endian order, written out for
     * this one length.
     */
    public static long combine(long first, long second) {
        long h = P5 + 16;
        h = Long.rotateLeft(h ^ round(0, first), 27) * P1 + P4;
        h = Long.rotateLeft(h ^ round(0, second), 27) * P1 + P4;
        return avalanche(h);
    }

    /** Chars {@code i..i+3} as one little-endian 64-bit lane. */
    private static long lane(String s, int i) {
        return s.charAt(i) | (long) s.charAt(i + 1) << 16 | (long) s.charAt(i + 2) << 32 | (long) s.charAt(i + 3) << 48;
    }

    private static long round(long acc, long input) {
        return Long.rotateLeft(acc + input * P2, 31) * P1;
    }

    private static long merge(long h, long v) {
        return (h ^ round(0, v)) * P1 + P4;
    }

    private static long avalanche(long h) {
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        return h ^ (h >>> 32);
    }
}
