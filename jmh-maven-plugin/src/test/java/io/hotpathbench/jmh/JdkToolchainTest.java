package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.toolchain.Toolchain;
import org.apache.maven.toolchain.ToolchainManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdkToolchainTest {

    /** A JDK toolchain as toolchains.xml declares one: its version and its java. */
    private record Jdk(String version, String java) implements Toolchain {
        @Override
        public String getType() {
            return "jdk";
        }

        @Override
        public String findTool(String tool) {
            return tool.equals("java") ? java : null;
        }

        @Override
        public String toString() {
            return "JDK[" + version + "]";
        }
    }

    /** Matches the version requirement exactly and records every lookup it is asked for. */
    private static class FakeManager implements ToolchainManager {
        final List<Jdk> declared;
        final List<String> asked = new ArrayList<>();

        FakeManager(Jdk... declared) {
            this.declared = List.of(declared);
        }

        @Override
        public Toolchain getToolchainFromBuildContext(String type, MavenSession session) {
            return null;
        }

        @Override
        public List<Toolchain> getToolchains(MavenSession session, String type, Map<String, String> requirements) {
            asked.add(type + " " + requirements);
            List<Toolchain> out = new ArrayList<>();
            for (Jdk j : declared) {
                if (type.equals("jdk") && j.version().equals(requirements.get("version"))) {
                    out.add(j);
                }
            }
            return out;
        }
    }

    @TempDir
    Path dir;

    @Test
    void asksForTypeJdkWithTheVersionAndReturnsItsJava() throws Exception {
        FakeManager manager = new FakeManager(new Jdk("17", "/jdk17/bin/java"), new Jdk("25", "/jdk25/bin/java"));
        assertEquals("/jdk25/bin/java", JdkToolchain.java(manager, null, "25", List.of(), List.of("17", "25")));
        assertEquals(List.of("jdk {version=25}"), manager.asked);
    }

    @Test
    void anUndeclaredVersionFailsWithOneLineThatSaysWhatWasLookedForAndHowToDeclareIt() throws Exception {
        File user = Files.writeString(dir.resolve("toolchains.xml"), "<toolchains/>").toFile();
        File global = dir.resolve("global-toolchains.xml").toFile();
        FakeManager manager = new FakeManager(new Jdk("17", "/jdk17/bin/java"), new Jdk("25", "/jdk25/bin/java"));
        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> JdkToolchain.java(manager, null, "99", List.of(user, global), List.of("17", "25")));
        assertEquals("-Djmh.jdk=99: no toolchain of type jdk with version 99 in " + user + " or " + global
                + " (missing) (JDK toolchains declared there: 17, 25); declare one inside <toolchains> in " + user
                + " (or in a file given with mvn -t FILE): <toolchain><type>jdk</type><provides><version>99</version>"
                + "</provides><configuration><jdkHome>/path/to/jdk</jdkHome></configuration></toolchain>",
                e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertEquals(null, e.getCause());
    }

    @Test
    void withNoToolchainsAtAllTheMessageStillNamesTheFilesAndTheXml() {
        File user = dir.resolve("none.xml").toFile();
        assertEquals("-Djmh.jdk=25: no toolchain of type jdk with version 25 in " + user + " (missing); declare one"
                + " inside <toolchains> in " + user + " (or in a file given with mvn -t FILE): <toolchain><type>jdk</type>"
                + "<provides><version>25</version></provides><configuration><jdkHome>/path/to/jdk</jdkHome>"
                + "</configuration></toolchain>", JdkToolchain.notFound("25", List.of(user), List.of()));
    }

    @Test
    void aToolchainWithoutJavaAndAFailingManagerFailInOneLine() {
        MojoFailureException noJava = assertThrows(MojoFailureException.class,
                () -> JdkToolchain.java(new FakeManager(new Jdk("25", null)), null, "25", List.of(), List.of()));
        assertEquals("-Djmh.jdk=25: the JDK toolchain JDK[25] has no bin/java; correct its jdkHome in no toolchains file",
                noJava.getMessage());
        ToolchainManager broken = new FakeManager() {
            @Override
            public List<Toolchain> getToolchains(MavenSession session, String type, Map<String, String> requirements) {
                throw new IllegalStateException("unreadable toolchains.xml");
            }
        };
        MojoFailureException e = assertThrows(MojoFailureException.class,
                () -> JdkToolchain.java(broken, null, "25", List.of(), List.of()));
        assertEquals("-Djmh.jdk=25: cannot read the toolchains in no toolchains file: unreadable toolchains.xml",
                e.getMessage());
    }
}
