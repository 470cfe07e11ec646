#!/usr/bin/env python3
"""Write results/REPORT.md, results/cited.json and the charts; optionally refresh the README's
generated block and the technique notes' measured blocks in docs/. Default input: every run in results/, of
which only full runs of each technique's current code are pooled, per JDK and JVM options; files named on the
command line are taken as given. Every judgement comes from hpb.figures; this file formats.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from hpb import charts as charts_lib, cli, config, evidence, figures, verdicts
from hpb.machines import cpu_label
from hpb.markdown import fmt_metric, fmt_num, fmt_params, fmt_ratio, table, write_atomic
from hpb.model import ALLOC, REPO, RESULTS_DIR, result_files
from hpb.select import group_results

PUBLISHED_WORDS = {"agrees": "agrees", "higher": "does not agree (measured higher)",
                   "lower": "does not agree (measured lower)", "too_wide": "inconclusive (interval too wide)",
                   "inconclusive": "inconclusive", "not_run": "not run", "not_comparable": "not comparable"}
TARGET_WORDS = {"pass": "met", "fail": "missed", "inconclusive": "inconclusive", "warn": "not run", "not_run": "not run"}
ENV_WORDS = {"grew": "the gain grew", "shrank": "the gain shrank", "held": "held", "unsettled": "unsettled (interval too wide)"}
# for a figure read as after / before (a footprint or GC time: lower is better) the words say so
RATIO_WORDS = {"grew": "after / before rose (less saved)", "shrank": "after / before fell (more saved)", "held": "held",
               "unsettled": "unsettled (interval too wide)"}
PROTOCOLS = {"trials": "trials (forks paired by trial)", "jmh-forks": "JMH's fork order (history)"}
NEXT_JDK = "25"
METHOD = ("Every interval is a 95% Student t interval on the log scale over forks, the unit of replication "
          "(`scripts/hpb/stats.py`, docs/protocol.md): a pair's forks paired by trial (both ran back to back), "
          "else the two sides' forks compared unpaired (Welch). A figure covers the trials of one machine; "
          "machines are never pooled.")


def rel(path, start) -> str:
    return Path(os.path.relpath(Path(path).resolve(), Path(start).resolve())).as_posix()


def env_name(env, base=None) -> str:
    """'JDK 17.0.15', 'JDK 25.0.3 with -XX:+UseCompactObjectHeaders' or 'JDK 25.0.3 with -XX:+UseZGC
    instead of -XX:+UseG1GC': the JVM options that differ from the reference's."""
    extra = [a for a in env.jvm_args if a not in base.jvm_args] if base is not None else []
    gone = [a for a in base.jvm_args if a not in env.jvm_args] if base is not None else []
    return (f"JDK {env.jdk}" + (" with " + " ".join(extra) if extra else "")
            + ((" instead of " if extra else " without ") + " ".join(gone) if gone else ""))


def prediction(v) -> str:
    """The 95% prediction interval for a new machine, where there is one: '[3.1, 5.2] (95% prediction)'."""
    across = v.extra.get("across")
    predicts = across is not None and across.predicts
    return f"[{across.pred_lo:.3g}, {across.pred_hi:.3g}] (95% prediction)" if predicts else ""


def cite_text(v, short=False) -> str:
    """'**4x [3.63, 4.41]** on AMD EPYC x2 (9 trials); 4.2x [3.1, 5.6] on Intel Xeon x2 (4 trials)', the reference
    machine's in bold; short: without the trials and processor count ('**4x [3.63, 4.41]** AMD EPYC; ...')."""
    parts = [("**{}**" if i == 0 else "{}").format(fmt_ratio(*m.figure))
             + (f" {re.sub(r' x[0-9]+$', '', m.label)}" if short else f" on {m.label} ({m.trials} trial{'s' * (m.trials != 1)})")
             for i, m in enumerate(v.extra["machine_figures"])]
    before, f = v.extra.get("bytes"), v.figure
    if before:  # a footprint ratio near zero, judged in bytes
        parts[0] += (f" ({fmt_num(f.value * before)} B [{fmt_num(f.lo * before)}, {fmt_num(f.hi * before)}] "
                     f"of the baseline's {fmt_num(before)} B)")
    return "; ".join(parts) + (f"; a new machine: {prediction(v)}" if prediction(v) else "")


def readme_text(v) -> str:
    """The README's short form: '**4x [3.63, 4.41]** AMD EPYC; 3 machines, a new one: [3.1, 5.2]'."""
    n = len(v.extra["machine_figures"])
    more = f"; {n} machines" + (f", a new one: {prediction(v)}" if prediction(v) else "") if n > 1 else ""
    return cite_text(v, True).split("; ")[0] + more


def status_text(v, headline=False) -> str:
    need = v.extra.get("need")
    s = (f"**{v.outcome}** ({v.reason})" if v.outcome != "undecided" else f"**undecided**: {v.reason}" if need is None
         else f"**undecided**: about {need} trials a machine would decide it" if need else "**undecided**")
    if headline:
        reached, words = v.extra["precision"]
        s += f"; headline, {words} on the reference machine: {'within' if reached else 'not within'} +/-{figures.PRECISION_PCT:g}%"
    return s


def runs_section(runs, require_full) -> list:
    rows = []
    for run in runs:
        full, why = evidence.full_run(run)
        p = run.provenance or {}
        minutes = f"{p['durationSeconds'] / 60:.0f} min" if isinstance(p.get("durationSeconds"), (int, float)) else ""
        boot = ((p.get("host") or {}).get("bootId") or "")[:8]
        rows.append([run.name, run.commit[:7] + (" (dirty)" if run.dirty else "") if run.commit else "not recorded",
                     run.jdk, cpu_label(run.cpu) if run.cpu else "not recorded", boot, minutes, PROTOCOLS[run.protocol],
                     "yes" if full else f"no: {why}", ", ".join(sorted({r.simple_class for r in run.results}))])
    head = "Every run read for this report. " + (
        "Only full runs (each benchmark with its class's own settings; selecting benchmarks, the JDK, JVM options, a "
        "budget or a trial count is allowed) of the trial protocol enter a figure. A machine is its CPU, processor count "
        "and memory (or the machine key a newer provenance records); the boot is the provenance's boot id."
        if require_full else "The files were named on the command line and are taken as given.")
    return ["## Runs", "", head, ""] + table(["run", "commit", "JDK (from the results)", "machine", "boot", "wall time",
                                              "protocol", "full run", "benchmarks"], rows) + [""]


def cited_section(evs) -> list:
    lines = ["## Figures to cite", "",
             "Each figure comes from the full runs of the technique's current benchmark code in one environment (JDK "
             "and JVM options; other environments are compared below, never pooled). On each machine: the geometric "
             "mean of the per-trial ratios of forks paired by trial, with its 95% interval; the trials of one boot "
             "together, several boots each one unit. The figure to cite is the reference machine's (bold), each other "
             "machine's beside it. Ratios read \"how many times better\" unless the figure says after / before. "
             "**decided**: every machine's interval clear of 1.0x and of the bar of the technique's claim on the "
             f"pair; **equivalent**: within +/-{figures.EQUIVALENT_PCT:g}% of 1.0x; **undecided**: neither, with the "
             "trials it would need at its spread. Forks the noise profiler flagged are kept and counted.", ""]
    heads = [(ev.technique.title.split(":")[0], v) for ev in evs for v in ev.cited.get(id(ev.reference), [])
             if v.id == (ev.technique.answer or {}).get("cite")]
    if heads:
        machines = sorted({v.extra["machine_figures"][0].label for _, v in heads})
        where = (lambda v: f" on {v.extra['machine_figures'][0].label}") if len(machines) > 1 else (lambda v: "")  # noqa: E731
        within = [f"{name} {v.extra['precision'][1]}{where(v)}" for name, v in heads if v.extra["precision"][0]]
        beyond = [f"{name} {v.extra['precision'][1]}{where(v)}" for name, v in heads if not v.extra["precision"][0]]
        on = "each technique's reference machine" if len(machines) > 1 else f"the reference machine ({machines[0]})"
        lines += [f"Headline figures on {on}: {len(within)} of {len(heads)} within +/-{figures.PRECISION_PCT:g}%"
                  + (f" ({'; '.join(within)})" if within else "") + (f"; not within: {'; '.join(beyond)}." if beyond else "."), ""]
    for ev in evs:
        t = ev.technique
        head = (t.answer or {}).get("cite")
        lines += [f"### {t.title}", ""]
        if ev.stale:
            lines += ["_No full run of the current code of this technique exists yet: these figures are from its newest "
                      "measured code, which has changed since. Rerun `mvn jmh:run` before citing them._", ""]
        rows = []
        for p in ev.pools:
            for v in ev.cited[id(p)]:
                x = v.extra
                notes = "; ".join(s for s in (x["ended"], f"{x['disturbed']} of {x['forks']} forks disturbed (kept)",
                                              "at least the heap measurement's resolution" if x["resolution"] else "") if s)
                rows.append([v.subject + (" (headline)" if v.id == head else ""),
                             env_name(p.env, ev.reference.env if p is not ev.reference else None), cite_text(v),
                             x["rests_on"], status_text(v, v.id == head and p is ev.reference), notes])
        lines += table(["figure", "environment", "each machine [95% interval]", "rests on", "verdict", "notes"], rows) + [""]
        if not rows:
            lines += ["_No run of the trial protocol: nothing to cite._", ""]
    rows = [[v.subject, f"{a['runs'][0]} / {a['runs'][1]}", fmt_ratio(a["change"], a["lo"], a["hi"]),
             "yes" if a["holds_1"] else "**no**"] for ev in evs for v, a in ev.agreement]
    if rows:
        held = sum(r[-1] == "yes" for r in rows)
        lines += ["### Two runs in one boot", "",
                  "The change between the two newest trials runs of the same code in one boot of one machine, figure by "
                  "figure (second / first, 95% interval from both runs' estimates). If the intervals mean what they say, "
                  f"about 95% hold 1: here **{held} of {len(rows)}**.", ""] + \
            table(["figure", "runs", "change [95% interval]", "holds 1"], rows) + [""]
    return lines


def environments_section(evs) -> list:
    rows = []
    for ev in evs:
        for p, comps in ev.comparisons:
            for v in comps:
                b, a = v.extra["on"]  # both on the machine that measured both
                rows.append([ev.technique.title.split(":")[0], v.subject, env_name(ev.reference.env), fmt_ratio(*b),
                             env_name(p.env, ev.reference.env), fmt_ratio(*a), fmt_ratio(*v.figure),
                             f"{(RATIO_WORDS if v.extra['kind'] == 'ratio' else ENV_WORDS)[v.outcome]} ({v.reason})"])
    lines = ["## JDK 17 against other JDKs and JVM options", "",
             "Each cited figure on the reference JDK beside the same figure in another environment, both on a machine "
             "that measured both (named in the verdict), and the ratio of the two (> 1: the gain grew there) with its 95% interval. \"held\": the "
             "whole interval within the pair's tolerance of 1 (`ratio_tolerances` in its technique file, else the "
             "suite's); \"unsettled\": too wide to say.", ""]
    if not rows:
        return lines + ["_Only one environment has full runs of the current code._", ""]
    return lines + table(["technique", "figure", "reference", "gain", "environment", "gain there",
                          "there / reference [interval]", "verdict"], rows) + [""]


def readiness_section(suite, readiness: list, only=None) -> list:
    lines = ["## Ready for the next JDK", ""]
    if not readiness:
        return lines + ["_No readiness run in results/ (`python3 scripts/readiness.py` after `mvn -P readiness test`)._", ""]
    for rd in readiness:
        lines += [f"Each variant's equivalence tests, run on JDK {rd['jdk']} with `{rd['option']}` (`{rd['file']}`, commit "
                  f"{str(rd.get('commit', '?'))[:7]}): \"works\" means every test of that variant passed there; a failure "
                  "shows its first line.", ""]
        rows = []
        for t in suite.techniques:
            got = rd["techniques"].get(t.test)
            if not got or (only is not None and t is not only):
                continue
            for name, info in got["variants"].items():
                rows.append([t.title.split(":")[0], name, "works" if info["works"] else "fails",
                             (info.get("failures") or [""])[0][:300]])
            # tests that take no variant show only when they fail (a library the tests still use may break there)
            rows += [[t.title.split(":")[0], f"{o['test']} (test)", "fails", o.get("message", "")[:300]]
                     for o in got.get("other", []) if not o["works"]]
        lines += table(["technique", "variant (or test)", f"JDK {rd['jdk']}, {rd['option']}", "first failure"], rows) + [""]
    return lines


def published_section(evs) -> list:
    rows = []
    for ev in evs:
        for v in ev.published:
            band = v.extra.get("band")
            measured = "not comparable" if v.outcome == "not_comparable" else "not run"
            if v.figure is not None:
                measured = fmt_ratio(*v.figure)
                if v.extra.get("share"):
                    measured += f"; end to end at {v.extra['share']:.0%} CPU: {fmt_ratio(*v.extra['end_to_end'])}"
            rows.append([v.subject, f"{fmt_num(v.bar)}x", f"{fmt_num(band[0])}..{fmt_num(band[1])}" if band else "",
                         measured, PUBLISHED_WORDS[v.outcome], v.reason])
    return (["## Published vs measured", "",
             "Our figure on the reference machine (the mean log ratio over the selected configurations, each paired by "
             "trial where its baseline ran in the same trials, else unpaired; 95% interval) against each write-up's "
             "claim. It agrees when its point lies in the published figure widened by the claim's tolerance (the band) "
             "and its whole interval within the band widened once more; it does not agree when the interval lies wholly "
             "outside the band; anything else is inconclusive. Claims about a whole service are compared through "
             "Amdahl's law, with the CPU share the write-up reports.", ""]
            + table(["claim", "published", "band", "measured [interval]", "verdict", "why"], rows) + [""])


def targets_section(evs) -> list:
    rows = []
    for ev in evs:
        for v in ev.claims:
            word = TARGET_WORDS.get(v.outcome, v.outcome)
            if word == "missed" and v.point_clears:
                word = "not established (point clears the bar, interval does not)"
            why = " ".join(x for x in (v.reason + ".", v.extra.get("why", "") if word != "met" else "") if x)
            rows.append([v.subject, "yes" if v.enforced else "no", fmt_params(v.params), fmt_metric(v.before),
                         fmt_metric(v.after), fmt_ratio(*v.figure) if v.figure else "", word, why])
    return (["## Targets", "",
             "The goals set for each technique (its file under `scripts/techniques/`), judged on the newest full run on "
             "the reference machine by the same code the CI gate runs: a goal is met only when the pessimistic end of its "
             "interval clears the bar (the point score where the note says so), or, for \"no difference within +/-X%\", "
             "when the whole interval lies inside [1/(1+X), 1+X]. \"CI\" rows are enforced by the gate.", ""]
            + table(["goal", "CI", "params", "baseline", "variant", "ratio [interval]", "verdict", "why"], rows) + [""])


def results_section(ev, suite, made, report_dir) -> list:
    t = ev.technique
    run, results = ev.newest
    how = ("scores are each configuration's mean over its forks ± the 95% t half-width over them; \"vs baseline\" "
           "pairs the forks by trial (95%)" if run.protocol == "trials" else
           "a run in JMH's own fork order: scores are JMH's ± its 99.9% half-width over iterations, and \"vs baseline\" "
           "combines both intervals conservatively")
    lines = [f"## {t.title}", "", f"`{t.benchmark}`, run `{run.name}` ({env_name(ev.reference.env)}); {how}.", ""]
    by_name: dict = {}
    for g in group_results(results, suite):
        by_name.setdefault((g.name, g.mode, g.label_kind), []).append(g)
    for (name, mode, kind), sub in by_name.items():
        lines += [f"### {name}" + (" and paired methods" if kind == "method" else "") + f" ({mode})", ""]
        rows = []
        for g in sub:
            b = g.base_result()
            for lbl, r in g.rows:
                vs = "baseline" if r is b else "" if b is None else fmt_ratio(*charts_lib.vs_baseline(r, b, t))
                alloc = r.over_forks(ALLOC)
                rows.append([fmt_params(g.params) or "(no params)", lbl, fmt_metric(r.over_forks()), vs,
                             fmt_metric(alloc) if alloc else "",
                             "; ".join(f"{k} {fmt_metric(t.measured(r, k))}" for k in sorted(r.secondary)
                                       if k != ALLOC and not k.startswith(("p0.", "p1.")))])
        lines += table(["params", "variant", "score", "vs baseline [interval]", "B/op", "other metrics"], rows) + [""]
        lines += [f"![{t.simple_class}.{n} {k}]({rel(png, report_dir)})" for (c, n, m, k, png) in made
                  if c == t.benchmark and n == name and m == mode] + [""]
    return lines


def build_report(runs, evs, suite, readiness, made, report_path: Path, require_full) -> str:
    lines = ["# hotpath-bench results", "",
             f"Generated by `python3 scripts/report.py` from the runs listed below; do not edit by hand. {METHOD} A ratio "
             "is how many times better the variant is than what it is compared with, unless it says after / before.", ""]
    lines += runs_section(runs, require_full) + cited_section(evs) + environments_section(evs)
    lines += readiness_section(suite, readiness) + published_section(evs) + targets_section(evs)
    for ev in evs:
        lines += results_section(ev, suite, made, report_path.parent)
    return "\n".join(lines).rstrip() + "\n"


def cited_records(evs) -> list:
    def finite(x):
        """A number for JSON: null when unknown, "inf" for an unbounded end."""
        return None if x != x else "inf" if x == float("inf") else x
    out = []
    for ev in evs:
        for p in ev.pools:
            for v in ev.cited[id(p)]:
                x, across = v.extra, v.extra["across"]
                out.append({"id": v.id, "technique": ev.technique.id, "label": v.subject, "params": v.params,
                            "env": {"jdk": p.env.jdk, "jdk_major": p.env.jdk_major, "vm": p.env.vm, "jvm_args": list(p.env.jvm_args)},
                            "reference": p is ev.reference, "value": finite(v.figure.value), "lo": finite(v.figure.lo),
                            "hi": finite(v.figure.hi), "status": v.outcome, "why": v.reason, "trials_needed": x["need"],
                            "rests_on": x["rests_on"], "runs": x["runs"], "trials": x["trials"],
                            "prediction": [finite(across.pred_lo), finite(across.pred_hi)] if across and across.predicts else None,
                            "machine_figures": [{"machine": m.machine, "cpu": m.label, "value": finite(m.ratio), "lo": finite(m.lo),
                                                 "hi": finite(m.hi), "trials": m.trials, "boots": m.boots}
                                                for m in x["machine_figures"]],
                            "code": p.code, "stale": ev.stale})
    return out


def load_readiness(results_dir: Path) -> list:
    out = []
    for f in sorted(Path(results_dir).glob("readiness-*.json")):
        try:
            d = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise cli.InputError(f"{f}: not valid JSON ({e.__class__.__name__})")
        if not isinstance(d, dict) or not isinstance(d.get("techniques"), dict):
            raise cli.InputError(f"{f}: not a readiness file (no 'techniques')")
        out.append({**d, "file": f.name})
    return out


def docs_block(ev, suite, readiness) -> list:
    """The measured part of a technique's note: the same sections as REPORT.md, for it alone."""
    lines = ["_Generated by `python3 scripts/report.py --docs docs` from the runs in `results/`; do not edit by hand._", ""]
    for part in (cited_section([ev]), environments_section([ev]), readiness_section(suite, readiness, ev.technique),
                 published_section([ev]), targets_section([ev])):
        lines += ["#" + x if x.startswith("## ") else x for x in part if not x.startswith("### ") or x.startswith("### Two")]
    if ev.technique.answer:
        lines += ["### Which to pick", "", ev.technique.answer["pick"], ""]
    return lines


def answers_block(evs, readme: Path) -> list:
    """One row per technique: its headline figure on each machine, and the pick."""
    rows = []
    for ev in evs:
        t = ev.technique
        if not t.answer:
            continue
        v = next((x for x in ev.cited[id(ev.reference)] if x.id == t.answer["cite"]), None) if ev.reference else None
        figure = f"{v.subject}: {readme_text(v)}; {v.extra['trials']} trials, {v.outcome}" if v else "not measured yet"
        rows.append([f"[{t.title.split(':')[0]}]({rel(REPO / t.note, readme.parent)})", figure,
                     next_jdk_text(ev, t.answer["cite"]), t.answer["pick"]])
    return ["_Generated by `python3 scripts/report.py --readme README.md` from `results/`; every figure is in "
            "[results/REPORT.md](results/REPORT.md)._", ""] + \
        table(["technique", "figure to cite (JDK 17)", f"the same on JDK {NEXT_JDK}", "which to pick"], rows)


def next_jdk_text(ev, cite: str) -> str:
    """The headline figure on the next JDK (its first environment, the fewest extra JVM options), the
    machine and trials it rests on, and how it moved against JDK 17 on a machine that measured both."""
    pool = next((p for p in ev.pools[1:] if p.env.jdk_major == NEXT_JDK and p.env.jvm_args == ev.reference.env.jvm_args), None)
    v = next((x for x in ev.cited.get(id(pool), []) if x.id == cite), None) if pool else None
    if v is None:
        return "not measured yet"
    text = f"{readme_text(v)}; {v.extra['trials']} trials"
    moved = next((c for p, cs in ev.comparisons if p is pool for c in cs if c.id == cite), None)
    if moved is not None:
        words = (RATIO_WORDS if moved.extra["kind"] == "ratio" else ENV_WORDS)[moved.outcome]
        where = re.sub(r" x[0-9]+$", "", moved.extra["machine"])  # 'Intel Xeon': the machine that measured both
        text += f"; against JDK {ev.reference.env.jdk_major} on {where}: {fmt_ratio(*moved.figure)}, {words}"
    return text


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="report.py", description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="JMH JSON result files (default: every run in results/)")
    ap.add_argument("--out", default=str(RESULTS_DIR / "REPORT.md"))
    ap.add_argument("--charts", default=str(RESULTS_DIR / "charts"), help="chart folder")
    ap.add_argument("--cited", help="where to write the cited figures as JSON (default: beside --out, cited.json)")
    ap.add_argument("--no-charts", action="store_true")
    ap.add_argument("--readme", help="rewrite the generated block of this README")
    ap.add_argument("--docs", help="rewrite the generated blocks of the technique notes in this folder")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    require_full = not a.files
    files = a.files or result_files()
    if not files:
        raise cli.InputError(f"{RESULTS_DIR}: no JMH result files (run `mvn jmh:run` first or name a file)")
    runs = cli.load_runs(files)
    for run in runs:
        verdicts.check_units(run.results, suite)
    evs = figures.assemble(runs, suite, require_full)
    if not evs:
        raise cli.InputError("no full run of any technique in " + (", ".join(map(str, files)) if a.files else str(RESULTS_DIR)))
    out = Path(a.out)
    made = [] if a.no_charts else charts_lib.write_charts([r for ev in evs for r in ev.newest[1]], a.charts, suite)
    readiness = load_readiness(RESULTS_DIR)
    write_atomic(out, build_report(runs, evs, suite, readiness, made, out, require_full))
    cited = Path(a.cited) if a.cited else out.with_name("cited.json")
    write_atomic(cited, json.dumps(cited_records(evs), indent=1, allow_nan=False) + "\n")
    print(f"{out}\n{cited}")
    if a.readme:
        cli.replace_block(a.readme, "answers", "\n".join(answers_block(evs, Path(a.readme))))
        print(a.readme)
    for ev in evs if a.docs else []:
        note = Path(a.docs) / Path(ev.technique.note).name
        cli.replace_block(note, "measured", "\n".join(docs_block(ev, suite, readiness)))
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
