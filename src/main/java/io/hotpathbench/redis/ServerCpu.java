package io.hotpathbench.redis;

import redis.clients.jedis.Jedis;

/** The CPU time a Redis server has used, from {@code INFO cpu}: {@code used_cpu_user + used_cpu_sys}, every thread of the process. */
public final class ServerCpu {

    private ServerCpu() {
    }

    /** Seconds of user and system CPU the server process has used since it started (microsecond resolution). */
    public static double seconds(Jedis jedis) {
        return parse(jedis.info("cpu"));
    }

    static double parse(String info) {
        double user = Double.NaN;
        double sys = Double.NaN;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_cpu_user:")) {
                user = Double.parseDouble(line.substring("used_cpu_user:".length()).trim());
            } else if (line.startsWith("used_cpu_sys:")) {
                sys = Double.parseDouble(line.substring("used_cpu_sys:".length()).trim());
            }
        }
        if (Double.isNaN(user) || Double.isNaN(sys)) {
            throw new IllegalStateException("INFO cpu without used_cpu_user and used_cpu_sys: " + info.replaceAll("\\s+", " "));
        }
        return user + sys;
    }
}
