package io.hotpathbench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvironmentTest {

    private static final String SETTINGS = String.join("\n",
            "Property settings:",
            "    file.encoding = UTF-8",
            "    java.home = /usr/lib/jvm/temurin-25-jdk-amd64",
            "    java.library.path = /usr/java/packages/lib",
            "        /usr/lib64",
            "        /lib",
            "    java.runtime.version = 25.0.3+9-LTS",
            "    java.vendor = Eclipse Adoptium",
            "    java.version = 25.0.3",
            "    java.vm.name = OpenJDK 64-Bit Server VM",
            "    java.vm.version = 25.0.3+9-LTS",
            "    line.separator = \\n ",
            "",
            "openjdk version \"25.0.3\" 2026-04-21 LTS",
            "OpenJDK 64-Bit Server VM Temurin-25.0.3+9 (build 25.0.3+9-LTS, mixed mode, sharing)");

    @Test
    void parsesShowSettingsPropertiesAndKeepsTheFirstLineOfAList() {
        Map<String, String> p = Environment.parseSettings(SETTINGS);
        assertEquals("25.0.3", p.get("java.version"));
        assertEquals("Eclipse Adoptium", p.get("java.vendor"));
        assertEquals("/usr/java/packages/lib", p.get("java.library.path"));
        assertEquals("\\n", p.get("line.separator"));
        assertEquals(9, p.size(), p.toString());
    }

    @Test
    void jdkRecordsTheProbedProperties() {
        Map<String, Object> jdk = Environment.jdk("/j/bin/java", Environment.parseSettings(SETTINGS)::get);
        assertEquals(List.of("executable", "vendor", "version", "runtimeVersion", "vmName", "vmVersion", "home"),
                List.copyOf(jdk.keySet()));
        assertEquals("25.0.3+9-LTS", jdk.get("runtimeVersion"));
        assertEquals("/usr/lib/jvm/temurin-25-jdk-amd64", jdk.get("home"));
    }

    @Test
    void probeRunsARealJavaAndReportsAMissingOneInOneLine() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Environment.Probe ok = Environment.probe(java);
        assertNull(ok.error());
        assertEquals(System.getProperty("java.version"), ok.properties().get("java.version"));
        assertEquals(System.getProperty("java.vm.version"), ok.properties().get("java.vm.version"));
        Environment.Probe missing = Environment.probe("/no/such/java");
        assertTrue(missing.error().startsWith("cannot run /no/such/java: "), missing.error());
        assertTrue(!missing.error().contains("\n"));
    }

    @Test
    void hostIdsAreTwelveHexDigitsOfSha256() {
        // printf 'abc' | sha256sum -> ba7816bf8f01cfea...
        assertEquals("ba7816bf8f01", Environment.shortHash("abc"));
        assertEquals("ba7816bf8f01", Environment.shortHash("abc\n"));
        // printf 'm1\nhost-a' | sha256sum -> 7b356d88e169...: machine id, newline, hostname
        assertEquals("7b356d88e169", Environment.hostId("m1\n", "host-a"));
        assertNotEquals(Environment.hostId("m1", "host-a"), Environment.hostId("m1", "host-b"));
        assertNotEquals(Environment.hostId("m1", "host-a"), Environment.hostId("m2", "host-a"));
        assertNull(Environment.hostId(null, null));
        assertNull(Environment.shortHash(null));
    }

    @Test
    void hostKeepsItsFactsAndAddsBothIds() {
        Map<String, Object> host = Environment.host();
        assertEquals(List.of("id", "bootId", "cpuModel", "availableProcessors", "memTotalBytes", "os", "arch"),
                List.copyOf(host.keySet()));
        assertTrue(host.get("id").toString().matches("[0-9a-f]{12}"), host.toString());
    }
}
