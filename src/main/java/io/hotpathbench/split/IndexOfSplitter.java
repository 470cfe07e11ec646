package io.hotpathbench.split;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The custom splitter: literal delimiter only, no regex, scans with {@code indexOf} and cuts with
 * {@code substring} in one pass, and returns the {@code List} directly instead of going through a
 * {@code String[]}. Once it has seen a line of the same field count it allocates nothing but the
 * tokens and one exactly sized {@code ArrayList}. Safe to share between threads.
 */
public final class IndexOfSplitter implements Splitter {

    private final String delimiter;
    /** The delimiter when it is one character, else -1: {@code indexOf(char)} scans faster than {@code indexOf(String)}. */
    private final int single;
    /**
     * Token count of the previous call, the next list's capacity: lines of one kind keep their field
     * count, so the list is sized exactly without a counting pass. A racy read only costs a resize.
     */
    private int sizeHint = 10;

    public IndexOfSplitter(String delimiter) {
        if (delimiter.isEmpty()) {
            throw new IllegalArgumentException("delimiter must not be empty");
        }
        this.delimiter = delimiter;
        this.single = delimiter.length() == 1 ? delimiter.charAt(0) : -1;
    }

    private int find(String input, int from) {
        return single >= 0 ? input.indexOf(single, from) : input.indexOf(delimiter, from);
    }

    @Override
    public List<String> split(String input) {
        int next = find(input, 0);
        if (next < 0) {
            return Collections.singletonList(input);
        }
        ArrayList<String> tokens = new ArrayList<>(sizeHint);
        int step = delimiter.length();
        int start = 0;
        do {
            tokens.add(input.substring(start, next));
            start = next + step;
            next = find(input, start);
        } while (next >= 0);
        tokens.add(input.substring(start));
        int size = tokens.size();
        if (size != sizeHint) {
            sizeHint = size;
        }
        while (size > 0 && tokens.get(size - 1).isEmpty()) {
            tokens.remove(--size);
        }
        return tokens;
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
