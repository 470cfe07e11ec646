#!/usr/bin/env python3
"""Write results/REPORT.md, results/cited.json and the charts; optionally refresh the README's
generated blocks and the technique notes in docs/.

    python3 scripts/report.py [RESULT.json ...] [--out results/REPORT.md] [--charts results/charts]
                              [--cited results/cited.json] [--readme README.md] [--docs docs] [--no-charts]

Default input: every run in results/; only full runs (no option that changes forks, iterations,
times or params) of each technique's current code are pooled, per JDK and JVM options. Files named
on the command line are taken as given. Every judgement comes from hpb.verdicts; this file formats.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from hpb import charts as charts_lib
from hpb import cli, config, evidence, verdicts
from hpb.markdown import cell, fmt_metric, fmt_num, fmt_params, fmt_ratio, table, write_atomic
from hpb.model import ALLOC, REPO, RESULTS_DIR, load, result_files
from hpb.select import by_class, group_results
from hpb.stats import speedup

PUBLISHED_WORDS = {"agrees": "agrees", "higher": "does not agree (measured higher)",
                   "lower": "does not agree (measured lower)", "too_wide": "inconclusive (interval too wide)",
                   "inconclusive": "inconclusive", "not_run": "not run",
                   "not_comparable": "not comparable"}
TARGET_WORDS = {"pass": "met", "fail": "missed", "inconclusive": "inconclusive", "warn": "not run", "not_run": "not run"}
ENV_WORDS = {"grew": "the gain grew", "shrank": "the gain shrank", "held": "held", "unsettled": "unsettled (interval too wide)"}
# for a figure read as after / before (a footprint or GC time: lower is better) the words say so
RATIO_WORDS = {"grew": "after / before rose (less saved)", "shrank": "after / before fell (more saved)", "held": "held",
               "unsettled": "unsettled (interval too wide)"}


def rel(path, start) -> str:
    return Path(os.path.relpath(Path(path).resolve(), Path(start).resolve())).as_posix()


def env_name(env, base=None) -> str:
    """'JDK 17.0.15', 'JDK 25.0.3 with -XX:+UseCompactObjectHeaders' or 'JDK 25.0.3 with -XX:+UseZGC
    instead of -XX:+UseG1GC': the JVM options that differ from the reference's."""
    extra = [a for a in env.jvm_args if base is None or a not in base.jvm_args]
    gone = [a for a in (base.jvm_args if base is not None else ()) if a not in env.jvm_args]
    s = f"JDK {env.jdk}"
    if base is None:
        return s
    if extra:
        s += " with " + " ".join(extra)
    if gone:
        s += (" instead of " if extra else " without ") + " ".join(gone)
    return s


# ---------------------------------------------------------------- sections

def runs_section(runs, require_full) -> list:
    rows = []
    for run in runs:
        full, why = evidence.full_run(run)
        h = (run.provenance or {}).get("host") or {}
        machine = (f"{run.host} " if run.host and not run.host.startswith("cpu:") else "") + (run.cpu or "not recorded")
        rows.append([run.name, run.commit[:7] + (" (dirty)" if run.dirty else "") if run.commit else "not recorded",
                     run.jdk, machine, PROTOCOLS[run.protocol], "yes" if full else f"no: {why}",
                     ", ".join(sorted({r.simple_class for r in run.results}))])
        del h
    head = "Every run read for this report. " + (
        "Only full runs (each benchmark with its class's own settings; selecting benchmarks, the JDK, JVM "
        "options, a budget or a trial count is allowed) are pooled. Where a technique has runs of the trial "
        "protocol, its figures come from those alone; runs in JMH's own fork order stay as history."
        if require_full else "The files were named on the command line and are taken as given.")
    return ["## Runs", "", head, ""] + table(["run", "commit", "JDK (from the results)", "machine", "protocol", "full run",
                                              "benchmarks"], rows) + [""]


PROTOCOLS = {"trials": "trials (forks paired by trial)", "jmh-forks": "JMH's fork order (history)"}


def figure_text(v) -> str:
    return fmt_ratio(*v.figure)


def cited_section(evs) -> list:
    lines = ["## Figures to cite", "",
             "Each figure comes from the full runs of the technique's current benchmark code in one environment "
             "(JDK and JVM options; other environments are compared below, never pooled). From runs of the trial "
             "protocol (docs/protocol.md): on each machine, the geometric mean of the per-trial ratios of forks "
             "paired by trial, with a 95% Student t interval on the log ratios over the trials "
             "(`hpb/forks.py`); it covers that machine's forks only, and the last column says how many trials "
             "and machines it rests on, the machines' range, how the run's sampling ended and how many forks "
             "the noise profiler flagged (kept, never dropped). Where only older runs exist, the figure is their "
             "run envelope, as the column says. Ratios read \"how many times better\" (higher is better) unless "
             "the figure says after / before.", ""]
    for ev in evs:
        t = ev.technique
        lines += [f"### {t.title}", ""]
        if ev.stale:
            lines += ["_No full run of the current code of this technique exists yet: these figures are from "
                      "its newest measured code, which has changed since. Rerun `mvn jmh:run` before citing them._", ""]
        rows = []
        for p in ev.pools:
            for v in ev.cited[id(p)]:
                per = "; ".join(f"{fmt_ratio(*f)} ({name})" for name, f, _, _ in v.extra["runs"])
                rows.append([v.subject, env_name(p.env, ev.reference.env if p is not ev.reference else None),
                             f"**{figure_text(v)}**", per, v.reason])
        lines += table(["figure", "environment", "cite [interval]", "each run", "what the interval covers"], rows) + [""]
    lines += agreement_lines(evs)
    return lines


def agreement_lines(evs) -> list:
    """Two trials runs of the same code on one machine, figure by figure: does the change between
    them, with its interval, hold 1? (About 95% of pairs should, if the intervals mean what they say.)"""
    rows, held = [], 0
    for ev in evs:
        for p in ev.pools:
            for v in ev.cited[id(p)]:
                a = v.extra.get("agreement")
                if not a:
                    continue
                held += a["holds_1"]
                rows.append([v.subject, f"{a['runs'][0]} / {a['runs'][1]}",
                             fmt_ratio(a["change"], a["lo"], a["hi"]), "yes" if a["holds_1"] else "**no**"])
    if not rows:
        return []
    return ["### Two runs on one machine", "",
            f"The change between two trials runs of the same code on the same machine, figure by figure (second / "
            f"first, 95% interval from both runs' intervals, Welch degrees of freedom). If the intervals mean what they "
            f"say, about 95% hold 1: here **{held} of {len(rows)}**.", ""] + \
        table(["figure", "runs", "change [95% interval]", "holds 1"], rows) + [""]


def environments_section(evs) -> list:
    rows = []
    for ev in evs:
        for p, comps in ev.comparisons:
            for v in comps:
                b, a = v.extra["before"], v.extra["after"]
                rows.append([ev.technique.title.split(":")[0], b.subject, env_name(ev.reference.env),
                             figure_text(b), env_name(p.env, ev.reference.env), figure_text(a),
                             fmt_ratio(*v.figure),
                             f"{(RATIO_WORDS if v.extra.get('kind') == 'ratio' else ENV_WORDS)[v.outcome]} ({v.reason})"])
    lines = ["## JDK 17 against other JDKs and JVM options", "",
             "Each cited figure on the reference JDK beside the same figure in another environment, and the "
             "ratio of the two (> 1: the gain grew there), with the conservative interval of that ratio. "
             "\"held\" means the whole interval lies within the pair's tolerance of 1 (the same tolerance the "
             "gate allows between runs); \"unsettled\" means it is too wide to say.", ""]
    if not rows:
        return lines + ["_Only one environment has full runs of the current code._", ""]
    return lines + table(["technique", "figure", "reference", "gain", "environment", "gain there",
                          "there / reference [interval]", "verdict"], rows) + [""]


def readiness_section(suite, readiness: list, only=None) -> list:
    lines = ["## Ready for the next JDK", ""]
    if not readiness:
        return lines + ["_No readiness run in results/ (`python3 scripts/readiness.py` after `mvn -P readiness test`)._", ""]
    for rd in readiness:
        lines += [f"Each variant's equivalence tests, run on JDK {rd['jdk']} with `{rd['option']}` "
                  f"(`{rd['file']}`, commit {str(rd.get('commit', '?'))[:7]}): \"works\" means every test of that "
                  "variant passed there; a failure shows its first line.", ""]
        rows = []
        for t in suite.techniques:
            got = rd["techniques"].get(t.test)
            if not got or (only is not None and t is not only):
                continue
            for name, info in got["variants"].items():
                rows.append([t.title.split(":")[0], name, "works" if info["works"] else "fails",
                             (info.get("failures") or [""])[0][:300]])
            # tests that take no variant are shown only when they fail: a library the suite still
            # uses in its tests (zero-allocation-hashing, as the reference for CrossHash) breaks there
            for other in got.get("other", []):
                if not other["works"]:
                    rows.append([t.title.split(":")[0], f"{other['test']} (test)", "fails", other.get("message", "")[:300]])
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
                measured += f" ({v.extra['runs']} run{'s' if v.extra['runs'] != 1 else ''})"
            rows.append([v.subject, f"{fmt_num(v.bar)}x", f"{fmt_num(band[0])}..{fmt_num(band[1])}" if band else "",
                         measured, PUBLISHED_WORDS[v.outcome], v.reason])
    return (["## Published vs measured", "",
             "Our figure (geometric mean over the selected configurations, pooled over the runs of the reference "
             "environment) against each write-up's claim. It agrees when its point lies in the published figure "
             "widened by the claim's tolerance (the band) and its whole interval within the band widened once "
             "more; it does not agree when the interval lies wholly outside the band; anything else is "
             "inconclusive. Claims about a whole service are compared through Amdahl's law, with the CPU share "
             "the write-up reports.", ""]
            + table(["claim", "published", "band", "measured [interval]", "verdict", "why"], rows) + [""])


def targets_section(evs) -> list:
    rows = []
    for ev in evs:
        for v in ev.claims:
            word = TARGET_WORDS.get(v.outcome, v.outcome)
            if word == "missed" and v.point_clears:
                word = "not established (point clears the bar, interval does not)"
            why = " ".join(x for x in (v.reason + ".", v.extra.get("why", "") if word != "met" else "") if x)
            rows.append([v.subject, "yes" if v.enforced else "no", fmt_params(v.params),
                         fmt_metric(v.before), fmt_metric(v.after), fmt_ratio(*v.figure) if v.figure else "",
                         word, why])
    return (["## Targets", "",
             "The goals set for each technique (its file under `scripts/techniques/`), judged on the newest full "
             "run of the reference environment by the same code the CI gate runs: a goal is met only when the "
             "pessimistic end of its interval clears the bar (the point score where the note says so), or, for "
             "\"no difference within +/-X%\", when the whole interval lies inside [1/(1+X), 1+X]. \"CI\" "
             "rows are enforced by the gate on every submission.", ""]
            + table(["goal", "CI", "params", "baseline", "variant", "ratio [interval]", "verdict", "why"], rows) + [""])


def secondary_text(r, t=None, skip=(ALLOC,)) -> str:
    return "; ".join(f"{k} {fmt_metric(t.measured(r, k) if t else r.secondary[k])}" for k in sorted(r.secondary)
                     if k not in skip and not k.startswith(("p0.", "p1.")))


def results_section(ev, suite, made, report_dir) -> list:
    t = ev.technique
    run, results = ev.newest
    lines = [f"## {t.title}", "", f"`{t.benchmark}`, run `{run.name}` ({env_name(ev.reference.env)})", ""]
    groups = [g for g in group_results(results, suite)]
    by_name: dict = {}
    for g in groups:
        by_name.setdefault((g.name, g.mode, g.label_kind), []).append(g)
    for (name, mode, kind), sub in by_name.items():
        lines += [f"### {name}" + (" and paired methods" if kind == "method" else "") + f" ({mode})", ""]
        rows = []
        for g in sub:
            b = g.base_result()
            for lbl, r in g.rows:
                vs = "baseline" if r is b else (fmt_ratio(*speedup(r.primary, b.primary)) if b is not None else "")
                alloc = r.metric(ALLOC)
                rows.append([fmt_params(g.params) or "(no params)", lbl, fmt_metric(r.primary), vs,
                             fmt_metric(alloc) if alloc else "", secondary_text(r, t)])
        lines += table(["params", "variant", "score", "vs baseline [interval]", "B/op", "other metrics"], rows) + [""]
        for (c, n, m, k, png) in made:
            if c == t.benchmark and n == name and m == mode:
                lines.append(f"![{t.simple_class}.{n} {k}]({rel(png, report_dir)})")
        lines.append("")
    return lines


def build_report(runs, evs, suite, readiness, made, report_path: Path, require_full) -> str:
    lines = ["# hotpath-bench results", "",
             "Generated by `python3 scripts/report.py` from the runs listed below; do not edit by hand. "
             "Scores are JMH's with their 99.9% confidence half-width. A ratio is how many times better the "
             "variant is than what it is compared with (higher is better whatever the unit), with the "
             "conservative interval [pessimistic, optimistic] built from both scores' intervals "
             "(`[lo_a/hi_b, hi_a/lo_b]`); n/a means JMH gave no interval (one measurement iteration).", ""]
    lines += runs_section(runs, require_full)
    lines += cited_section(evs)
    lines += environments_section(evs)
    lines += readiness_section(suite, readiness)
    lines += published_section(evs)
    lines += targets_section(evs)
    for ev in evs:
        lines += results_section(ev, suite, made, report_path.parent)
    return "\n".join(lines).rstrip() + "\n"


def cited_records(evs) -> list:
    out = []
    for ev in evs:
        for p in ev.pools:
            for v in ev.cited[id(p)]:
                out.append({"id": v.id, "technique": ev.technique.id, "label": v.subject, "params": v.params,
                            "env": {"jdk": p.env.jdk, "jdk_major": p.env.jdk_major, "vm": p.env.vm,
                                    "jvm_args": list(p.env.jvm_args)},
                            "reference": p is ev.reference,
                            "value": finite(v.figure.value), "lo": finite(v.figure.lo), "hi": finite(v.figure.hi),
                            "covers": v.reason,
                            "runs": [name for name, *_ in v.extra["runs"]], "machines": v.extra["machines"],
                            "protocol": v.extra.get("protocol", "jmh-forks"),
                            "prediction": ([finite(v.extra["across"].pred_lo), finite(v.extra["across"].pred_hi)]
                                           if v.extra.get("across") and v.extra["across"].predicts else None),
                            "trials": v.extra.get("trials"),
                            "machine_figures": [{"machine": m.machine, "cpu": m.label, "value": finite(m.ratio),
                                                 "lo": finite(m.lo), "hi": finite(m.hi), "trials": m.n}
                                                for m in v.extra.get("machine_figures", [])],
                            "code": p.code, "stale": ev.stale})
    return out


def finite(x):
    """A number for JSON: null when unknown, "inf" for an unbounded end."""
    if x != x:
        return None
    return "inf" if x == float("inf") else x


def load_readiness(results_dir: Path) -> list:
    out = []
    for f in sorted(Path(results_dir).glob("readiness-*.json")):
        try:
            d = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise cli.InputError(f"{f}: not valid JSON ({e.__class__.__name__})")
        if not isinstance(d, dict) or not isinstance(d.get("techniques"), dict):
            raise cli.InputError(f"{f}: not a readiness file (no 'techniques')")
        d["file"] = f.name
        out.append(d)
    return out


# ---------------------------------------------------------------- README and docs blocks

def docs_block(ev, suite, readiness) -> list:
    """The measured part of a technique's note: the same sections as REPORT.md, for it alone."""
    lines = ["_Generated by `python3 scripts/report.py --docs docs` from the runs in `results/`; do not edit by hand._", ""]
    parts = [cited_section([ev]), environments_section([ev]), readiness_section(suite, readiness, ev.technique),
             published_section([ev]), targets_section([ev])]
    for part in parts:
        for line in part:
            if line.startswith("## "):
                line = "#" + line
            elif line.startswith("### "):
                continue
            lines.append(line)
    if ev.technique.answer:
        lines += ["### Which to pick", "", ev.technique.answer["pick"], ""]
    return lines


def answers_block(evs, readme: Path) -> list:
    """One row per technique: the figure to cite, how it sets against the write-up, and the pick."""
    rows = []
    for ev in evs:
        t = ev.technique
        if not t.answer:
            continue
        ref = ev.reference
        v = next((x for x in ev.cited[id(ref)] if x.id == t.answer["cite"]), None)
        figure = f"{v.subject}: **{figure_text(v)}** ({env_name(ref.env)}; {short_coverage(v)})" if v else "not measured yet"
        pubs = [p for p in ev.published if p.outcome != "not_run"]
        against = "; ".join(f"{p.id}: {PUBLISHED_WORDS[p.outcome]}" for p in pubs) or "no published figure to compare"
        note = rel(REPO / t.note, readme.parent)
        rows.append([f"[{t.title}]({note})", figure, against, t.answer["pick"]])
    return ["_Generated by `python3 scripts/report.py --readme README.md` from the runs in `results/`; do not edit by hand._", ""] + \
        table(["technique", "figure to cite", "against the write-up", "which to pick"], rows)


def budget_block(runs) -> list:
    """What each kind of full run in results/ cost: its selection, environment and wall time, from
    the provenance of the newest full run of each (so the README's minutes are measured, not typed)."""
    newest: dict = {}
    for run in runs:
        full, _ = evidence.full_run(run)
        p = run.provenance or {}
        if not full or not isinstance(p.get("durationSeconds"), (int, float)):
            continue
        props = (p.get("jmh") or {}).get("mavenProperties") or {}
        key = tuple(sorted(props.items()))
        newest[key] = run
    rows = []
    for key, run in sorted(newest.items(), key=lambda kv: kv[1].name):
        props = dict(key)
        options = " ".join(f"-D{k}={v}" for k, v in props.items()) or "(no options)"
        classes = sorted({r.simple_class for r in run.results})
        env = ", ".join(sorted({f"JDK {e.jdk}" for e in run.environments}))
        rows.append([f"`mvn jmh:run {options}`".replace(" (no options)", ""), ", ".join(classes), env,
                     f"{run.provenance['durationSeconds'] / 60:.0f} min", run.cpu or "not recorded", run.name])
    return ["_Generated by `python3 scripts/report.py --readme README.md` from the provenance of the newest full run of each kind; do not edit by hand._", ""] + \
        table(["command", "benchmarks", "forks ran on", "wall time", "machine", "run"], rows)


def short_coverage(v) -> str:
    """What a cited figure rests on, in a few words: '8 trials, 1 machine' (trial protocol) or the
    first clause of the older run envelope's note."""
    if v.extra.get("protocol") == "trials":
        across = v.extra.get("across")
        n = v.extra["trials"]
        return f"{n} trial{'s' if n != 1 else ''}, {across.describe() if across else '?'}"
    return v.reason.split(":")[0]


README_FIGURES_PER_TECHNIQUE = 3


def rests_on(v) -> str:
    """'16 trials, 2 machines': what a cited figure of the trial protocol rests on."""
    if v.extra.get("protocol") != "trials":
        return short_coverage(v)
    n, k = v.extra["trials"], len(v.extra.get("machine_figures") or ())
    return f"{n} trial{'s' if n != 1 else ''}, {k} machine{'s' if k != 1 else ''}"


def each_machine(v) -> str:
    """Each machine's figure with its own interval (up to three, then the range), and the
    prediction for a new machine once there is one."""
    mfigs = sorted(v.extra.get("machine_figures") or (), key=lambda m: m.ratio)
    if not mfigs:
        return ""
    if len(mfigs) == 1:
        return "one machine so far"
    parts = [fmt_ratio(m.ratio, m.lo, m.hi) for m in mfigs] if len(mfigs) <= 3 else \
        [f"{len(mfigs)} machines, {mfigs[0].ratio:.3g}x to {mfigs[-1].ratio:.3g}x"]
    across = v.extra.get("across")
    if across is not None and across.predicts:
        parts.append(f"a new machine: [{across.pred_lo:.3g}, {across.pred_hi:.3g}]")
    return "; ".join(parts)


def figures_block(evs, made, readme: Path) -> list:
    """The README's figures: per technique its headline figure and the next cited ones, up to
    README_FIGURES_PER_TECHNIQUE, in the reference environment; every other row is in REPORT.md."""
    rows = []
    for ev in evs:
        ref = ev.reference
        cited = ev.cited[id(ref)] if ref else []
        head = ev.technique.answer.get("cite") if ev.technique.answer else None
        ordered = sorted(cited, key=lambda v: v.id != head)[:README_FIGURES_PER_TECHNIQUE]
        for v in ordered:
            rows.append([ev.technique.title.split(":")[0], v.subject, f"**{figure_text(v)}**",
                         rests_on(v), each_machine(v)])
    lines = ["_Generated by `python3 scripts/report.py --readme README.md`; do not edit by hand. Every "
             "configuration, variant and metric is in [results/REPORT.md](results/REPORT.md)._", ""]
    lines += table(["technique", "figure", "cite [95% interval]", "rests on", "each machine [its 95% interval]"], rows)
    return lines


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="report.py", description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="JMH JSON result files (default: every run in results/)")
    ap.add_argument("--out", default=str(RESULTS_DIR / "REPORT.md"))
    ap.add_argument("--charts", default=str(RESULTS_DIR / "charts"), help="chart folder")
    ap.add_argument("--cited", help="where to write the cited figures as JSON (default: beside --out, cited.json)")
    ap.add_argument("--no-charts", action="store_true")
    ap.add_argument("--readme", help="rewrite the generated blocks of this README")
    ap.add_argument("--docs", help="rewrite the generated blocks of the technique notes in this folder")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    require_full = not a.files
    files = a.files or result_files()
    if not files:
        raise cli.InputError(f"{RESULTS_DIR}: no JMH result files (run `mvn jmh:run` first or name a file)")
    runs = [load(f) for f in files]
    for run in runs:
        verdicts.check_units(run.results, suite)
    evs = verdicts.assemble(runs, suite, require_full)
    if not evs:
        raise cli.InputError("no full run of any technique in " + (", ".join(map(str, files)) if a.files else str(RESULTS_DIR)))
    out = Path(a.out)
    made = []
    if not a.no_charts:
        results = [r for ev in evs for r in ev.newest[1]]
        made = charts_lib.write_charts(results, a.charts, suite)
    readiness = load_readiness(RESULTS_DIR)
    write_atomic(out, build_report(runs, evs, suite, readiness, made, out, require_full))
    print(out)
    cited = Path(a.cited) if a.cited else out.with_name("cited.json")
    write_atomic(cited, json.dumps(cited_records(evs), indent=1, allow_nan=False) + "\n")
    print(cited)
    if a.readme:
        readme = Path(a.readme)
        cli.replace_block(readme, "answers", "\n".join(answers_block(evs, readme)))
        cli.replace_block(readme, "figures", "\n".join(figures_block(evs, made, readme)))
        cli.replace_block(readme, "budget", "\n".join(budget_block(runs)))
        print(readme)
    if a.docs:
        for ev in evs:
            note = Path(a.docs) / Path(ev.technique.note).name
            cli.replace_block(note, "measured", "\n".join(docs_block(ev, suite, readiness)))
            print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
