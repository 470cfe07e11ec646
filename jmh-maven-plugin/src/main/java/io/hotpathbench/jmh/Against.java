package io.hotpathbench.jmh;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The other side of a two-commit run ({@code -Djmh.against=REF}): the benchmark code at git ref
 * REF, checked out in a worktree outside the checkout, compiled there ({@code mvn test-compile},
 * never installed: an install at REF would overwrite the plugin's snapshot in the local Maven
 * repository) and its class path resolved there, with the instrument its forks run
 * ({@link Instrument#base}: REF's own where it speaks this driver's fork contract). The inner build
 * uses this Maven's local repository. {@link #close()} removes the worktree; so does the run's
 * Ctrl-C hook.
 */
final class Against implements AutoCloseable {

    /** The maven-dependency-plugin that resolves REF's class path, pinned. */
    static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath";

    final String ref;
    final String commit;
    final Path worktree;
    final String classpath;
    /** The instrument REF's forks run: its own copy, or this commit's (and why). */
    final Instrument.Copy instrument;
    private final Path repo;

    private Against(String ref, String commit, Path worktree, String classpath, Instrument.Copy instrument, Path repo) {
        this.ref = ref;
        this.commit = commit;
        this.worktree = worktree;
        this.classpath = classpath;
        this.instrument = instrument;
        this.repo = repo;
    }

    /**
     * Checks the ref, makes the worktree and builds it; on any failure the worktree is removed
     * and the reason is one line.
     */
    static Against prepare(String ref, Path repo, String mvn, java.util.function.Consumer<String> log)
            throws MojoFailureException {
        String commit = resolve(ref, repo);
        Path worktree;
        try {
            worktree = Files.createTempDirectory("hotpath-bench-against-");
            Files.delete(worktree);
        } catch (IOException e) {
            throw new MojoFailureException("cannot make a temporary folder for " + ref + ": " + e.getMessage());
        }
        Against a = null;
        try {
            run(repo, 120, "cannot check out " + ref, "git", "worktree", "add", "--detach", worktree.toString(), commit);
            a = new Against(ref, commit, worktree, null, null, repo);
            if (!Files.isDirectory(worktree.resolve("src").resolve("jmh"))) {
                throw new MojoFailureException(ref + " (" + commit.substring(0, 7) + ") has no benchmarks (no src/jmh)");
            }
            log.accept("-Djmh.against=" + ref + ": building " + commit.substring(0, 7) + " in " + worktree);
            Path cpFile = worktree.resolve("target").resolve("hotpath-bench.classpath");
            List<String> build = new ArrayList<>(List.of(mvn, "-B", "-q", "-DskipJmhPlugin=true"));
            String localRepository = System.getProperty("maven.repo.local");
            if (localRepository != null && !localRepository.isBlank()) {
                build.add("-Dmaven.repo.local=" + localRepository);
            }
            build.addAll(List.of("test-compile", DEPENDENCY_PLUGIN, "-Dmdep.includeScope=test", "-Dmdep.outputFile=" + cpFile));
            run(worktree, 1800, "the build at " + ref + " failed", build.toArray(new String[0]));
            String deps = Files.readString(cpFile, StandardCharsets.UTF_8).strip();
            String cp = String.join(File.pathSeparator, worktree.resolve("target").resolve("test-classes").toString(),
                    worktree.resolve("target").resolve("classes").toString(), deps);
            Instrument.Copy instrument = Instrument.base(worktree, cp, commit, log);
            return new Against(ref, commit, worktree, cp, instrument, repo);
        } catch (MojoFailureException | IOException | RuntimeException e) {
            if (a != null) {
                a.close();
            } else {
                removeWorktree(repo, worktree);
            }
            if (e instanceof MojoFailureException m) {
                throw m;
            }
            throw new MojoFailureException("cannot prepare " + ref + ": " + e.getMessage());
        }
    }

    /** The full commit id of {@code ref}, or one line on why it cannot be had here. */
    static String resolve(String ref, Path repo) throws MojoFailureException {
        if (ref.isBlank() || ref.startsWith("-")) {
            throw new MojoFailureException("-Djmh.against=" + ref + " is not a git ref");
        }
        String commit = Environment.run(repo, "git", "rev-parse", "--verify", "--quiet", ref + "^{commit}");
        if (commit == null || commit.isBlank()) {
            String shallow = Environment.run(repo, "git", "rev-parse", "--is-shallow-repository");
            throw new MojoFailureException("-Djmh.against=" + ref + ": no such commit in this clone"
                    + ("true".equals(shallow)
                    ? " (it is a shallow clone: fetch the history with git fetch --unshallow, or the commit with git fetch origin " + ref + ")"
                    : " (git fetch it first)"));
        }
        return commit.strip();
    }

    private static void run(Path dir, long seconds, String what, String... command) throws MojoFailureException {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new MojoFailureException(what + ": timed out after " + seconds + " s");
            }
            if (p.exitValue() != 0) {
                throw new MojoFailureException(what + ": " + JmhProcess.firstError(new String(out, StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new MojoFailureException(what + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoFailureException(what + ": interrupted");
        }
    }

    static void removeWorktree(Path repo, Path worktree) {
        Environment.run(repo, "git", "worktree", "remove", "--force", worktree.toString());
        TrialRun.delete(worktree);
        Environment.run(repo, "git", "worktree", "prune");
    }

    /** The jmh-core version on this side's class path, to refuse mixing two JMH versions in one file. */
    String jmhVersion() {
        List<String> elements = new ArrayList<>(List.of(classpath.split(File.pathSeparator)));
        return JmhProcess.jmhVersion(elements);
    }

    @Override
    public void close() {
        removeWorktree(repo, worktree);
    }
}
