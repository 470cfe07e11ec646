package io.hotpathbench.jmh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The provenance's {@code trials} block: the schedule, its seed, each group and how it ended. */
final class TrialRecord {

    static final String METHOD = "geometric mean of per-trial ratios of paired fork scores; "
            + "95% Student t interval on their logarithms over the trials (n - 1 degrees of freedom)";

    private TrialRecord() {
    }

    static Map<String, Object> of(TrialSchedule schedule, long seed, JmhOptions options, Map<String, String> skipped) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seed", seed);
        m.put("confidence", PairedRatio.CONFIDENCE);
        m.put("method", METHOD);
        Duration budget = options.budget() != null ? options.budget() : RunDefaults.BUDGET;
        boolean fixed = options.trials() != null && options.budget() == null;
        m.put("budgetSeconds", fixed ? null : budget.toSeconds());
        m.put("trialsOption", options.trials());
        m.put("quick", options.isQuick());
        m.put("ended", schedule.ended());
        m.put("elapsedSeconds", Math.round(schedule.elapsedSeconds()));
        m.put("skipped", skipped);
        List<Object> groups = new ArrayList<>();
        for (TrialSchedule.Group g : schedule.groups()) {
            Map<String, Object> gm = new LinkedHashMap<>();
            gm.put("id", g.id);
            gm.put("class", g.first().cls());
            gm.put("mode", g.first().mode());
            gm.put("params", g.first().shared());
            List<Object> members = new ArrayList<>();
            g.members.forEach(c -> members.add(configuration(c)));
            gm.put("members", members);
            gm.put("cited", g.cited.stream().map(TrialSchedule.Pair::id).distinct().toList());
            gm.put("minTrials", g.minTrials);
            gm.put("trials", g.trials);
            gm.put("ended", g.ended);
            Map<String, Object> precision = new LinkedHashMap<>();
            for (TrialSchedule.Pair p : g.cited) {
                PairedRatio r = g.ratio(p);
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("metric", p.metric() == null ? "primary" : p.metric());
                pm.put("variant", configuration(p.variant()));
                pm.put("baseline", configuration(p.baseline()));
                pm.put("n", r.n());
                pm.put("ratio", finite(r.ratio()));
                pm.put("low", finite(r.low()));
                pm.put("high", finite(r.high()));
                pm.put("highOverLow", finite(r.highOverLow()));
                pm.put("target", p.target());
                precision.put(p.id() + (p.variant().side() == null ? "" : "@" + p.variant().side()), pm);
            }
            gm.put("precision", precision);
            groups.add(gm);
        }
        m.put("groups", groups);
        List<Object> entries = new ArrayList<>();
        for (TrialSchedule.Entry e : schedule.schedule()) {
            Map<String, Object> em = new LinkedHashMap<>();
            em.put("trial", e.trial());
            em.put("group", e.group());
            em.put("order", e.order());
            em.putAll(configuration(e.configuration()));
            em.put("fork", e.fork());
            em.put("startedUtc", e.startedUtc());
            em.put("seconds", Math.round(e.seconds() * 10) / 10.0);
            entries.add(em);
        }
        m.put("schedule", entries);
        return m;
    }

    /**
     * The provenance's {@code gate} block: the rule the schedule stopped by (looks, margin, the
     * alpha each look spends and its level, the cap)
     * and each check's change of gain where its group stopped, with its one-sided bounds at the
     * level of the look it reached (those it was decided by). The scripts judge from the forks
     * themselves with the same rule; this records what the schedule saw.
     */
    static Map<String, Object> gate(TrialSchedule schedule) {
        TrialSchedule.Gate gate = schedule.gate();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("looks", gate.looks());
        m.put("marginPct", gate.marginPct());
        m.put("forkFigure", TrialSchedule.BEST.equals(gate.figure()) ? "best" : "mean");
        m.put("alpha", TrialSchedule.ALPHA);
        m.put("alphaPerLook", gate.spend());
        List<Double> levels = new ArrayList<>();
        for (int i = 0; i < gate.looks().size(); i++) {
            levels.add(gate.level(i));
        }
        m.put("levelPerLook", levels);
        m.put("capMinutes", schedule.cap() == null ? null : schedule.cap().toSeconds() / 60.0);
        List<Object> checks = new ArrayList<>();
        for (TrialSchedule.Group g : schedule.groups()) {
            for (TrialSchedule.Check k : g.checks) {
                PairedRatio r = g.change(k, gate.figure());
                double[] bounds = gate.bounds(r);
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("claim", k.id());
                c.put("group", g.id);
                c.put("params", g.first().shared());
                c.put("n", r.n());
                c.put("change", finite(r.ratio()));
                c.put("level", gate.levelAt(r.n()));
                c.put("low", finite(bounds[0]));  // the one-sided bounds at that look's level, as decided
                c.put("high", finite(bounds[1]));
                c.put("decided", gate.decided(r));
                c.put("ended", g.ended);
                checks.add(c);
            }
        }
        m.put("checks", checks);
        return m;
    }

    static Map<String, Object> configuration(TrialSchedule.Configuration c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", c.benchmark());
        m.put("mode", c.mode());
        m.put("params", c.params());
        m.put("side", c.side());
        return m;
    }

    /** One line per cited pair of a group, for the log. */
    static List<String> summary(TrialSchedule.Group g) {
        List<String> lines = new ArrayList<>();
        for (TrialSchedule.Pair p : g.cited) {
            PairedRatio r = g.ratio(p);
            String head = String.format("%s (%s, %d trials, ended: %s)", p.id(), g.id, r.n(), g.ended);
            if (r.n() == 0) {
                lines.add(head + ": not measured");
            } else if (!Double.isFinite(r.low())) {
                lines.add(String.format("%s: %.4gx, no interval from %d trial", head, r.ratio(), r.n()));
            } else {
                lines.add(String.format("%s: %.4gx [%.4g, %.4g], high/low %.3f against %.3f",
                        head, r.ratio(), r.low(), r.high(), r.highOverLow(), p.target()));
            }
        }
        return lines;
    }

    private static Object finite(double d) {
        return Double.isFinite(d) ? d : null;
    }
}
