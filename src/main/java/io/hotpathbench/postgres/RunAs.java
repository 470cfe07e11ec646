package io.hotpathbench.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operating system user a server runs as, and the command prefix that makes it so. PostgreSQL
 * refuses to run as root: under root the server runs as {@code postgres} if that user exists
 * (Debian's package creates it), else as {@code nobody}, through {@code setpriv}; under any other
 * user it runs as that user, with no prefix.
 */
record RunAs(String user, int uid, int gid, List<String> prefix) {

    /** Who the server runs as, given this JVM's user. */
    static RunAs detect() throws LocalPostgres.Unavailable {
        int uid = realUid();
        if (uid != 0) {
            return new RunAs(System.getProperty("user.name"), uid, -1, List.of());
        }
        Path setpriv = LocalPostgres.onPath("setpriv");
        if (setpriv == null) {
            throw new LocalPostgres.Unavailable("running as root, and PostgreSQL refuses root: no setpriv (util-linux) to start it as another user; run as a normal user or install util-linux");
        }
        for (String name : List.of("postgres", "nobody")) {
            String u = id("-u", name);
            String g = id("-g", name);
            if (u != null && g != null) {
                return new RunAs(name, Integer.parseInt(u), Integer.parseInt(g),
                        List.of(setpriv.toString(), "--reuid=" + u, "--regid=" + g, "--init-groups"));
            }
        }
        throw new LocalPostgres.Unavailable("running as root, and PostgreSQL refuses root: neither a postgres nor a nobody user to run it as; " + LocalPostgres.Unavailable.INSTALL);
    }

    /** Gives {@code path} to the server's user, so that initdb can create the data directory in it. */
    void own(Path path) throws IOException {
        if (prefix.isEmpty()) {
            return;
        }
        Process chown = new ProcessBuilder("chown", uid + ":" + gid, path.toString()).redirectErrorStream(true).start();
        String out = new String(chown.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!chown.waitFor(10, TimeUnit.SECONDS) || chown.exitValue() != 0) {
                throw new IOException("cannot give " + path + " to " + user + ": " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** The real uid of this process, from /proc/self/status ("Uid:" real effective saved fs). */
    static int realUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: assume an ordinary user
        }
        return -1;
    }

    /** {@code id -u NAME} or {@code id -g NAME}, or null when there is no such user. */
    private static String id(String flag, String name) {
        try {
            Process p = new ProcessBuilder("id", flag, name).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("\\d+") ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
