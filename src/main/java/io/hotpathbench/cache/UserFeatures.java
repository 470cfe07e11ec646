package io.hotpathbench.cache;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * What a recommendation service caches per user: a few scalars, two short strings, an embedding
 * and the ids of recently seen items, about 100-500 bytes once serialized. The arrays are shared,
 * not copied, so callers must not modify them; equality compares their contents.
 */
public record UserFeatures(
        long userId,
        String country,
        String deviceModel,
        int age,
        double clickThroughRate,
        long lastSeenMillis,
        boolean premium,
        float[] embedding,
        long[] recentItemIds) {

    /** The most embedding dimensions {@link #random} draws; a request vector this long scores any record. */
    public static final int MAX_DIMENSIONS = 96;

    private static final String[] COUNTRIES = {
        "US", "DE", "FR", "GB", "JP", "CN", "BR", "IN", "KR", "ES", "IT", "MX", "CA", "AU", "SE", "PL"
    };
    private static final String[] DEVICE_MODELS = {
        "Pixel 8", "iPhone 15 Pro", "Galaxy S24 Ultra", "Redmi Note 13", "华为 Mate 60", "OnePlus 12",
        "Xperia 1 V", "Moto g84", "iPad Air", "Nokia G42", "Galaxy A54", "Café Tab 10"
    };

    public UserFeatures {
        Objects.requireNonNull(country, "country");
        Objects.requireNonNull(deviceModel, "deviceModel");
        Objects.requireNonNull(embedding, "embedding");
        Objects.requireNonNull(recentItemIds, "recentItemIds");
    }

    /** A seeded random record: 16-96 embedding dimensions and 0-8 recent items. */
    public static UserFeatures random(long userId, SplittableRandom random) {
        float[] embedding = new float[16 + random.nextInt(MAX_DIMENSIONS - 15)];
        for (int i = 0; i < embedding.length; i++) {
            embedding[i] = (float) (random.nextDouble() * 2 - 1);
        }
        long[] recent = new long[random.nextInt(9)];
        for (int i = 0; i < recent.length; i++) {
            recent[i] = random.nextLong(1L << 40);
        }
        return new UserFeatures(
                userId,
                COUNTRIES[random.nextInt(COUNTRIES.length)],
                DEVICE_MODELS[random.nextInt(DEVICE_MODELS.length)],
                13 + random.nextInt(68),
                random.nextDouble() * 0.2,
                1_700_000_000_000L + random.nextLong(10_000_000_000L),
                random.nextInt(10) == 0,
                embedding,
                recent);
    }

    /**
     * What a push service computes from a user's cached features for one request: the
     * click-through rate (doubled for premium users) plus the affinity, the dot product of the
     * embedding with the request's vector, damped by how many items the user saw recently.
     * {@code request} must be at least as long as the embedding.
     */
    public double score(float[] request) {
        double affinity = 0;
        for (int i = 0; i < embedding.length; i++) {
            affinity += (double) embedding[i] * request[i];
        }
        return score(clickThroughRate, premium, affinity, recentItemIds.length);
    }

    /**
     * The one formula behind every read path: {@link UserFeaturesSerializer#score} reads the same
     * fields in place and sums the affinity in the same order, so both give the same double.
     */
    static double score(double clickThroughRate, boolean premium, double affinity, int recentItems) {
        return ((premium ? 2 * clickThroughRate : clickThroughRate) + affinity) / (1 + 0.125 * recentItems);
    }

    /**
     * A freshly built copy for another user, as a handler that reloads features from a store would
     * produce: new arrays, new last-seen time.
     */
    public UserFeatures refreshed(long newUserId, long newLastSeenMillis) {
        return new UserFeatures(newUserId, country, deviceModel, age, clickThroughRate, newLastSeenMillis,
                premium, embedding.clone(), recentItemIds.clone());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UserFeatures u
                && userId == u.userId
                && age == u.age
                && Double.compare(clickThroughRate, u.clickThroughRate) == 0
                && lastSeenMillis == u.lastSeenMillis
                && premium == u.premium
                && country.equals(u.country)
                && deviceModel.equals(u.deviceModel)
                && Arrays.equals(embedding, u.embedding)
                && Arrays.equals(recentItemIds, u.recentItemIds);
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(userId);
        h = 31 * h + Long.hashCode(lastSeenMillis);
        h = 31 * h + Arrays.hashCode(embedding);
        return 31 * h + Arrays.hashCode(recentItemIds);
    }

    @Override
    public String toString() {
        return "UserFeatures[userId=" + userId + ", country=" + country + ", deviceModel=" + deviceModel
                + ", age=" + age + ", clickThroughRate=" + clickThroughRate + ", lastSeenMillis=" + lastSeenMillis
                + ", premium=" + premium + ", embedding=" + Arrays.toString(embedding)
                + ", recentItemIds=" + Arrays.toString(recentItemIds) + "]";
    }
}
