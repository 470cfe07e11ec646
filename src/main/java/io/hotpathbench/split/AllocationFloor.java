package io.hotpathbench.split;

import java.util.List;

/**
 * The fewest heap bytes any splitter that returns a fresh {@code List} of fresh {@code String}s can
 * allocate: one {@code ArrayList} (24 B) and its exactly sized {@code Object[]} (16 B + 4 B per
 * token), plus per token one {@code String} (24 B) and its {@code byte[]} (16 B + one byte per
 * Latin-1 character), each object rounded up to 8 bytes. The sizes are those of 64-bit HotSpot
 * with compressed oops and class pointers and compact strings, which is what the benchmark forks
 * run with (1 GiB heap).
 */
public final class AllocationFloor {

    private AllocationFloor() {
    }

    /** Floor in bytes for producing {@code tokens}, all Latin-1. */
    public static long bytes(List<String> tokens) {
        long total = 24 + align(16 + 4L * tokens.size());
        for (String token : tokens) {
            total += 24 + align(16 + token.length());
        }
        return total;
    }

    /** Mean floor in bytes per split over {@code lines}. */
    public static double meanBytes(String[] lines, String delimiter) {
        Splitter splitter = new IndexOfSplitter(delimiter);
        long total = 0;
        for (String line : lines) {
            total += bytes(splitter.split(line));
        }
        return (double) total / lines.length;
    }

    private static long align(long size) {
        return (size + 7) & ~7L;
    }
}
