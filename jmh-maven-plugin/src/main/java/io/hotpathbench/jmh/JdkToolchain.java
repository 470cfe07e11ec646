package io.hotpathbench.jmh;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashSet;
import org.apache.maven.execution.MavenExecutionRequest;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;
import org.apache.maven.toolchain.model.ToolchainModel;

/**
 * Finds the {@code java} of the JDK that {@code -Djmh.jdk=N} asks for the way the Maven ecosystem
 * does (maven-toolchains-plugin, surefire's {@code jdkToolchain}): a toolchain of type {@code jdk}
 * whose {@code version} meets the requirement N, declared in {@code ~/.m2/toolchains.xml}, the
 * file given with {@code mvn -t FILE}, or Maven's global toolchains file.
 */
final class JdkToolchain {

    private JdkToolchain() {
    }

    /**
     * The java executable of the first toolchain that matches {@code version}.
     *
     * @param files    the toolchains files Maven read, named in the message when none matches
     * @param declared the versions of every JDK toolchain declared there, named in that message too
     * @throws MojoFailureException with one line saying what was looked for and how to declare it
     */
    static String java(ToolchainManager manager, MavenSession session, String version,
                       List<File> files, List<String> declared) throws MojoFailureException {
        List<Toolchain> found;
        try {
            found = manager.getToolchains(session, "jdk", Map.of("version", version));
        } catch (RuntimeException e) {
            throw new MojoFailureException("-Djmh.jdk=" + version + ": cannot read the toolchains in "
                    + String.join(" or ", describe(files)) + ": " + e.getMessage());
        }
        if (found == null || found.isEmpty()) {
            throw new MojoFailureException(notFound(version, files, declared));
        }
        Toolchain toolchain = found.get(0);
        String java = toolchain.findTool("java");
        if (java == null) {
            throw new MojoFailureException("-Djmh.jdk=" + version + ": the JDK toolchain " + toolchain
                    + " has no bin/java; correct its jdkHome in " + String.join(" or ", describe(files)));
        }
        return java;
    }

    /** The one-line message for a version that no declared JDK toolchain provides. */
    static String notFound(String version, List<File> files, List<String> declared) {
        String target = files.isEmpty() ? "~/.m2/toolchains.xml" : files.get(0).getPath();
        return "-Djmh.jdk=" + version + ": no toolchain of type jdk with version " + version + " in "
                + String.join(" or ", describe(files))
                + (declared.isEmpty() ? "" : " (JDK toolchains declared there: " + String.join(", ", declared) + ")")
                + "; declare one inside <toolchains> in " + target + " (or in a file given with mvn -t FILE): "
                + "<toolchain><type>jdk</type><provides><version>" + version + "</version></provides>"
                + "<configuration><jdkHome>/path/to/jdk</jdkHome></configuration></toolchain>";
    }

    private static List<String> describe(List<File> files) {
        List<String> out = new ArrayList<>();
        for (File f : files) {
            out.add(f.getPath() + (f.isFile() ? "" : " (missing)"));
        }
        return out.isEmpty() ? List.of("no toolchains file") : out;
    }

    /** The user's toolchains file (default {@code ~/.m2/toolchains.xml}, or {@code -t FILE}), then the global one. */
    static List<File> files(MavenSession session) {
        MavenExecutionRequest request = session.getRequest();
        List<File> files = new ArrayList<>();
        if (request.getUserToolchainsFile() != null) {
            files.add(request.getUserToolchainsFile());
        }
        if (request.getGlobalToolchainsFile() != null) {
            files.add(request.getGlobalToolchainsFile());
        }
        return files;
    }

    /** The versions the declared JDK toolchains provide, in declaration order; empty when Maven does not say. */
    static List<String> declaredVersions(MavenSession session) {
        LinkedHashSet<String> versions = new LinkedHashSet<>();
        try {
            List<ToolchainModel> jdks = session.getRequest().getToolchains().getOrDefault("jdk", List.of());
            for (ToolchainModel model : jdks) {
                String v = model.getProvides() == null ? null : model.getProvides().getProperty("version");
                if (v != null) {
                    versions.add(v);
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // Only decorates the message; a Maven that keeps toolchains elsewhere just omits the list.
        }
        return List.copyOf(versions);
    }
}
