package io.hotpathbench.writes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A RocksDB database of its own, with RocksDB's default options and statistics on, in a fresh
 * directory {@code <java.io.tmpdir>/hotpathbench-rocksdb-<pid>-<random>} that {@link #close()} deletes.
 * Nothing outlives the JVM: a shutdown hook stops the database's background work and deletes the
 * directory on an orderly exit (Ctrl-C included), and a JVM killed outright (SIGKILL, a crash), which
 * runs no hook, leaves a directory named after its pid that the next {@link #open} deletes once that
 * process is gone. The directory's file system is recorded ({@link #describe}): where it is a tmpfs a
 * synced write costs nothing, so synced-WAL figures hold for the disk they ran on only.
 */
public final class RocksStore implements AutoCloseable {

    static final String PREFIX = "hotpathbench-rocksdb-";

    private final Path dir;
    private final String fileSystem;
    private final Statistics statistics;
    private final Options options;
    private final RocksDB db;
    private final Thread shutdownHook;
    private boolean closed;

    private RocksStore(Path dir, String fileSystem, Statistics statistics, Options options, RocksDB db) {
        this.dir = dir;
        this.fileSystem = fileSystem;
        this.statistics = statistics;
        this.options = options;
        this.db = db;
        this.shutdownHook = new Thread(this::abandon, "rocksdb-store-delete");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** A new, empty database in a fresh directory under {@code java.io.tmpdir}. */
    public static RocksStore open() throws IOException, RocksDBException {
        return open(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** A new, empty database in a fresh directory under {@code root}. */
    public static RocksStore open(Path root) throws IOException, RocksDBException {
        RocksDB.loadLibrary();
        removeAbandoned(root);
        Path dir = Files.createTempDirectory(root, PREFIX + ProcessHandle.current().pid() + "-");
        Statistics statistics = new Statistics();
        Options options = new Options().setCreateIfMissing(true).setStatistics(statistics);
        try {
            return new RocksStore(dir, Files.getFileStore(dir).type(), statistics, options, RocksDB.open(options, dir.toString()));
        } catch (RocksDBException | RuntimeException e) {
            options.close();
            statistics.close();
            deleteTree(dir);
            throw e;
        }
    }

    public RocksDB db() {
        return db;
    }

    /** The directory the database lives in, while it is open. */
    public Path directory() {
        return dir;
    }

    /** The directory's file system type ({@code ext4}, {@code tmpfs}, ...). */
    public String fileSystem() {
        return fileSystem;
    }

    /** One line for a run's log: RocksDB's version, the directory and its file system. */
    public String describe() {
        return "RocksDB " + RocksDB.rocksdbVersion() + " in " + dir + " (" + fileSystem + ")";
    }

    /** A statistics ticker since the database opened. */
    public long ticker(TickerType ticker) {
        return statistics.getTickerCount(ticker);
    }

    /** Every key and value in key order, for tests: {key bytes, value bytes}. */
    public List<byte[][]> contents() {
        List<byte[][]> out = new ArrayList<>();
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(new byte[][] {it.key(), it.value()});
            }
        }
        return out;
    }

    /** Closes the database and deletes its directory; calling it again does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            db.close();
            options.close();
            statistics.close();
        } finally {
            deleteTree(dir);
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook is running or has run
            }
        }
    }

    /**
     * The shutdown hook: the benchmark thread may still be writing, so the database is not closed
     * under it (a native call into a closed database crashes the JVM); its background flushes and
     * compactions are stopped, then its files are deleted. Unlinked files a write still holds open
     * disappear with the process.
     */
    private synchronized void abandon() {
        if (closed) {
            return;
        }
        closed = true;
        db.cancelAllBackgroundWork(true);
        deleteTree(dir);
    }

    /** Deletes directories this class left under {@code root} in processes that are gone. */
    static void removeAbandoned(Path root) throws IOException {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, PREFIX + "*")) {
            for (Path d : dirs) {
                String rest = d.getFileName().toString().substring(PREFIX.length());
                int dash = rest.indexOf('-');
                long pid;
                try {
                    pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (Files.isDirectory(d) && ProcessHandle.of(pid).isEmpty()) {
                    deleteTree(d);
                }
            }
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
