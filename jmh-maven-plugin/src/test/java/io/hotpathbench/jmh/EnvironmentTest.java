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
    void hostKeepsItsFactsAndAddsTheMachineKeyBesideTheBoot() {
        Map<String, Object> host = Environment.host();
        assertEquals(List.of("id", "machineKey", "machineKeySource", "bootId", "cpuModel", "availableProcessors",
                "memTotalBytes", "os", "arch"), List.copyOf(host.keySet()));
        assertTrue(host.get("id").toString().matches("[0-9a-f]{12}"), host.toString());
        assertTrue(host.get("machineKey").toString().matches("[0-9a-f]{12}"), host.toString());
    }

    private static final String XEON = String.join("\n",
            "processor\t: 0", "model name\t: Intel(R) Xeon(R) Processor", "flags\t\t: fpu sse2 avx2 avx512f",
            "", "processor\t: 1", "model name\t: Intel(R) Xeon(R) Processor", "flags\t\t: fpu sse2 avx2 avx512f", "");

    @Test
    void theProductUuidTellsTwoVmsOfOneImageApart() {
        Environment.MachineKey a = Environment.machineKey("4c4c4544-0042-3510-8052-b4c04f383132\n", XEON, 24L << 30);
        Environment.MachineKey b = Environment.machineKey("EC2A1B3C-0000-1111-2222-333344445555", XEON, 24L << 30);
        assertEquals("product_uuid", a.source());
        assertTrue(a.key().matches("[0-9a-f]{12}"), a.key());
        assertNotEquals(a.key(), b.key());
        assertEquals(b.key(), Environment.machineKey("ec2a1b3c-0000-1111-2222-333344445555", "", null).key(),
                "one uuid, one machine, whatever its CPU reads and whatever case the firmware writes");
    }

    @Test
    void withoutAProductUuidTheCpuAndMemoryMakeTheKey() {
        Environment.MachineKey xeon = Environment.machineKey(null, XEON, 24L << 30);
        assertTrue(xeon.source().startsWith("cpu model, flags, processors and memory"), xeon.source());
        assertEquals(xeon, Environment.machineKey("00000000-0000-0000-0000-000000000000", XEON, 24L << 30),
                "a blank uuid is no uuid");
        assertEquals(xeon.key(), Environment.machineKey("", XEON.replace("fpu sse2 avx2 avx512f", "avx512f fpu avx2 sse2"),
                (24L << 30) - (100L << 20)).key(), "flag order and a kernel's few reserved MiB do not make another machine");
        assertNotEquals(xeon.key(), Environment.machineKey(null, XEON.replace("Xeon(R) Processor", "EPYC 7B13"), 24L << 30).key());
        assertNotEquals(xeon.key(), Environment.machineKey(null, XEON.replace(" avx512f", ""), 24L << 30).key());
        assertNotEquals(xeon.key(), Environment.machineKey(null, XEON, 32L << 30).key());
        assertNotEquals(xeon.key(), Environment.machineKey(null, XEON.substring(0, XEON.indexOf("\n\n")), 24L << 30).key(),
                "two processors, not one");
    }
}
