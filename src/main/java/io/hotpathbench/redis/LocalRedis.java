package io.hotpathbench.redis;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import redis.embedded.core.ExecutableProvider;
import redis.embedded.model.OsArchitecture;

/**
 * A real {@code redis-server} of this process's own, on a free loopback port: bound to 127.0.0.1
 * only, persistence off ({@code --save ''}, {@code --appendonly no}), protected mode on. The binary
 * is the {@code redis-server} on the {@code PATH} if there is one, otherwise the one that
 * {@code com.github.codemonstur:embedded-redis} ships for this platform (Redis 6.2; on linux-amd64
 * it links OpenSSL 3), copied once to {@code <java.io.tmpdir>/hotpathbench-redis/<resource>/redis-server}
 * so that the process is called {@code redis-server} whichever binary runs.
 *
 * <p>No server outlives its JVM: {@link #close()} stops it, a shutdown hook stops it on an orderly
 * exit (Ctrl-C included), and a watchdog covers a JVM that is killed outright (SIGKILL, a crash),
 * which runs no hook. The server is started through {@code /bin/sh} as
 * {@code sh -c WATCHDOG hpb-redis-watchdog <jvm pid> <redis-server> <args>}: the shell starts the
 * server, checks every second that both this JVM and the server are alive (a {@code sleep} a
 * second: a millisecond or two of CPU per second of run), and when the JVM is gone stops the server
 * and exits. {@link #close()} sends the shell SIGTERM, on which it stops the
 * server, waits for it and exits; a shell that does not exit in time is killed with the server.
 *
 * <p>When no server can start, {@link #start()} throws {@link Unavailable}, whose message is one
 * line naming every binary tried and why it failed.
 */
public final class LocalRedis implements AutoCloseable {

    /** The loopback address the server binds and clients connect to. */
    public static final String HOST = "127.0.0.1";

    /**
     * Starts the server given as {@code $2} with the arguments after it and stops it when the JVM
     * whose pid is {@code $1} is gone, or when the shell itself gets SIGTERM, SIGINT or SIGHUP.
     * {@code sleep 1 & wait $!}: a trapped signal interrupts {@code wait} at once, where a
     * foreground {@code sleep} would delay the trap by up to a second.
     */
    static final String WATCHDOG = """
            jvm=$1; shift
            "$@" &
            server=$!
            trap 'kill "$server" 2>/dev/null; wait "$server"; exit 0' TERM INT HUP
            while kill -0 "$jvm" 2>/dev/null && kill -0 "$server" 2>/dev/null; do
              sleep 1 &
              wait $!
            done
            kill "$server" 2>/dev/null
            wait "$server"
            """;

    private static final int START_ATTEMPTS = 3;
    private static final long START_TIMEOUT_MS = 10_000;
    private static final int OUTPUT_LINES = 20;

    private final Process watchdog;
    private final Path binary;
    private final Thread shutdownHook;
    private final int port;
    private final String version;
    private final String source;
    private boolean stopped;

    private LocalRedis(Process watchdog, Path binary, int port, String version, String source) {
        this.watchdog = watchdog;
        this.binary = binary;
        this.port = port;
        this.version = version;
        this.source = source;
        this.shutdownHook = new Thread(this::stop, "redis-server-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Thrown when no Redis server could start; its message is one line saying what was tried. */
    public static final class Unavailable extends Exception {
        /**
         * What starts the message: jmh:run reads it in a failed fork's output and skips the
         * technique with the rest of the line as its reason, where any other failure stops the run.
         */
        public static final String MARKER = "HOTPATH_UNAVAILABLE: ";

        Unavailable(String message) {
            super(MARKER + message);
        }
    }

    /** A server on a free loopback port: the {@code PATH}'s {@code redis-server}, else embedded-redis's binary. */
    public static LocalRedis start() throws Unavailable {
        List<String> tried = new ArrayList<>();
        Path onPath = onPath("redis-server");
        if (onPath == null) {
            tried.add("redis-server on the PATH: none");
        } else {
            try {
                return start(onPath, "PATH " + onPath);
            } catch (IOException e) {
                tried.add("redis-server on the PATH: " + oneLine(e.getMessage()));
            }
        }
        String embedded = "embedded-redis " + embeddedRedisVersion();
        try {
            Path shipped = shippedBinary();
            return start(shipped, embedded + " " + shipped.getParent().getFileName() + " (" + shipped + ")");
        } catch (IOException | RuntimeException e) {
            tried.add(embedded + "'s binary: " + oneLine(e.getMessage()));
        }
        throw new Unavailable("no Redis server could start: " + String.join("; ", tried));
    }

    /** Port on {@link #HOST}. */
    public int port() {
        return port;
    }

    /** The running server's {@code redis_version}. */
    public String version() {
        return version;
    }

    /** Which binary runs: {@code PATH /usr/bin/redis-server} or the embedded-redis resource and its copy. */
    public String source() {
        return source;
    }

    /** The {@code redis-server} binary that runs. */
    Path binary() {
        return binary;
    }

    /** One line for a run's log: version, binary and port. */
    public String describe() {
        return "Redis " + version + " from " + source + " on " + HOST + ":" + port;
    }

    /** The server's process (the watchdog shell's child), while it runs. */
    public Optional<ProcessHandle> serverProcess() {
        return watchdog.children().filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false)).findFirst();
    }

    /** Stops the server and its watchdog and waits until both are gone; calling it again does nothing. */
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
        stop(watchdog);
    }

    /** SIGTERM to the watchdog, which stops the server and exits; whatever is left after 5 s is killed. */
    private static void stop(Process watchdog) {
        List<ProcessHandle> descendants = watchdog.descendants().toList();
        watchdog.destroy();
        try {
            if (!watchdog.waitFor(5, TimeUnit.SECONDS)) {
                watchdog.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle p : descendants) {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }

    private static LocalRedis start(Path binary, String source) throws IOException {
        String failure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = freePort();
            List<String> command = List.of("/bin/sh", "-c", WATCHDOG, "hpb-redis-watchdog",
                    Long.toString(ProcessHandle.current().pid()), binary.toString(),
                    "--bind", HOST, "--port", Integer.toString(port), "--save", "", "--appendonly", "no",
                    "--protected-mode", "yes", "--daemonize", "no", "--loglevel", "warning",
                    "--dir", System.getProperty("java.io.tmpdir"));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            Deque<String> output = drain(process.getInputStream());
            String version = awaitReady(process, port);
            if (version != null) {
                return new LocalRedis(process, binary, port, version, source);
            }
            String why = process.isAlive() ? "did not answer within " + START_TIMEOUT_MS + " ms" : "exited with " + process.exitValue();
            stop(process);
            failure = binary + " " + why + lastLine(output);
            // Another process may have taken the port between freePort() and the bind: try another.
            if (!failure.contains("Address already in use")) {
                break;
            }
        }
        throw new IOException(failure);
    }

    /** The server's {@code redis_version} once it answers on {@code port}, or null if it exits or does not answer in time. */
    private static String awaitReady(Process process, int port) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(HOST, port), 200);
                socket.setSoTimeout(2_000);
                String info = command(socket, "INFO", "server");
                for (String line : info.split("\r\n")) {
                    if (line.startsWith("redis_version:")) {
                        return line.substring("redis_version:".length()).trim();
                    }
                }
                return "unknown";
            } catch (IOException e) {
                // not listening yet (or still loading): try again shortly
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /** One command in RESP over a plain socket, its bulk-string reply as text: used before any client library is involved. */
    private static String command(Socket socket, String... args) throws IOException {
        StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
        }
        OutputStream out = socket.getOutputStream();
        out.write(request.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        InputStream in = socket.getInputStream();
        String header = readLine(in);
        if (header.startsWith("-")) {
            // LOADING or another error: the server is not ready
            throw new IOException(header);
        }
        if (!header.startsWith("$")) {
            throw new IOException("unexpected reply " + header);
        }
        byte[] body = in.readNBytes(Integer.parseInt(header.substring(1)) + 2);
        return new String(body, StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        if (c == -1) {
            throw new IOException("connection closed");
        }
        return line.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }

    /** Keeps the last lines the server and its shell print, for a failure's reason; draining also keeps the pipe from filling. */
    private static Deque<String> drain(InputStream stream) {
        Deque<String> lines = new ArrayDeque<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (lines) {
                        if (lines.size() == OUTPUT_LINES) {
                            lines.removeFirst();
                        }
                        lines.addLast(line);
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, "redis-server-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** ": " and the last line the server or its shell printed, or "" if none. */
    private static String lastLine(Deque<String> output) {
        try {
            // give the output reader a moment to take the last lines of a process that just ended
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (output) {
            for (Iterator<String> it = output.descendingIterator(); it.hasNext(); ) {
                String line = it.next().strip();
                if (!line.isEmpty()) {
                    return ": " + line;
                }
            }
        }
        return "";
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * The binary embedded-redis ships for this platform, copied out of its jar once into a folder
     * named after the resource (written to a temporary name, then moved into place, so concurrent
     * forks never run a half-written file).
     */
    static Path shippedBinary() throws IOException {
        OsArchitecture platform = OsArchitecture.detectOSandArchitecture();
        String resource = ExecutableProvider.newProvidedVersionsMap().get(platform);
        if (resource == null) {
            throw new IOException("no binary for " + platform.os + " " + platform.arch);
        }
        String name = resource.startsWith("/") ? resource.substring(1) : resource;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "hotpathbench-redis", name);
        Path binary = dir.resolve("redis-server");
        try (InputStream in = ExecutableProvider.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("resource " + resource + " missing from the jar");
            }
            byte[] bytes = in.readAllBytes();
            if (Files.isExecutable(binary) && Files.size(binary) == bytes.length) {
                return binary;
            }
            copy(bytes, dir, binary);
        } catch (IOException e) {
            throw new IOException("cannot copy " + name + " to " + binary + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
        return binary;
    }

    private static void copy(byte[] bytes, Path dir, Path binary) throws IOException {
        Files.createDirectories(dir);
        Path partial = Files.createTempFile(dir, "redis-server", ".partial");
        try {
            Files.write(partial, bytes);
            if (!partial.toFile().setExecutable(true, false)) {
                throw new IOException("cannot make " + partial + " executable");
            }
            try {
                Files.move(partial, binary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, binary, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static String embeddedRedisVersion() {
        String version = ExecutableProvider.class.getPackage().getImplementationVersion();
        if (version != null) {
            return version;
        }
        try (InputStream in = ExecutableProvider.class.getResourceAsStream(
                "/META-INF/maven/com.github.codemonstur/embedded-redis/pom.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "?");
            }
        } catch (IOException e) {
            // fall through
        }
        return "?";
    }

    private static String oneLine(String message) {
        return message == null ? "failed" : message.replaceAll("\\s+", " ").strip();
    }
}
