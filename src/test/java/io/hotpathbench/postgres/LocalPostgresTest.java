package io.hotpathbench.postgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher against real servers (one for the class, others where a test stops one): a server
 * that cannot start fails the class in CI, where CI=true, and skips it elsewhere with the reason.
 */
class LocalPostgresTest {

    private static LocalPostgres server;

    @BeforeAll
    static void startServer() {
        server = startOrSkip(Map.of());
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            Path root = server.dataDirectory().getParent();
            long pid = server.pid();
            server.close();
            assertGone(pid, root);
        }
    }

    static LocalPostgres startOrSkip(Map<String, String> settings) {
        try {
            return LocalPostgres.start(settings);
        } catch (LocalPostgres.Unavailable e) {
            if ("true".equals(System.getenv("CI"))) {
                fail(e.getMessage());
            }
            Assumptions.abort(e.getMessage());
            return null;
        }
    }

    /** Loopback only, no Unix socket, and none of autovacuum, timed checkpoints or checkpoints forced by WAL volume. */
    @Test
    void theServerListensOnLoopbackOnlyWithCheckpointsOnRequest() throws SQLException {
        try (Connection c = server.connect()) {
            assertEquals(LocalPostgres.HOST, show(c, "listen_addresses"));
            assertEquals("", show(c, "unix_socket_directories"));
            assertEquals("off", show(c, "autovacuum"));
            assertEquals("1d", show(c, "checkpoint_timeout"));
            assertEquals("16GB", show(c, "max_wal_size"));
            assertEquals("on", show(c, "fsync"));
            assertEquals("on", show(c, "synchronous_commit"));
            assertEquals(String.valueOf(server.port()), show(c, "port"));
            assertEquals(server.dataDirectory().toRealPath().toString(), show(c, "data_directory"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        server.checkpoint();
        assertTrue(server.version().startsWith(server.majorVersion() + "."), server.version());
        assertTrue(server.majorVersion() >= 10, server.version());
        assertTrue(server.describe().contains(server.version()) && server.describe().contains(":" + server.port())
                && server.describe().contains(server.fileSystem()), server.describe());
    }

    /** The data directory's file system is the one the mount table names, and a sync there takes a positive time. */
    @Test
    void theFileSystemIsRecordedAndASyncIsTimed() throws IOException {
        assertEquals(Files.getFileStore(server.dataDirectory()).type(), server.fileSystem());
        assertFalse(server.fileSystem().isBlank());
        double micros = server.syncMicros();
        assertTrue(micros > 0 && micros < 1e6, micros + " us");
        assertFalse(Files.exists(server.dataDirectory().getParent().resolve("sync-probe")));
    }

    /** Never root: PostgreSQL refuses it, so a root JVM's server runs as postgres or nobody. */
    @Test
    void theServerRunsAsAnUnprivilegedUser() throws IOException {
        int uid = -1;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(server.pid()), "status"))) {
            if (line.startsWith("Uid:")) {
                uid = Integer.parseInt(line.substring(4).trim().split("\\s+")[0]);
            }
        }
        assertNotEquals(0, uid);
        if (RunAs.realUid() == 0) {
            assertTrue(server.runsAs().equals("postgres") || server.runsAs().equals("nobody"), server.runsAs());
        } else {
            assertEquals(RunAs.realUid(), uid);
        }
    }

    /**
     * The server's CPU counter grows with the work it is given, read while the backend that did it
     * lives (as the benchmarks' pooled connections do): a backend that has exited but is not yet
     * reaped by the postmaster is counted by neither, so a reading just after a connection closes
     * can miss its work.
     */
    @Test
    void serverCpuCountsTheWorkOfItsBackends() throws SQLException {
        double before = server.serverCpuSeconds();
        try (Connection c = server.connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(md5(i::text)) FROM generate_series(1, 1000000) i")) {
            r.next();
            double used = server.serverCpuSeconds() - before;
            assertTrue(used >= 0.05 && used < 60, used + " s");
        }
    }

    /** Each autocommitted insert under synchronous commit syncs the WAL once; with it off, the backend syncs none. */
    @Test
    void walSyncsCountSynchronousCommits() throws SQLException {
        Assumptions.assumeTrue(server.majorVersion() >= 14, "pg_stat_wal needs PostgreSQL 14");
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sync_probe (id int)");
            server.flushStatistics(c);
            long before = server.walSyncs();
            for (int i = 0; i < 20; i++) {
                s.execute("INSERT INTO sync_probe VALUES (" + i + ")");
            }
            server.flushStatistics(c);
            long synced = server.walSyncs() - before;
            assertTrue(synced >= 20 && synced <= 25, synced + " syncs for 20 commits");
        }
    }

    /** Settings passed to start() override the defaults; a second server stops and leaves nothing on close. */
    @Test
    void aServerWithItsOwnSettingsStopsAndLeavesNothing() throws SQLException {
        LocalPostgres other = startOrSkip(Map.of("synchronous_commit", "off"));
        Path root = other.dataDirectory().getParent();
        long pid = other.pid();
        try (Connection c = other.connect()) {
            assertEquals("off", show(c, "synchronous_commit"));
            assertEquals("off", show(c, "autovacuum"));
        }
        assertNotEquals(server.port(), other.port());
        assertTrue(Files.isDirectory(other.dataDirectory()));
        assertTrue(root.getFileName().toString().startsWith(LocalPostgres.PREFIX + ProcessHandle.current().pid() + "-"));
        other.close();
        assertGone(pid, root);
        other.close();
    }

    /**
     * A JVM killed outright (SIGKILL, no shutdown hook) leaves no server and no data directory: its
     * watchdog notices within a second and cleans up.
     */
    @Test
    void aKilledJvmLeavesNoServerAndNoDataDirectory() throws Exception {
        stopAChildJvmHoldingAServer("KILL");
    }

    /** Whether this process ignores SIGINT, a disposition every process it starts inherits (/proc's SigIgn mask). */
    private static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (2 - 1))) != 0;
            }
        }
        return false;
    }

    /** Ctrl-C (SIGINT): the JVM's shutdown hook stops the server and removes the data directory. */
    @Test
    void anInterruptedJvmLeavesNoServerAndNoDataDirectory() throws Exception {
        stopAChildJvmHoldingAServer("INT");
    }

    private static void stopAChildJvmHoldingAServer(String signal) throws Exception {
        if (signal.equals("INT")) {
            Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this process (started as a background job,"
                    + " e.g. with nohup or &), and so in every JVM it starts: Ctrl-C cannot reach them from here");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Holder.class.getName())
                .redirectErrorStream(true).start();
        long pid;
        Path root;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            StringBuilder seen = new StringBuilder();
            while ((line = out.readLine()) != null && !line.startsWith("READY ")) {
                seen.append(line).append('\n');
            }
            if (line == null) {
                jvm.waitFor(10, TimeUnit.SECONDS);
                if (seen.toString().contains(LocalPostgres.Unavailable.MARKER)) {
                    Assumptions.abort(seen.toString());
                }
                fail("the child JVM started no server: " + seen);
                return;
            }
            String[] words = line.split(" ");
            pid = Long.parseLong(words[1]);
            root = Path.of(words[2]);
            assertTrue(LocalPostgres.alive(pid) && Files.isDirectory(root));
            assertFalse(jvm.descendants().anyMatch(p -> p.pid() == pid), "the server is no descendant of its JVM");
            new ProcessBuilder("kill", "-" + signal, Long.toString(jvm.pid())).start().waitFor(10, TimeUnit.SECONDS);
            assertTrue(jvm.waitFor(30, TimeUnit.SECONDS), "the child JVM did not exit on SIG" + signal);
        } finally {
            jvm.destroyForcibly();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline && (LocalPostgres.alive(pid) || Files.exists(root))) {
            Thread.sleep(100);
        }
        assertGone(pid, root);
    }

    /** What the child JVM of {@link #stopAChildJvmHoldingAServer} runs. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            LocalPostgres held = LocalPostgres.start();
            System.out.println("READY " + held.pid() + " " + held.dataDirectory().getParent());
            System.out.flush();
            Thread.sleep(120_000);
        }
    }

    /** A folder whose JVM and watchdog are dead is removed by the next start; one whose JVM lives is not. */
    @Test
    void foldersLeftByDeadJvmsAreSweptAndLiveOnesKept(@TempDir Path base) throws Exception {
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Path orphan = Files.createDirectories(base.resolve(LocalPostgres.PREFIX + dead.pid() + "-1/data"));
        Files.writeString(orphan.getParent().resolve("pids"), dead.pid() + " " + dead.pid() + "\n");
        Path unfinished = Files.createDirectories(base.resolve(LocalPostgres.PREFIX + dead.pid() + "-2"));
        Path live = Files.createDirectories(base.resolve(LocalPostgres.PREFIX + ProcessHandle.current().pid() + "-3"));
        Path other = Files.createDirectories(base.resolve("something-else-" + dead.pid()));
        LocalPostgres.sweep(base);
        assertFalse(Files.exists(orphan.getParent()));
        assertFalse(Files.exists(unfinished));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(other));
    }

    /** No binaries: the one-line reason starts with the marker jmh:run skips on and says how to install a server. */
    @Test
    void noServerToBeHadSaysHowToInstallOne(@TempDir Path empty) {
        LocalPostgres.Unavailable e = assertThrows(LocalPostgres.Unavailable.class,
                () -> LocalPostgres.start(Map.of(), empty.toString(), empty.resolve("nothing")));
        assertTrue(e.getMessage().startsWith("HOTPATH_UNAVAILABLE: "), e.getMessage());
        assertTrue(e.getMessage().contains("apt-get install postgresql"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    /** The PATH's postgres wins, through a symbolic link, when initdb is beside it; else the highest Debian version. */
    @Test
    void binariesComeFromThePathElseTheHighestDebianVersion(@TempDir Path dir) throws IOException {
        Path debian = dir.resolve("lib/postgresql");
        Path v9 = fakeBin(debian.resolve("9.6/bin"));
        Path v15 = fakeBin(debian.resolve("15/bin"));
        fakeBin(debian.resolve("notes/bin"));
        Files.createDirectories(debian.resolve("17/bin"));  // no binaries: skipped
        assertEquals(v15, LocalPostgres.installation("", debian));
        Path custom = fakeBin(dir.resolve("custom/bin"));
        Path links = Files.createDirectories(dir.resolve("links"));
        Files.createSymbolicLink(links.resolve("postgres"), custom.resolve("postgres"));
        assertEquals(custom.toRealPath(), LocalPostgres.installation(links.toString(), debian));
        Path lonely = Files.createDirectories(dir.resolve("lonely"));
        executable(lonely.resolve("postgres"));
        assertEquals(v15, LocalPostgres.installation(lonely.toString(), debian), "no initdb beside it");
        assertNull(LocalPostgres.installation(lonely.toString(), dir.resolve("none")));
        assertTrue(Files.exists(v9));
    }

    @Test
    void cpuTimesAreReadPastACommandWithSpacesAndParentheses() {
        String stat = "4242 (postgres: hpb (x) idle) S 1 4242 4242 0 -1 4194560 500 0 0 0 7 3 11 13 20 0 1 0 100 0 0";
        assertArrayEquals(new long[] {7, 3, 11, 13}, LocalPostgres.parseTimes(stat));
        assertTrue(LocalPostgres.cpuNanos(ProcessHandle.current().pid()) > 0);
        assertEquals(0, LocalPostgres.cpuNanos(Long.MAX_VALUE));
        assertTrue(LocalPostgres.treeNanos(server.pid()) >= LocalPostgres.cpuNanos(server.pid()));
        assertTrue(LocalPostgres.children(server.pid()).length >= 3, "the postmaster's background processes");
    }

    private static Path fakeBin(Path bin) throws IOException {
        Files.createDirectories(bin);
        executable(bin.resolve("postgres"));
        executable(bin.resolve("initdb"));
        return bin;
    }

    private static void executable(Path file) throws IOException {
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static String show(Connection c, String setting) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SHOW " + setting)) {
            r.next();
            return r.getString(1);
        }
    }

    private static void assertGone(long pid, Path root) {
        assertFalse(LocalPostgres.alive(pid), "postgres " + pid + " still runs");
        assertFalse(Files.exists(root), root + " still exists");
    }
}
