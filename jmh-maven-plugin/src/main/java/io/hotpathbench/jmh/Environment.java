package io.hotpathbench.jmh;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the facts a cited number needs beside it: commit, JDK, host, CPU, memory, OS. */
final class Environment {

    private Environment() {
    }

    record Git(String commit, String shortCommit, boolean dirty, String branch) {
    }

    static Git git(Path dir) {
        String commit = run(dir, "git", "rev-parse", "HEAD");
        if (commit == null) {
            return new Git(null, null, false, null);
        }
        // results/ is where runs land, so new result files alone do not make a tree dirty.
        String status = run(dir, "git", "status", "--porcelain", "--", ".", ":(exclude)results");
        String branch = run(dir, "git", "rev-parse", "--abbrev-ref", "HEAD");
        return new Git(commit, commit.substring(0, Math.min(7, commit.length())),
                status != null && !status.isBlank(), branch);
    }

    static Map<String, Object> host() {
        Map<String, Object> m = new LinkedHashMap<>();
        // Virtual machines cloned from one image share machine-id and hostname: this id is the same
        // on all of them. It stays as it is because earlier runs carry it.
        m.put("id", hostId(read("/etc/machine-id"), hostname()));
        MachineKey key = machineKey(read("/sys/class/dmi/id/product_uuid"), readAll("/proc/cpuinfo"), memTotal());
        m.put("machineKey", key.key());
        m.put("machineKeySource", key.source());
        // One machine before and after a reboot: a level below the machine.
        m.put("bootId", shortHash(read("/proc/sys/kernel/random/boot_id")));
        m.put("cpuModel", cpuModel());
        m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        m.put("memTotalBytes", memTotal());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        return m;
    }

    /** The machine without naming it: a short hash of its machine id and hostname; null if neither is known. */
    static String hostId(String machineId, String hostname) {
        if (machineId == null && hostname == null) {
            return null;
        }
        return shortHash((machineId == null ? "" : machineId.strip()) + "\n" + (hostname == null ? "" : hostname.strip()));
    }

    /** Which machine a run was made on, and from what that was told. */
    record MachineKey(String key, String source) {
    }

    /** Firmware that has no UUID to give fills it with one repeated digit. */
    private static final Pattern NO_UUID = Pattern.compile("[0-]*|[fF-]*");

    /**
     * The machine, told apart from VMs of the same image without the boot: a short hash of the
     * firmware's {@code product_uuid} (one per VM) where it is readable (root only on most Linux),
     * else of the CPU model, its flags, the processor count and the memory in whole GiB, which
     * tells machine kinds apart but not two VMs of one kind ({@code source} says which). Neither
     * {@code /etc/machine-id} nor the hostname enters it: VMs of one image share both.
     *
     * @param productUuid   {@code /sys/class/dmi/id/product_uuid}, or null
     * @param cpuinfo       {@code /proc/cpuinfo}, or null
     * @param memTotalBytes {@code MemTotal} of {@code /proc/meminfo}, or null
     */
    static MachineKey machineKey(String productUuid, String cpuinfo, Long memTotalBytes) {
        String uuid = productUuid == null ? "" : productUuid.strip().toLowerCase(java.util.Locale.ROOT);
        if (!NO_UUID.matcher(uuid).matches()) {
            return new MachineKey(shortHash("product_uuid\n" + uuid), "product_uuid");
        }
        String model = null;
        java.util.Set<String> flags = new java.util.TreeSet<>();
        int processors = 0;
        for (String line : cpuinfo == null ? new String[0] : cpuinfo.split("\\R")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (name.equals("processor")) {
                processors++;
            } else if (model == null && (name.equals("model name") || name.equals("CPU part"))) {
                model = value;
            } else if (name.equals("flags") || name.equals("Features")) {
                flags.addAll(List.of(value.split("\\s+")));
            }
        }
        if (processors == 0) {
            processors = Runtime.getRuntime().availableProcessors();
        }
        long gib = memTotalBytes == null ? 0 : Math.round(memTotalBytes / (double) (1L << 30));
        return new MachineKey(shortHash(String.join("\n", "cpu", String.valueOf(model), String.join(" ", flags),
                String.valueOf(processors), String.valueOf(gib))),
                "cpu model, flags, processors and memory (no product_uuid to read: VMs of one kind share this key)");
    }

    /** The first 12 hex digits of the SHA-256 of {@code text} (stripped); null for null. */
    static String shortHash(String text) {
        if (text == null) {
            return null;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.strip().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String hostname() {
        String name = read("/proc/sys/kernel/hostname");
        if (name != null) {
            return name;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return System.getenv("HOSTNAME");
        }
    }

    /** A small file's content, stripped; null when it is missing, unreadable or blank. */
    private static String read(String path) {
        try {
            String text = Files.readString(Path.of(path), StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? null : text;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A file's whole content; null when it is missing or unreadable. */
    private static String readAll(String path) {
        try {
            return Files.readString(Path.of(path), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The JDK that runs Maven itself, from this JVM's properties. */
    static Map<String, Object> mavenJdk(List<String> jvmArgs) {
        Map<String, Object> m = jdk(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                System::getProperty);
        m.put("jvmArgs", jvmArgs);
        return m;
    }

    /** The fields recorded for one JDK; {@code property} gives its system properties. */
    static Map<String, Object> jdk(String javaExecutable, UnaryOperator<String> property) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("executable", javaExecutable);
        m.put("vendor", property.apply("java.vendor"));
        m.put("version", property.apply("java.version"));
        m.put("runtimeVersion", property.apply("java.runtime.version"));
        m.put("vmName", property.apply("java.vm.name"));
        m.put("vmVersion", property.apply("java.vm.version"));
        m.put("home", property.apply("java.home"));
        return m;
    }

    /** What {@link #probe} learnt: the JVM's system properties, or in {@code error} one line on why not. */
    record Probe(Map<String, String> properties, String error) {
    }

    /** Asks {@code java} for its system properties ({@code -XshowSettings:properties -version}). */
    static Probe probe(String java) {
        try {
            Process p = new ProcessBuilder(java, "-XshowSettings:properties", "-version")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Probe(Map.of(), java + " -XshowSettings:properties -version did not finish in 60 s");
            }
            Map<String, String> props = parseSettings(out);
            if (p.exitValue() != 0 || !props.containsKey("java.version")) {
                return new Probe(props, java + " -XshowSettings:properties -version exited with "
                        + p.exitValue() + " and printed no java.version");
            }
            return new Probe(props, null);
        } catch (IOException e) {
            return new Probe(Map.of(), "cannot run " + java + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Probe(Map.of(), "interrupted while probing " + java);
        }
    }

    /** One property per line, indented by four spaces; deeper-indented lines continue a list value. */
    private static final Pattern SETTING = Pattern.compile("^ {4}([\\w.]+) = (.*)$");

    /** The properties {@code java -XshowSettings:properties} printed (a list value keeps its first line). */
    static Map<String, String> parseSettings(String output) {
        Map<String, String> props = new LinkedHashMap<>();
        for (String line : output.split("\\R")) {
            Matcher m = SETTING.matcher(line);
            if (m.matches()) {
                props.put(m.group(1), m.group(2).strip());
            }
        }
        return props;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // Not Linux: fall through.
        }
        return System.getProperty("os.arch");
    }

    private static Long memTotal() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("MemTotal:")) {
                    String[] parts = line.trim().split("\\s+");
                    return Long.parseLong(parts[1]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // Not Linux: unknown.
        }
        return null;
    }

    /** Runs a short command; null when it fails. */
    static String run(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(List.of(command)).directory(dir.toFile())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
