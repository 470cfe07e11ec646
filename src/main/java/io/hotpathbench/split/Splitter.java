package io.hotpathbench.split;

import java.util.List;

/**
 * Splits a string around a literal, non-empty delimiter fixed at construction.
 *
 * <p>Contract, identical for every implementation: {@code split(s)} returns, as a {@code List},
 * exactly what {@code s.split(Pattern.quote(delimiter))} returns. Matches are found left to right
 * and never overlap ({@code "aaaaa"} split by {@code "aa"} is {@code ["", "", "a"]}); a leading
 * empty token is kept; trailing empty tokens are dropped, so an input made only of delimiters gives
 * an empty list; an input without the delimiter, the empty string included, gives a one-element
 * list holding the input. Regex metacharacters in the delimiter have no special meaning.
 */
public interface Splitter {

    /** Returns the tokens of {@code input}; see the interface contract. */
    List<String> split(String input);
}
