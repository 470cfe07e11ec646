package io.hotpathbench.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server of this process's own: the {@code postgres} and {@code initdb} on the
 * {@code PATH}, else the newest under {@code /usr/lib/postgresql/<version>/bin} (Debian's
 * {@code postgresql} package), in a fresh data directory ({@code initdb -N}, trust authentication)
 * on a free port, listening on 127.0.0.1 only (no Unix socket), with the settings of
 * {@link #SETTINGS}: autovacuum off and checkpoints only when {@link #checkpoint()} asks, so that
 * neither lands in a measured iteration. Support code for the techniques that write to a database
 * (they list {@code postgres} under {@code uses} in their technique files), not a technique.
 *
 * <p>PostgreSQL refuses to run as root. When this JVM runs as root, the server runs as the user
 * {@code postgres} if there is one, else {@code nobody}, through {@code setpriv}, and owns the
 * data directory. The data directory lives in {@code $HPB_POSTGRES_DIR} if set, else in
 * {@code java.io.tmpdir}, in a folder {@code hotpathbench-postgres-<jvm pid>-<n>}; its file system
 * is {@link #fileSystem()} (on tmpfs an fsync costs nothing, so what a synchronous commit costs
 * depends on it: {@link #syncMicros()} measures it).
 *
 * <p>Nothing outlives the JVM: no server process, no data directory. The server is started by a
 * watchdog shell that this JVM leaves running on its own (started in the background by a shell
 * that exits at once, in a session of its own where {@code setsid} exists): it is no descendant of
 * the JVM, so neither a terminal's Ctrl-C nor a parent killing the JVM's process tree reaches it
 * before it has cleaned up. The watchdog checks every second that the JVM is alive; when it is gone
 * (SIGKILL, a crash), or when the watchdog gets SIGTERM ({@link #close()}, the JVM's shutdown hook
 * on Ctrl-C), it stops the server with an immediate shutdown (no checkpoint: the data is thrown
 * away), waits for it and removes the folder. {@link #close()} waits for that and finishes the job
 * itself should the watchdog be gone. Folders that a killed watchdog left behind (its JVM and it
 * both dead) are removed by the next {@link #start()}.
 *
 * <p>Two counters place a cost on the server's side: {@link #serverCpuSeconds()}, the CPU time of
 * the server's processes from {@code /proc}, and {@link #walSyncs()}, the WAL syncs of
 * {@code pg_stat_wal} (PostgreSQL 14 and later).
 *
 * <p>When no server can start, {@link #start()} throws {@link Unavailable}, whose message is one
 * line saying what was tried and how to install a server.
 */
public final class LocalPostgres implements AutoCloseable {

    /** The loopback address the server listens on and clients connect to. */
    public static final String HOST = "127.0.0.1";
    /** The database superuser initdb creates (trust authentication on loopback: no password). */
    public static final String USER = "hpb";
    /** The database clients connect to: the one initdb creates. */
    public static final String DATABASE = "postgres";
    /** An environment variable naming the folder data directories go in, instead of java.io.tmpdir. */
    public static final String DIR_ENV = "HPB_POSTGRES_DIR";

    /** How every server's folder is named: the prefix, the owning JVM's pid, '-', a unique tail. */
    static final String PREFIX = "hotpathbench-postgres-";
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-.*");

    /**
     * The settings every server starts with, beside PostgreSQL's defaults (fsync, full_page_writes
     * and synchronous_commit stay on). Loopback only; no Unix socket, so no socket file outlives a
     * killed server; no autovacuum, whose workers would wake at random; no timed checkpoint (one a
     * day) and none forced by WAL volume below 16 GB, so a checkpoint's writes and fsyncs happen only
     * when {@link #checkpoint()} asks, between iterations; checkpoint lines kept out of the log.
     */
    public static final Map<String, String> SETTINGS = settings(
            "listen_addresses", HOST,
            "unix_socket_directories", "",
            "autovacuum", "off",
            "checkpoint_timeout", "1d",
            "max_wal_size", "16GB",
            "log_checkpoints", "off");

    /**
     * Starts the command given after {@code $1} (the JVM's pid) and {@code $2} (the folder) with its
     * output in {@code $2/server.log}, writes "watchdog-pid server-pid" to {@code $2/pids}, then
     * checks every second that the JVM is alive (a zombie counts as gone). When the JVM is gone, or
     * on SIGTERM, SIGINT or SIGHUP, it stops the server with SIGQUIT (PostgreSQL's immediate
     * shutdown), waits for it, removes the folder and exits. A server that stops on its own is left
     * for the JVM to read its log; the folder goes when the JVM closes or dies.
     * {@code sleep 1 & wait $!}: a trapped signal interrupts {@code wait} at once.
     */
    static final String WATCHDOG = """
            jvm=$1; root=$2; shift 2
            "$@" >>"$root/server.log" 2>&1 &
            server=$!
            echo "$$ $server" >"$root/pids.tmp" && mv "$root/pids.tmp" "$root/pids"
            stop() {
              trap '' TERM INT HUP
              kill -QUIT "$server" 2>/dev/null
              wait "$server"
              rm -rf "$root"
              exit 0
            }
            trap stop TERM INT HUP
            alive() {
              s=$(sed -n 's/^.*) \\(.\\).*$/\\1/p' "/proc/$1/stat" 2>/dev/null)
              [ -n "$s" ] && [ "$s" != Z ]
            }
            while alive "$jvm"; do
              sleep 1 &
              wait $!
            done
            stop
            """;

    /**
     * Run as the server's user: initdb into {@code $3} (its errors in the log), then exec the server
     * with the arguments after {@code $3}, so the watchdog's child is the postmaster itself. A signal
     * during initdb stops initdb before the shell exits, so nothing writes into a folder being removed.
     */
    static final String INIT_AND_RUN = """
            initdb=$1; postgres=$2; data=$3; shift 3
            "$initdb" -D "$data" -U hpb -A trust -E UTF8 --locale=C -N >/dev/null &
            init=$!
            trap 'kill -KILL "$init" 2>/dev/null; wait "$init"; exit 1' TERM INT QUIT HUP
            wait "$init" || exit 1
            trap - TERM INT QUIT HUP
            exec "$postgres" -D "$data" "$@"
            """;

    /** Runs its arguments in the background and exits, so that what they start is no child of this JVM. */
    static final String DETACH = "\"$@\" </dev/null >/dev/null 2>&1 &";

    private static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");
    private static final int START_ATTEMPTS = 3;
    private static final long START_TIMEOUT_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = 20_000;
    private static final long CLOCK_TICKS = clockTicks();

    private final Path root;
    private final Path bin;
    private final String runsAs;
    private final int port;
    private final long watchdogPid;
    private final long serverPid;
    private final Connection admin;
    private final String version;
    private final int versionNum;
    private final String fileSystem;
    private final Thread shutdownHook;
    private boolean stopped;

    private LocalPostgres(Path root, Path bin, String runsAs, int port, long watchdogPid, long serverPid,
                          Connection admin, String version, int versionNum, String fileSystem) {
        this.root = root;
        this.bin = bin;
        this.runsAs = runsAs;
        this.port = port;
        this.watchdogPid = watchdogPid;
        this.serverPid = serverPid;
        this.admin = admin;
        this.version = version;
        this.versionNum = versionNum;
        this.fileSystem = fileSystem;
        this.shutdownHook = new Thread(this::stop, "postgres-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Thrown when no PostgreSQL server could start; its message is one line saying what was tried and how to install one. */
    public static final class Unavailable extends Exception {
        /**
         * What starts the message: jmh:run reads it in a failed fork's output and skips the
         * technique with the rest of the line as its reason, where any other failure stops the run.
         */
        public static final String MARKER = "HOTPATH_UNAVAILABLE: ";
        static final String INSTALL = "install PostgreSQL 14 or later (Debian/Ubuntu: apt-get install postgresql, as .ci/run does; "
                + "elsewhere put its bin folder, with postgres and initdb, on the PATH)";

        /** {@code message}, one line, after the marker: what is missing and how to get it. */
        public Unavailable(String message) {
            super(MARKER + message);
        }
    }

    /** A server with {@link #SETTINGS}. */
    public static LocalPostgres start() throws Unavailable {
        return start(Map.of());
    }

    /**
     * A server with {@link #SETTINGS} and {@code settings} over them (each passed as
     * {@code -c name=value}), such as {@code synchronous_commit=off}.
     */
    public static LocalPostgres start(Map<String, String> settings) throws Unavailable {
        return start(settings, System.getenv("PATH"), DEBIAN_ROOT);
    }

    /** {@link #start(Map)} with the binaries looked up in {@code path} and {@code debianRoot}. */
    static LocalPostgres start(Map<String, String> settings, String path, Path debianRoot) throws Unavailable {
        Map<String, String> all = new LinkedHashMap<>(SETTINGS);
        settings.forEach((k, v) -> {
            if (!k.matches("[a-z_.]+")) {
                throw new IllegalArgumentException("not a setting name: " + k);
            }
            all.put(k, v);
        });
        Path bin = installation(path, debianRoot);
        if (bin == null) {
            throw new Unavailable("no PostgreSQL server: no postgres and initdb on the PATH or under " + debianRoot + "/*/bin; " + Unavailable.INSTALL);
        }
        RunAs runAs = RunAs.detect();
        Path base = base();
        sweep(base);
        String failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                return launch(bin, runAs, base, all);
            } catch (PortTaken e) {
                failure = e.getMessage();
            } catch (IOException e) {
                throw new Unavailable("PostgreSQL from " + bin + " did not start: " + oneLine(e.getMessage()));
            }
        }
        throw new Unavailable("PostgreSQL from " + bin + " did not start: " + oneLine(failure));
    }

    /** Port on {@link #HOST}. */
    public int port() {
        return port;
    }

    /** A JDBC URL for {@link #DATABASE} on this server (user {@link #USER}, no TLS). */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + DATABASE + "?user=" + USER + "&sslmode=disable";
    }

    /** A new connection to {@link #DATABASE} as {@link #USER}; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl());
    }

    /** {@code server_version}, e.g. "15.18 (Debian 15.18-0+deb12u1)". */
    public String version() {
        return version;
    }

    /** The major version, e.g. 15. */
    public int majorVersion() {
        return versionNum / 10_000;
    }

    /** The folder holding postgres and initdb. */
    public Path binaries() {
        return bin;
    }

    /** The operating system user the server runs as. */
    public String runsAs() {
        return runsAs;
    }

    /** The data directory (removed when the server stops). */
    public Path dataDirectory() {
        return root.resolve("data");
    }

    /** The type of the file system the data directory is on, as the mount table names it: "ext4", "xfs", "tmpfs", ... */
    public String fileSystem() {
        return fileSystem;
    }

    /** The postmaster's pid. */
    public long pid() {
        return serverPid;
    }

    /** The postmaster's process, while it runs. */
    public Optional<ProcessHandle> serverProcess() {
        return alive(serverPid) ? ProcessHandle.of(serverPid) : Optional.empty();
    }

    /** One line for a run's log: version, binaries, user, port, and where the data lives. */
    public String describe() {
        return "PostgreSQL " + version + " from " + bin + " as " + runsAs + " on " + HOST + ":" + port
                + ", data on " + fileSystem + " in " + dataDirectory();
    }

    /**
     * CPU seconds (user and system) the server's processes have used since it started: the
     * postmaster's and every live descendant's own time ({@code /proc/<pid>/schedstat}, in
     * nanoseconds; {@code /proc/<pid>/stat}'s clock ticks where the kernel keeps no schedstat) and
     * that of their exited children ({@code /proc/<pid>/stat}'s cutime and cstime, in clock ticks,
     * 10 ms on Linux), so backends that came and went count too.
     */
    public double serverCpuSeconds() {
        return treeNanos(serverPid) / 1e9;
    }

    /** {@link #cpuNanos} of a process and of its descendants, found through /proc's children lists. */
    static long treeNanos(long pid) {
        long nanos = cpuNanos(pid);
        for (long child : children(pid)) {
            nanos += treeNanos(child);
        }
        return nanos;
    }

    /**
     * The children of {@code pid}, from {@code /proc/<pid>/task/<pid>/children} (a scan of one small
     * file, where {@link ProcessHandle#children()} reads every process on the machine); ProcessHandle's
     * answer where that file does not exist.
     */
    static long[] children(long pid) {
        try {
            String list = Files.readString(Path.of("/proc", Long.toString(pid), "task", Long.toString(pid), "children"),
                    StandardCharsets.US_ASCII).trim();
            return list.isEmpty() ? new long[0] : Arrays.stream(list.split(" ")).mapToLong(Long::parseLong).toArray();
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).stream().flatMap(ProcessHandle::children).mapToLong(ProcessHandle::pid).toArray();
        }
    }

    /**
     * WAL syncs since the server started ({@code pg_stat_wal.wal_sync}, PostgreSQL 14 and later).
     * Each backend adds its own to that view at most once a second while busy, and at once after
     * {@link #flushStatistics(Connection)} on its connection; the WAL writer adds its own as it
     * writes. So read it when the connections that wrote have been flushed.
     */
    public synchronized long walSyncs() throws SQLException {
        if (majorVersion() < 14) {
            throw new SQLException("pg_stat_wal needs PostgreSQL 14 or later; this is " + version);
        }
        try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery("SELECT wal_sync FROM pg_stat_wal")) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * Makes the backend of {@code connection} publish its pending statistics (WAL syncs among them)
     * now rather than up to a second later ({@code pg_stat_force_next_flush()}, PostgreSQL 15 and
     * later; it takes effect when the statement ends, before the server answers). Does nothing on
     * older servers, whose statistics arrive within half a second.
     */
    public void flushStatistics(Connection connection) throws SQLException {
        if (majorVersion() >= 15) {
            try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SELECT pg_stat_force_next_flush()")) {
                r.next();
            }
        }
    }

    /** {@code CHECKPOINT}: writes every dirty page now, so none is left for a checkpoint during a measurement. */
    public synchronized void checkpoint() throws SQLException {
        try (Statement s = admin.createStatement()) {
            s.execute("CHECKPOINT");
        }
    }

    /**
     * The median time, in microseconds, of rewriting one 8 KiB block of a file followed by
     * {@code fdatasync} (PostgreSQL's default {@code wal_sync_method}, on a file whose size does not
     * change, as a WAL segment's), over 50 of them, in the data directory's file system: what one WAL
     * flush costs there at least, pg_test_fsync's "one 8kB write" figure. Tens of microseconds or
     * less means the sync reaches no disk (tmpfs, a volatile write cache) and synchronous commit is
     * nearly free.
     */
    public double syncMicros() {
        int times = 50;
        Path probe = root.resolve("sync-probe");
        long[] nanos = new long[times];
        ByteBuffer page = ByteBuffer.allocate(8192);
        try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(page, 0);
            channel.force(true);
            for (int i = 0; i < times; i++) {
                page.clear();
                page.put(0, (byte) i);
                long start = System.nanoTime();
                channel.write(page, 0);
                channel.force(false);
                nanos[i] = System.nanoTime() - start;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot time a sync in " + root, e);
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                // removed with the folder
            }
        }
        Arrays.sort(nanos);
        return nanos[times / 2] / 1e3;
    }

    /** Stops the server and removes its data directory, and waits until both are gone; calling it again does nothing. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook is running or has run stop()
        }
    }

    private synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            admin.close();
        } catch (SQLException e) {
            // the server goes anyway
        }
        stop(root, watchdogPid, serverPid);
    }

    /**
     * SIGTERM to the watchdog, which stops the server and removes the folder; if it is gone or does
     * not finish in time, the server's processes are killed and the folder removed from here.
     */
    static void stop(Path root, long watchdogPid, long serverPid) {
        if (alive(watchdogPid)) {
            ProcessHandle.of(watchdogPid).ifPresent(ProcessHandle::destroy);
            if (!await(() -> !alive(watchdogPid), STOP_TIMEOUT_MS)) {
                ProcessHandle.of(watchdogPid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        kill(serverPid);
        deleteTree(root);
    }

    private static LocalPostgres launch(Path bin, RunAs runAs, Path base, Map<String, String> settings) throws IOException {
        Path root = Files.createTempDirectory(base, PREFIX + ProcessHandle.current().pid() + "-");
        long watchdogPid = -1;
        long serverPid = -1;
        try {
            runAs.own(root);
            int port = freePort();
            List<String> server = new ArrayList<>(runAs.prefix());
            server.addAll(List.of("/bin/sh", "-c", INIT_AND_RUN, "hpb-postgres-init",
                    bin.resolve("initdb").toString(), bin.resolve("postgres").toString(), root.resolve("data").toString(),
                    "-p", Integer.toString(port)));
            settings.forEach((k, v) -> {
                server.add("-c");
                server.add(k + "=" + v);
            });
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", DETACH, "hpb-postgres-launch"));
            Path setsid = onPath("setsid");
            if (setsid != null) {
                command.add(setsid.toString());
            }
            command.addAll(List.of("/bin/sh", "-c", WATCHDOG, "hpb-postgres-watchdog",
                    Long.toString(ProcessHandle.current().pid()), root.toString()));
            command.addAll(server);
            Process launcher = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                if (!launcher.waitFor(10, TimeUnit.SECONDS)) {
                    launcher.destroyForcibly();
                    throw new IOException("the shell that starts the watchdog did not exit");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the server");
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
            long[] pids = awaitPids(root, deadline);
            watchdogPid = pids[0];
            serverPid = pids[1];
            Connection admin = awaitReady(root, port, serverPid, watchdogPid, deadline);
            try (Statement s = admin.createStatement();
                 ResultSet r = s.executeQuery("SELECT current_setting('server_version'), current_setting('server_version_num')::int")) {
                r.next();
                String fileSystem = Files.getFileStore(root).type();
                return new LocalPostgres(root, bin, runAs.user(), port, watchdogPid, serverPid, admin, r.getString(1), r.getInt(2), fileSystem);
            } catch (SQLException | IOException e) {
                admin.close();
                throw e;
            }
        } catch (IOException | SQLException | RuntimeException e) {
            stop(root, watchdogPid, serverPid);
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getMessage(), e);
        }
    }

    /** The watchdog's and the server's pids, once the watchdog has written them. */
    private static long[] awaitPids(Path root, long deadline) throws IOException {
        Path file = root.resolve("pids");
        while (System.nanoTime() < deadline) {
            try {
                String[] words = Files.readString(file, StandardCharsets.US_ASCII).trim().split(" ");
                if (words.length == 2) {
                    return new long[] {Long.parseLong(words[0]), Long.parseLong(words[1])};
                }
            } catch (NoSuchFileException e) {
                // not written yet
            }
            pause();
        }
        throw new IOException("the watchdog did not start (no " + file + ")");
    }

    /** The admin connection, once the server accepts one; IOException with the log's last line if it exits first. */
    private static Connection awaitReady(Path root, int port, long serverPid, long watchdogPid, long deadline) throws IOException {
        String url = "jdbc:postgresql://" + HOST + ":" + port + "/" + DATABASE;
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        properties.setProperty("sslmode", "disable");
        properties.setProperty("connectTimeout", "2");
        properties.setProperty("ApplicationName", "hotpathbench-admin");
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (alive(serverPid)) {
                try {
                    return DriverManager.getConnection(url, properties);
                } catch (SQLException e) {
                    last = e;  // initdb still running, or the server still starting
                }
            } else {
                String log = lastLogLine(root);
                if (log.contains("already in use") || log.contains("could not create any TCP/IP sockets")) {
                    throw new PortTaken("port " + port + " taken: " + log);
                }
                throw new IOException("server exited: " + (log.isEmpty() ? "no output" : log));
            }
            if (!alive(watchdogPid)) {
                throw new IOException("the watchdog exited");
            }
            pause();
        }
        throw new IOException("no connection within " + START_TIMEOUT_MS + " ms" + (last == null ? "" : ": " + last.getMessage())
                + "; log: " + lastLogLine(root));
    }

    /** Another process took the port between {@link #freePort()} and the server's bind: try another. */
    private static final class PortTaken extends IOException {
        PortTaken(String message) {
            super(message);
        }
    }

    /** The last non-empty line of the server's log (initdb's errors included), or "". */
    static String lastLogLine(Path root) {
        try {
            List<String> lines = Files.readAllLines(root.resolve("server.log"), StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return lines.get(i).strip();
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // no log yet
        }
        return "";
    }

    /**
     * The folder with {@code postgres} and {@code initdb}: the one the {@code PATH}'s
     * {@code postgres} resolves to (through symbolic links) if {@code initdb} is beside it, else
     * the highest version under {@code debianRoot} that has both; null if none.
     */
    static Path installation(String path, Path debianRoot) {
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path postgres = Path.of(dir, "postgres");
                if (Files.isRegularFile(postgres) && Files.isExecutable(postgres)) {
                    try {
                        Path bin = postgres.toRealPath().getParent();
                        if (complete(bin)) {
                            return bin;
                        }
                    } catch (IOException e) {
                        // a dangling link: look further
                    }
                }
            }
        }
        if (!Files.isDirectory(debianRoot)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(debianRoot)) {
            return versions.map(v -> v.resolve("bin")).filter(LocalPostgres::complete)
                    .max(Comparator.comparing(b -> version(b.getParent().getFileName().toString())))
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean complete(Path bin) {
        return bin != null && Files.isExecutable(bin.resolve("postgres")) && Files.isExecutable(bin.resolve("initdb"));
    }

    /** "15" -> 15.0, "9.6" -> 9.6, anything else -> -1: Debian names its folders by major version. */
    private static double version(String name) {
        try {
            return Double.parseDouble(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Where the server folders go: $HPB_POSTGRES_DIR, else java.io.tmpdir. */
    static Path base() throws Unavailable {
        String dir = System.getenv(DIR_ENV);
        Path base = Path.of(dir != null && !dir.isBlank() ? dir : System.getProperty("java.io.tmpdir"));
        if (!Files.isDirectory(base)) {
            throw new Unavailable("no folder " + base + " for the data directory" + (dir != null ? " (" + DIR_ENV + ")" : ""));
        }
        return base;
    }

    /**
     * Removes the folders in {@code base} whose JVM and watchdog are both gone (the watchdog was
     * killed with its JVM, so nothing cleaned up): their server, if it still runs, is killed first.
     * A folder whose JVM lives, or whose watchdog is still at work, is left alone.
     */
    static void sweep(Path base) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(base, PREFIX + "*")) {
            for (Path root : entries) {
                var owner = OWNED.matcher(root.getFileName().toString());
                if (!owner.matches() || alive(Long.parseLong(owner.group(1)))) {
                    continue;
                }
                long watchdog = -1;
                long server = -1;
                try {
                    String[] words = Files.readString(root.resolve("pids"), StandardCharsets.US_ASCII).trim().split(" ");
                    watchdog = Long.parseLong(words[0]);
                    server = Long.parseLong(words[1]);
                } catch (IOException | RuntimeException e) {
                    // killed before the watchdog wrote its pids
                }
                if (!alive(watchdog)) {
                    kill(server);
                    deleteTree(root);
                }
            }
        } catch (IOException e) {
            // nothing to sweep, or no permission: leave it
        }
    }

    /** Whether process {@code pid} runs: it exists and is no zombie (one that has exited, not yet reaped by its parent). */
    static boolean alive(long pid) {
        if (pid <= 0) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Waits up to {@code millis} for {@code condition}; whether it came true. */
    private static boolean await(java.util.function.BooleanSupplier condition, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return condition.getAsBoolean();
            }
        }
        return true;
    }

    /** SIGQUIT to a server still running (immediate shutdown), SIGKILL to it and its processes after 10 s. */
    private static void kill(long serverPid) {
        if (!alive(serverPid)) {
            return;
        }
        List<ProcessHandle> children = ProcessHandle.of(serverPid).map(p -> p.descendants().toList()).orElse(List.of());
        try {
            new ProcessBuilder("kill", "-QUIT", Long.toString(serverPid)).start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // SIGKILL below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!await(() -> !alive(serverPid), 10_000)) {
            ProcessHandle.of(serverPid).ifPresent(ProcessHandle::destroyForcibly);
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // reported below if the folder stays
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // reported below
        }
        if (Files.exists(root)) {
            System.err.println("cannot remove " + root);
        }
    }

    /** CPU nanoseconds of one process (its own, and its exited children's); 0 if it is gone. */
    static long cpuNanos(long pid) {
        long[] times;
        try {
            times = parseTimes(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        long tick = 1_000_000_000L / CLOCK_TICKS;
        long own;
        try {
            String schedstat = Files.readString(Path.of("/proc", Long.toString(pid), "schedstat"), StandardCharsets.US_ASCII);
            own = Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            own = (times[0] + times[1]) * tick;
        }
        return own + (times[2] + times[3]) * tick;
    }

    /**
     * utime, stime, cutime and cstime, in clock ticks, of a /proc/<pid>/stat line (fields 14-17; the
     * command in field 2 may hold spaces and parentheses).
     */
    static long[] parseTimes(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // f[0] is field 3 (state): field n is f[n - 3]
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return Long.parseLong(out);
            }
        } catch (IOException | NumberFormatException e) {
            // Linux's USER_HZ below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the server");
        }
    }

    static Path onPath(String name) {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name)) && Files.isRegularFile(Path.of(dir, name))) {
                return Path.of(dir, name);
            }
        }
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name);
            }
        }
        return null;
    }

    private static String oneLine(String message) {
        return message == null ? "failed" : message.replaceAll("\\s+", " ").strip();
    }

    private static Map<String, String> settings(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(m);
    }
}
