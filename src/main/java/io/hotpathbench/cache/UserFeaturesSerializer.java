package io.hotpathbench.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.caffinitas.ohc.CacheSerializer;

/**
 * Hand-written binary form of {@link UserFeatures} for OHC: fixed-width scalars, then strings as
 * length-prefixed UTF-8 and arrays as length-prefixed elements. No reflection, no per-field
 * metadata; the only garbage on a write is the UTF-8 bytes of the two strings.
 */
public final class UserFeaturesSerializer implements CacheSerializer<UserFeatures> {

    /** Bytes of the fixed-width part: userId, age, clickThroughRate, lastSeenMillis, premium. */
    private static final int FIXED = 8 + 4 + 8 + 8 + 1;

    /** Offsets of the fixed-width fields that {@link #score} reads in place. */
    private static final int CLICK_THROUGH_RATE_AT = 8 + 4;
    private static final int PREMIUM_AT = 8 + 4 + 8 + 8;

    @Override
    public void serialize(UserFeatures value, ByteBuffer buf) {
        buf.putLong(value.userId());
        buf.putInt(value.age());
        buf.putDouble(value.clickThroughRate());
        buf.putLong(value.lastSeenMillis());
        buf.put(value.premium() ? (byte) 1 : (byte) 0);
        putString(buf, value.country());
        putString(buf, value.deviceModel());
        float[] embedding = value.embedding();
        buf.putInt(embedding.length);
        for (float f : embedding) {
            buf.putFloat(f);
        }
        long[] recent = value.recentItemIds();
        buf.putInt(recent.length);
        for (long id : recent) {
            buf.putLong(id);
        }
    }

    @Override
    public UserFeatures deserialize(ByteBuffer buf) {
        long userId = buf.getLong();
        int age = buf.getInt();
        double clickThroughRate = buf.getDouble();
        long lastSeenMillis = buf.getLong();
        boolean premium = buf.get() != 0;
        String country = getString(buf);
        String deviceModel = getString(buf);
        float[] embedding = new float[buf.getInt()];
        for (int i = 0; i < embedding.length; i++) {
            embedding[i] = buf.getFloat();
        }
        long[] recent = new long[buf.getInt()];
        for (int i = 0; i < recent.length; i++) {
            recent[i] = buf.getLong();
        }
        return new UserFeatures(userId, country, deviceModel, age, clickThroughRate, lastSeenMillis, premium,
                embedding, recent);
    }

    /**
     * {@link UserFeatures#score} computed from the serialized form without building the record:
     * the fields are read in place at their offsets from {@code buf}'s position (the two strings
     * are skipped by their length prefixes), and {@code buf}'s position is left unchanged.
     */
    public static double score(ByteBuffer buf, float[] request) {
        int at = buf.position();
        double clickThroughRate = buf.getDouble(at + CLICK_THROUGH_RATE_AT);
        boolean premium = buf.get(at + PREMIUM_AT) != 0;
        at += FIXED;
        at += 4 + buf.getInt(at);
        at += 4 + buf.getInt(at);
        int dimensions = buf.getInt(at);
        at += 4;
        double affinity = 0;
        for (int i = 0; i < dimensions; i++) {
            affinity += (double) buf.getFloat(at + 4 * i) * request[i];
        }
        int recentItems = buf.getInt(at + 4 * dimensions);
        return UserFeatures.score(clickThroughRate, premium, affinity, recentItems);
    }

    @Override
    public int serializedSize(UserFeatures value) {
        return FIXED
                + 4 + utf8Length(value.country())
                + 4 + utf8Length(value.deviceModel())
                + 4 + 4 * value.embedding().length
                + 4 + 8 * value.recentItemIds().length;
    }

    private static void putString(ByteBuffer buf, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        buf.putInt(bytes.length);
        buf.put(bytes);
    }

    private static String getString(ByteBuffer buf) {
        byte[] bytes = new byte[buf.getInt()];
        buf.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** UTF-8 length without encoding; unpaired surrogates count as the 1-byte '?' the encoder writes. */
    static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                n += 1;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
