package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Names and writes the files of one run. A run's stem is its UTC start time plus the short commit
 * id ({@code 20261122T101500Z-1a2b3c4}, {@code -dirty} when the tree had changes), so names sort by
 * time and never collide with an earlier run: a taken stem gets {@code -2}, {@code -3}, ... JMH
 * writes into a hidden {@code .STEM.json.partial}; only a finished run is moved to
 * {@code STEM.json}, and nothing is ever replaced.
 */
public final class ResultFiles {

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Path dir;
    private final String stem;

    private ResultFiles(Path dir, String stem) {
        this.dir = dir;
        this.stem = stem;
    }

    /** Picks a stem not used by any file in {@code dir}. */
    public static ResultFiles reserve(Path dir, Instant start, String shortCommit, boolean dirty) throws IOException {
        Files.createDirectories(dir);
        String base = stem(start, shortCommit, dirty);
        String stem = base;
        for (int n = 2; taken(dir, stem); n++) {
            stem = base + "-" + n;
        }
        return new ResultFiles(dir, stem);
    }

    static String stem(Instant start, String shortCommit, boolean dirty) {
        String commit = shortCommit == null || shortCommit.isBlank() ? "nogit" : shortCommit;
        return STAMP.format(start) + "-" + commit + (dirty ? "-dirty" : "");
    }

    private static boolean taken(Path dir, String stem) {
        return Files.exists(dir.resolve(stem + ".json"))
                || Files.exists(dir.resolve(stem + ".provenance.json"))
                || Files.exists(dir.resolve("." + stem + ".json.partial"));
    }

    public String stem() {
        return stem;
    }

    public Path partial() {
        return dir.resolve("." + stem + ".json.partial");
    }

    public Path result() {
        return dir.resolve(stem + ".json");
    }

    public Path provenance() {
        return dir.resolve(stem + ".provenance.json");
    }

    /**
     * Moves the finished JMH output into place after checking it is a complete JSON array.
     *
     * @throws IOException if the output is missing, truncated or the target exists
     */
    public void publish(String provenanceJson) throws IOException {
        Path partial = partial();
        if (!Files.isRegularFile(partial)) {
            throw new IOException("JMH wrote no result file (" + partial.getFileName() + ")");
        }
        String text = Files.readString(partial, StandardCharsets.UTF_8).strip();
        if (!text.startsWith("[") || !text.endsWith("]")) {
            throw new IOException("JMH result " + partial.getFileName() + " is not a complete JSON array");
        }
        if (text.replaceAll("\\s", "").equals("[]")) {
            throw new IOException("JMH result " + partial.getFileName() + " holds no benchmark result");
        }
        writeAtomically(provenance(), provenanceJson);
        moveNoReplace(partial, result());
    }

    /** Removes what an unfinished run left behind. */
    public void discard() {
        try {
            Files.deleteIfExists(partial());
        } catch (IOException ignored) {
            // Best effort: a leftover is hidden and named .partial, so it never looks complete.
        }
    }

    /** Writes via a temporary file and an atomic rename; refuses to replace an existing file. */
    static void writeAtomically(Path target, String content) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        moveNoReplace(tmp, target);
    }

    private static void moveNoReplace(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            if (from.getFileName().toString().endsWith(".tmp")) {
                Files.deleteIfExists(from);
            }
            throw new FileAlreadyExistsException(to.toString(), null, "refusing to overwrite an earlier run");
        }
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }
}
