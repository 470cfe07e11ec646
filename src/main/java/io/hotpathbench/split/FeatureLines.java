package io.hotpathbench.split;

import java.util.SplittableRandom;

/**
 * Seeded feature lines shaped like the push-recommendation service's: {@code fields} key=value
 * pairs joined by a delimiter, such as {@code u_age=27,i_ctr=0.0431,c_city=1107}. Keys use only
 * {@code [a-z0-9_]} and values only {@code [0-9.]}, so no token ever contains a delimiter character
 * of the benchmark ({@code , | :}) and every line splits into exactly {@code fields} tokens.
 */
public final class FeatureLines {

    private static final String[] PREFIXES = {"u_", "i_", "c_", "x_"};
    private static final String KEY_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_";

    private FeatureLines() {
    }

    /** {@code count} lines of {@code fields} pairs each, the same for the same arguments. */
    public static String[] generate(long seed, int count, int fields, String delimiter) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] lines = new String[count];
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < count; i++) {
            line.setLength(0);
            for (int f = 0; f < fields; f++) {
                if (f > 0) {
                    line.append(delimiter);
                }
                appendPair(random, line);
            }
            lines[i] = line.toString();
        }
        return lines;
    }

    private static void appendPair(SplittableRandom random, StringBuilder line) {
        line.append(PREFIXES[random.nextInt(PREFIXES.length)]);
        int keyLength = random.nextInt(3, 9);
        for (int k = 0; k < keyLength; k++) {
            line.append(KEY_CHARS.charAt(random.nextInt(KEY_CHARS.length())));
        }
        line.append('=');
        if (random.nextBoolean()) {
            line.append(random.nextInt(100_000));
        } else {
            line.append("0.").append(random.nextInt(1, 10_000));
        }
    }
}
