package io.hotpathbench.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The plugin's questions to the suite's rules, which live in Python under {@code scripts/} and
 * nowhere in the plugin: {@code python3 scripts/plan.py COMMAND REQUEST.json ANSWER.json}, run in
 * the project's base directory. {@code schedule} says what a trials run measures (groups, steps,
 * warm-ups, a gate's looks and checks); {@code look} judges a {@code -Djmh.gate} run at a look.
 * Request and answer carry {@code "contract": }{@value #CONTRACT}, checked on both sides, so a plugin
 * and scripts of different checkouts refuse each other instead of misreading. Without Python or
 * with a failing plan.py the run fails in one line; {@code -Djmh.f} (JMH's own order) needs neither.
 */
final class PlanScript {

    /** The version of the request and answer format both sides speak (scripts/hpb/schedule.py's CONTRACT). */
    static final int CONTRACT = 1;

    static final String SCRIPT = "scripts/plan.py";

    private final Path base;
    private final String python;
    private int asked;

    PlanScript(Path base, String python) {
        this.base = base;
        this.python = python;
    }

    PlanScript(Path base) {
        this(base, "python3");
    }

    /** Asks {@code command} with {@code request} (the contract is added), files kept in {@code work}; the answer. */
    Map<?, ?> ask(String command, Map<String, Object> request, Path work) throws MojoFailureException {
        if (!Files.isRegularFile(base.resolve(SCRIPT))) {
            throw new MojoFailureException("no " + SCRIPT + " in " + base + ": the trial schedule reads the suite's rules"
                    + " there; run mvn jmh:run in the suite's checkout (or -Djmh.f=N for JMH's own order)");
        }
        int n = ++asked;
        Path in = work.resolve("plan-" + n + "-" + command + ".request.json");
        Path out = work.resolve("plan-" + n + "-" + command + ".answer.json");
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("contract", CONTRACT);
        sent.putAll(request);
        String output;
        int exit;
        try {
            Files.writeString(in, Json.write(sent), StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(List.of(python, SCRIPT, command, in.toString(), out.toString()))
                    .directory(base.toFile()).redirectErrorStream(true).start();
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            exit = p.waitFor();
        } catch (IOException e) {
            throw new MojoFailureException("the trial schedule needs Python 3 to read the suite's rules (" + python + " "
                    + SCRIPT + " could not start: " + e.getMessage() + "): install python3 (apt-get install python3),"
                    + " or run JMH's own order with -Djmh.f=N");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoFailureException("interrupted; the run was stopped and nothing was stored", e);
        }
        if (exit != 0) {
            throw new MojoFailureException(SCRIPT + " " + command + ": " + lastLine(output));
        }
        Object answer;
        try {
            answer = Json.read(Files.readString(out, StandardCharsets.UTF_8));
        } catch (IOException | IllegalArgumentException e) {
            throw new MojoFailureException(SCRIPT + " " + command + " wrote no readable answer (" + e.getMessage() + ")");
        }
        if (!(answer instanceof Map<?, ?> m) || !(m.get("contract") instanceof Number c) || c.intValue() != CONTRACT) {
            Object got = answer instanceof Map<?, ?> m ? m.get("contract") : null;
            throw new MojoFailureException(SCRIPT + " answered contract " + got + " and this plugin speaks " + CONTRACT
                    + ": build the plugin from this checkout (mvn install)");
        }
        return m;
    }

    /** plan.py's one line of bad input (or a traceback's last line), whatever else Python printed before it. */
    static String lastLine(String output) {
        String last = "exited without a message";
        for (String line : output.split("\\R")) {
            if (!line.isBlank()) {
                last = line.strip();
            }
        }
        return last;
    }
}
