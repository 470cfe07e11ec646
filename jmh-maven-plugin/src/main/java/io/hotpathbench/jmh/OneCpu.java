package io.hotpathbench.jmh;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code -Djmh.oneCpu=REGEX}: the trial forks of the benchmarks REGEX finds run under
 * {@code taskset -c CPU}, so the fork's JVM and every process it starts (the Redis technique's
 * {@code redis-server}) share one CPU, the lowest this Maven may use. On these 2-vCPU virtual
 * machines a loopback round trip between two CPUs waits for the other vCPU to wake, and which CPU
 * the server lands on changes from fork to fork: the placement pilot (results/pilot/redis-placement/)
 * measured a fork's best iteration of {@code MGET} varying 7-13% across forks when the kernel placed
 * both processes, 5% on one CPU, and far slower and wider with the two pinned apart. Linux only
 * ({@code taskset} from util-linux on the {@code PATH}).
 */
final class OneCpu {

    private static final Pattern ALLOWED = Pattern.compile("(?m)^Cpus_allowed_list:\\s*(\\d+)");

    final String taskset;
    final int cpu;

    OneCpu(String taskset, int cpu) {
        this.taskset = taskset;
        this.cpu = cpu;
    }

    /** taskset from {@code path} (the PATH's directories) and the lowest CPU in {@code /proc/self/status}. */
    static OneCpu resolve(String path, Path status) {
        String taskset = null;
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset"))) {
                taskset = Path.of(dir, "taskset").toString();
                break;
            }
        }
        if (taskset == null) {
            throw new IllegalArgumentException("-Djmh.oneCpu needs taskset (util-linux) on the PATH; none found");
        }
        String text;
        try {
            text = Files.readString(status);
        } catch (IOException e) {
            throw new IllegalArgumentException("-Djmh.oneCpu reads the CPUs this process may use from " + status
                    + " (Linux only): " + e.getMessage());
        }
        return new OneCpu(taskset, lowestAllowed(text));
    }

    /** The first CPU of the {@code Cpus_allowed_list} line of a {@code /proc/PID/status}. */
    static int lowestAllowed(String status) {
        Matcher m = ALLOWED.matcher(status);
        if (!m.find()) {
            throw new IllegalArgumentException("-Djmh.oneCpu: no Cpus_allowed_list in /proc/self/status (Linux only)");
        }
        return Integer.parseInt(m.group(1));
    }

    /** The command run under {@code taskset -c CPU}. */
    List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of(taskset, "-c", Integer.toString(cpu)));
        out.addAll(command);
        return out;
    }
}
