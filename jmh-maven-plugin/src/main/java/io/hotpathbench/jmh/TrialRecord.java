package io.hotpathbench.jmh;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The provenance's {@code trials} and {@code gate} blocks: the schedule as it ran (its seed, every
 * fork's trial, group, order, start, duration and configuration, each group's steps, how each group
 * ended, the looks a gate reached). No figure: the scripts compute every figure from the forks.
 */
final class TrialRecord {

    private TrialRecord() {
    }

    static Map<String, Object> of(TrialSchedule schedule, long seed, JmhOptions options, Map<String, String> skipped) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seed", seed);
        m.put("budgetSeconds", schedule.budget() == null ? null : schedule.budget().toSeconds());
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
            gm.put("params", g.record.get("params"));
            gm.put("label", g.label);
            List<Object> members = new ArrayList<>();
            g.members.forEach(c -> members.add(configuration(c)));
            gm.put("members", members);
            gm.put("cited", g.cited);
            gm.put("headline", g.headline);
            gm.put("minTrials", g.minTrials);
            List<Object> steps = new ArrayList<>();
            for (TrialSchedule.Step s : g.steps) {
                Map<String, Object> sm = new LinkedHashMap<>();
                sm.put("phase", s.phase());
                sm.put("priority", s.priority());
                sm.put("members", s.members().size());
                sm.put("trials", s.trials());
                sm.put("ran", g.done.get(s));
                steps.add(sm);
            }
            gm.put("steps", steps);
            gm.put("trials", g.trials);
            gm.put("ended", g.ended);
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
     * The provenance's {@code gate} block: the rule the schedule ran its looks by, as plan.py gave
     * it ({@code rule}: looks, alpha and its shares, margin, fork figure; scripts/hpb/twocommit.py
     * judges by it), the cap, the looks judged, and each check's decision at the last of them with
     * the group that carried it.
     */
    static Map<String, Object> gate(TrialSchedule schedule, Map<?, ?> rule) {
        Map<String, Object> m = new LinkedHashMap<>();
        rule.forEach((k, v) -> m.put(String.valueOf(k), "looks".equals(k) ? whole(v) : v));
        m.put("capMinutes", schedule.budget() == null ? null : schedule.budget().toSeconds() / 60.0);
        m.put("looksReached", schedule.looksReached());
        List<Object> checks = new ArrayList<>();
        for (Map<String, Object> k : schedule.checks()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("claim", k.get("id"));
            c.put("group", groupOf(schedule, k.get("configurations")));
            c.put("params", k.get("params"));
            c.put("n", whole(k.get("n")));
            c.put("decided", k.get("decided"));
            c.put("outcome", k.get("outcome"));
            checks.add(c);
        }
        m.put("checks", checks);
        return m;
    }

    private static String groupOf(TrialSchedule schedule, Object configurations) {
        if (configurations instanceof List<?> keys && !keys.isEmpty() && keys.get(0) instanceof Map<?, ?> key) {
            for (TrialSchedule.Group g : schedule.groups()) {
                if (g.members.stream().anyMatch(c -> c.is(key))) {
                    return g.id;
                }
            }
        }
        return null;
    }

    /** Trial counts as whole numbers, as the scripts wrote them (JSON read back gives every number as a double). */
    private static Object whole(Object v) {
        if (v instanceof Double d && d == Math.rint(d)) {
            return d.longValue();
        }
        if (v instanceof List<?> list) {
            return list.stream().map(TrialRecord::whole).toList();
        }
        return v;
    }

    static Map<String, Object> configuration(TrialSchedule.Configuration c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", c.benchmark());
        m.put("mode", c.mode());
        m.put("params", c.params());
        m.put("side", c.side());
        return m;
    }

    /** One line per group for the log: its trials and how it ended, the figures it holds; no figure computed. */
    static String summary(TrialSchedule.Group g) {
        return String.format("%s %s: %d trial(s), minimum %d, ended: %s%s", g.id, g.label, g.trials, g.minTrials,
                g.ended, g.cited.isEmpty() ? "" : "; cited: " + String.join(", ", g.cited));
    }
}
