package io.hotpathbench.split;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The custom splitter: literal delimiter only, no regex, scans with {@code indexOf} and cuts with
 * {@code substring}, and returns the {@code List} directly instead of going through a
 * {@code String[]}. A first scan counts the tokens up to the last non-empty one, so the second scan
 * allocates nothing but those tokens and one exactly sized {@code ArrayList}, and never cuts the
 * trailing empty tokens that {@link String#split(String)} would drop.
 */
public final class IndexOfSplitter implements Splitter {

    private final String delimiter;

    public IndexOfSplitter(String delimiter) {
        if (delimiter.isEmpty()) {
            throw new IllegalArgumentException("delimiter must not be empty");
        }
        this.delimiter = delimiter;
    }

    @Override
    public List<String> split(String input) {
        int next = input.indexOf(delimiter);
        if (next < 0) {
            return Collections.singletonList(input);
        }
        int step = delimiter.length();
        int kept = countKeptTokens(input, next, step);
        ArrayList<String> tokens = new ArrayList<>(kept);
        int start = 0;
        while (tokens.size() < kept) {
            int end = next < 0 ? input.length() : next;
            tokens.add(input.substring(start, end));
            start = end + step;
            next = next < 0 ? -1 : input.indexOf(delimiter, start);
        }
        return tokens;
    }

    /** Number of tokens up to and including the last non-empty one; {@code first} is the first match. */
    private int countKeptTokens(String input, int first, int step) {
        int count = 0;
        int kept = 0;
        int start = 0;
        for (int next = first; next >= 0; next = input.indexOf(delimiter, start)) {
            count++;
            if (next > start) {
                kept = count;
            }
            start = next + step;
        }
        count++;
        return start < input.length() ? count : kept;
    }

    /**
     * The token before the first {@code delimiter}, or the whole input when it has none; scans no
     * further than that first delimiter. Equals {@code input.split(Pattern.quote(delimiter), 2)[0]}
     * for every input, and {@code input.split(Pattern.quote(delimiter))[0]} for every input where
     * that expression does not throw (it throws for an input made only of delimiters, where this
     * method returns the empty string). {@code delimiter} must not be empty.
     */
    public static String splitFirst(String input, String delimiter) {
        int end = input.indexOf(delimiter);
        return end < 0 ? input : input.substring(0, end);
    }
}
