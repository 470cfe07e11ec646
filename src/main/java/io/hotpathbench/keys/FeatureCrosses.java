package io.hotpathbench.keys;

import java.util.SplittableRandom;

/**
 * The seeded content of a weight table: {@code size} crosses of a user feature value with an item
 * feature value, such as {@code u_age=2_347#i_cat=31519}, each with a weight; the shortest cross,
 * {@code u_os=0_100#i_tag=100}, has the 20 characters the write-up's keys had at least. Entry {@code e} crosses
 * user value {@code e % 100} with item value {@code e / 100}, so every entry is distinct by
 * construction and the table needs no set to deduplicate. Absent crosses pair a user value with an
 * item value that no entry uses.
 */
public final class FeatureCrosses {

    public static final int USER_VALUES = 100;

    private static final String[] USER_FEATURES =
            {"age", "gender", "city", "device", "os", "lang", "tier", "segment", "hour", "weekday"};
    private static final String[] ITEM_FEATURES = {"cat", "brand", "shop", "tag"};

    private final String[] users;
    private final String[] items;
    private final String[] absentItems;
    private final double[] weights;

    private FeatureCrosses(String[] users, String[] items, String[] absentItems, double[] weights) {
        this.users = users;
        this.items = items;
        this.absentItems = absentItems;
        this.weights = weights;
    }

    /** @throws IllegalArgumentException unless {@code size} is a positive multiple of {@value #USER_VALUES} */
    public static FeatureCrosses generate(int size, long seed) {
        if (size <= 0 || size % USER_VALUES != 0) {
            throw new IllegalArgumentException("size must be a positive multiple of " + USER_VALUES + ", got " + size);
        }
        SplittableRandom random = new SplittableRandom(seed);
        String[] users = new String[USER_VALUES];
        for (int j = 0; j < users.length; j++) {
            users[j] = "u_" + USER_FEATURES[j % USER_FEATURES.length] + '=' + j / USER_FEATURES.length
                    + '_' + (100 + random.nextInt(900));
        }
        int itemCount = size / USER_VALUES;
        String[] items = new String[itemCount];
        for (int i = 0; i < items.length; i++) {
            items[i] = item(i, random);
        }
        String[] absentItems = new String[Math.max(1, itemCount / 10)];
        for (int i = 0; i < absentItems.length; i++) {
            absentItems[i] = item(itemCount + i, random);
        }
        double[] weights = new double[size];
        for (int e = 0; e < weights.length; e++) {
            weights[e] = random.nextDouble(-1.0, 1.0);
        }
        return new FeatureCrosses(users, items, absentItems, weights);
    }

    private static String item(int index, SplittableRandom random) {
        return "i_" + ITEM_FEATURES[index % ITEM_FEATURES.length] + '=' + (100 + (index / ITEM_FEATURES.length) * 10 + random.nextInt(10));
    }

    public int size() {
        return weights.length;
    }

    public String user(int entry) {
        return users[entry % USER_VALUES];
    }

    public String item(int entry) {
        return items[entry / USER_VALUES];
    }

    public double weight(int entry) {
        return weights[entry];
    }

    public int absentItemCount() {
        return absentItems.length;
    }

    public String absentItem(int index) {
        return absentItems[index];
    }

    /** Fills {@code table} with every entry. */
    public void fill(WeightTable table) {
        for (int e = 0; e < weights.length; e++) {
            table.put(user(e), item(e), weights[e]);
        }
    }

    /**
     * {@code count} seeded lookups, each an entry drawn at random or, with probability
     * {@code missPercent}%, an absent cross; {@code entries[i]} is the entry looked up or -1.
     */
    public Lookups lookups(int count, int missPercent, long seed) {
        // A stream of its own, so that lookups do not replay the draws that generated the entries.
        SplittableRandom random = new SplittableRandom(seed).split();
        String[] userFeatures = new String[count];
        String[] itemFeatures = new String[count];
        int[] entries = new int[count];
        for (int i = 0; i < count; i++) {
            if (random.nextInt(100) < missPercent) {
                userFeatures[i] = users[random.nextInt(USER_VALUES)];
                itemFeatures[i] = absentItems[random.nextInt(absentItems.length)];
                entries[i] = -1;
            } else {
                int e = random.nextInt(size());
                userFeatures[i] = user(e);
                itemFeatures[i] = item(e);
                entries[i] = e;
            }
        }
        return new Lookups(userFeatures, itemFeatures, entries);
    }

    /** Parallel arrays: the feature values of each lookup and the entry it hits, -1 for a miss. */
    public record Lookups(String[] userFeatures, String[] itemFeatures, int[] entries) {
    }
}
