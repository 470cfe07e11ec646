package io.hotpathbench.split;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.commons.lang3.StringUtils;

/**
 * The splitters under comparison, baseline first; each constant builds a {@link Splitter} for one
 * delimiter, and every one of them honours the {@link Splitter} contract.
 */
public enum SplitterType {

    /**
     * {@code Arrays.asList(input.split(regex))} with the delimiter escaped by hand as users write it
     * ({@code "\\|\\|"} for {@code "||"}). JDK 17 takes its no-regex fast path for one character
     * and for a backslash-escaped one ({@code ","}, {@code "\\|"}); anything longer
     * ({@code "\\|\\|"}, {@code "::"}) compiles a {@code Pattern} on every call.
     */
    JDK_SPLIT {
        @Override
        public Splitter create(String delimiter) {
            String regex = regexOf(delimiter);
            return input -> Arrays.asList(input.split(regex));
        }
    },

    /** {@code Arrays.asList(pattern.split(input))} with {@code Pattern.compile(Pattern.quote(d))} built once. */
    JDK_PATTERN {
        @Override
        public Splitter create(String delimiter) {
            requireNonEmpty(delimiter);
            Pattern pattern = Pattern.compile(Pattern.quote(delimiter));
            return input -> Arrays.asList(pattern.split(input));
        }
    },

    /**
     * Commons Lang {@code StringUtils.splitByWholeSeparatorPreserveAllTokens(input, d)}: the one
     * {@code StringUtils} split that takes the delimiter as a whole string and keeps empty tokens
     * ({@code StringUtils.split} treats it as a set of characters and drops empty tokens, so it
     * does not do the same work). It keeps trailing empty tokens and returns no token for the empty
     * string, so the adapter drops the former and answers {@code [""]} for the latter.
     */
    COMMONS_LANG {
        @Override
        public Splitter create(String delimiter) {
            requireNonEmpty(delimiter);
            return input -> {
                if (input.isEmpty()) {
                    return List.of(input);
                }
                String[] tokens = StringUtils.splitByWholeSeparatorPreserveAllTokens(input, delimiter);
                List<String> list = Arrays.asList(tokens);
                int kept = keptLength(list);
                return kept == list.size() ? list : list.subList(0, kept);
            };
        }
    },

    /**
     * Guava {@code Splitter.on(d).splitToList(input)}, not trimmed and not omitting empty strings.
     * It keeps trailing empty tokens, so the adapter drops them unless the input held no delimiter.
     */
    GUAVA {
        @Override
        public Splitter create(String delimiter) {
            com.google.common.base.Splitter splitter = com.google.common.base.Splitter.on(delimiter);
            return input -> {
                List<String> tokens = splitter.splitToList(input);
                int kept = tokens.size() == 1 ? 1 : keptLength(tokens);
                return kept == tokens.size() ? tokens : tokens.subList(0, kept);
            };
        }
    },

    /** The custom {@link IndexOfSplitter}. */
    INDEX_OF {
        @Override
        public Splitter create(String delimiter) {
            return new IndexOfSplitter(delimiter);
        }
    };

    /** Builds this variant's splitter for a non-empty literal {@code delimiter}. */
    public abstract Splitter create(String delimiter);

    /**
     * The delimiter as a regex, escaped the way people write it by hand: a backslash before each
     * regex metacharacter ({@code "||"} becomes {@code "\\|\\|"}), other characters as they are.
     * Left unescaped, {@code "||"} is a regex that matches the empty string and splits between
     * every character.
     */
    public static String regexOf(String delimiter) {
        requireNonEmpty(delimiter);
        StringBuilder regex = new StringBuilder(delimiter.length() * 2);
        for (int i = 0; i < delimiter.length(); i++) {
            char c = delimiter.charAt(i);
            if (".$|()[]{}^?*+\\".indexOf(c) >= 0) {
                regex.append('\\');
            }
            regex.append(c);
        }
        return regex.toString();
    }

    private static void requireNonEmpty(String delimiter) {
        if (delimiter.isEmpty()) {
            throw new IllegalArgumentException("delimiter must not be empty");
        }
    }

    /** Length of the token list once trailing empty tokens are dropped. */
    private static int keptLength(List<String> tokens) {
        int kept = tokens.size();
        while (kept > 0 && tokens.get(kept - 1).isEmpty()) {
            kept--;
        }
        return kept;
    }
}
