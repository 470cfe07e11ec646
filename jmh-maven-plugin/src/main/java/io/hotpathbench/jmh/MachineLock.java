package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.maven.plugin.MojoFailureException;

/**
 * JMH's machine-wide lock ({@code /tmp/jmh.lock}), held by the plugin for a whole trial schedule:
 * the forks it starts set {@code jmh.ignoreLock} for their own JMH process, so between two forks no other JMH
 * run can slip in. The operating system releases it if Maven dies. With {@code -Djmh.f} JMH takes
 * the lock itself; {@link #check} only fails early, in one line, when another run holds it.
 */
final class MachineLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private MachineLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static MachineLock hold(Path file) throws MojoFailureException {
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock held = ch.tryLock();
            if (held == null) {
                ch.close();
                throw new MojoFailureException("another JMH run holds " + file
                        + "; wait for it to finish (never run two JMH processes at once)");
            }
            return new MachineLock(ch, held);
        } catch (OverlappingFileLockException e) {
            close(ch);
            throw new MojoFailureException("another JMH run in this JVM holds " + file);
        } catch (IOException e) {
            close(ch);
            throw new MojoFailureException("cannot take JMH's lock " + file + ": " + e.getMessage(), e);
        }
    }

    /** Fails early, with a clear line, when another JMH process holds JMH's machine-wide lock. */
    static void check(Path file) throws MojoFailureException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock held = ch.tryLock();
            if (held == null) {
                throw new MojoFailureException("another JMH run holds " + file
                        + "; wait for it to finish (never run two JMH processes at once)");
            }
            held.release();
        } catch (OverlappingFileLockException e) {
            throw new MojoFailureException("another JMH run in this JVM holds " + file);
        } catch (IOException e) {
            // Cannot open the lock file: JMH itself will report the problem.
        }
    }

    private static void close(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // Closing a channel we failed to lock: nothing to release.
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // Closing the channel below releases it as well.
        }
        close(channel);
    }
}
