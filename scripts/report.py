#!/usr/bin/env python3
"""Write results/REPORT.md and the charts from JMH JSON; optionally refresh README's figures.

    python3 scripts/report.py [RESULT.json ...] [--out results/REPORT.md] [--charts results/charts]
                              [--readme README.md] [--no-charts]

Default input: the newest run in results/. --readme rewrites the block between
<!-- figures:start --> and <!-- figures:end --> in that file (atomically), so the README's
figures table always comes from this code.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

import jmhjson as J

START, END = "<!-- figures:start -->", "<!-- figures:end -->"


def _rel(path: Path, start: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), Path(start).resolve())).as_posix()


def environment(runs) -> list:
    lines = ["## Environment", ""]
    for run in runs:
        p = run.provenance or {}
        lines.append(f"- **{run.path.name}**")
        if not p:
            lines.append(f"  - no provenance file beside it; JDK from the results: {run.jdk or 'unknown'}")
            continue
        g, j, h, m = p.get("git") or {}, p.get("jdk") or {}, p.get("host") or {}, p.get("jmh") or {}
        lines.append(f"  - status {p.get('status', '?')}, started {p.get('startedUtc', '?')}, "
                     f"{p.get('durationSeconds', '?')} s")
        lines.append(f"  - git {str(g.get('commit', '?'))[:12]}{' (dirty)' if g.get('dirty') else ''}"
                     f" on {g.get('branch', '?')}")
        lines.append(f"  - JDK {j.get('vendor', '')} {j.get('runtimeVersion') or j.get('version', '?')}, {j.get('vmName', '')}")
        mem = h.get("memTotalBytes")
        mem = f"{mem / 2**30:.1f} GiB" if isinstance(mem, (int, float)) else "?"
        lines.append(f"  - host {h.get('cpuModel', '?')}, {h.get('availableProcessors', '?')} CPUs, {mem}, "
                     f"{h.get('os', '?')} {h.get('arch', '')}")
        lines.append(f"  - JMH {m.get('version', '?')} `{' '.join(m.get('arguments') or [])}`")
    return lines + [""]


def secondary_text(r: J.Result, skip=(J.ALLOC,)) -> str:
    parts = []
    for k in sorted(r.secondary):
        if k in skip or k.startswith("p0.") or k.startswith("p1."):
            continue
        parts.append(f"{k} {J.fmt_metric(r.secondary[k])}")
    return "; ".join(parts)


def technique_table(gs) -> list:
    rows = ["| params | variant | score | vs baseline [interval] | B/op | other metrics |",
            "|---|---|---|---|---|---|"]
    for g in gs:
        b = g.base_result()
        for lbl, r in g.rows:
            if b is None or r is b:
                vs = "baseline" if r is b else ""
            else:
                vs = J.fmt_ratio(*J.speedup(r.primary, b.primary))
            alloc = r.metric(J.ALLOC)
            rows.append(f"| {J.md_cell(g.params_label())} | {lbl}{' (baseline)' if r is b else ''} | {J.fmt_metric(r.primary)} "
                        f"| {vs} | {J.fmt_metric(alloc) if alloc else ''} | {secondary_text(r)} |")
    return rows


def _amdahl(speedup: float, share: float) -> float:
    if not math.isfinite(speedup):
        return 1 / (1 - share) if math.isinf(speedup) else speedup
    if speedup <= 0:
        return 0.0
    return 1 / ((1 - share) + share / speedup)


def published_rows(results, techniques: dict) -> list:
    """Each published claim with the measured figure, a verdict and why (verdict from numbers)."""
    out = []
    for c in techniques.get("published", []):
        m = c["measure"]
        metric = m.get("metric", "primary")
        after = J.select(results, {**m["after"], "metric": metric})
        before = J.select(results, {**m["before"], "metric": metric})
        pub, tol = float(c["published"]), float(c.get("tolerance", 1.5))
        row = {"id": c["id"], "claim": c["claim"], "published": pub, "measured": "not run",
               "verdict": "not run", "why": "The benchmarks for this claim are not in these results."}
        if after and before:
            a = J.geomean_metric([r.metric(metric) for r in after])
            b = J.geomean_metric([r.metric(metric) for r in before])
            if m.get("kind") == "speedup":
                v, lo, hi = J.speedup(a, b)
            else:
                v, lo, hi = J.ratio(a, b)
            measured = J.fmt_ratio(v, lo, hi)
            share = c.get("cpu_share")
            if share:
                v, lo, hi = (_amdahl(x, share) for x in (v, lo, hi))
                measured += f"; end to end at {share:.0%} CPU: {J.fmt_ratio(v, lo, hi)}"
            measured += f" (n={len(after)}+{len(before)})"
            band = (pub / tol, pub * tol)
            if not (math.isfinite(lo) or math.isinf(lo)) or math.isnan(hi) or math.isnan(v):
                outcome = "inconclusive"
            elif hi < band[0]:
                outcome = "lower"
            elif lo > band[1]:
                outcome = "higher"
            elif not band[0] <= v <= band[1] or lo < band[0] / tol or hi > band[1] * tol:
                # Overlap alone would let a noisy interval "agree" with anything: an interval that
                # reaches past the band widened once more by the tolerance (e.g. down to 1x, no
                # gain, for a claimed 1.5x) neither confirms nor refutes the claim.
                outcome = "too wide"
            else:
                outcome = "agrees"
            verdict = {"agrees": "agrees", "inconclusive": "inconclusive"}.get(
                outcome, f"does not agree (measured {outcome})")
            why = (c.get("why") or {}).get(outcome, "")
            if outcome == "too wide":
                verdict = "inconclusive (interval too wide)"
                why = ("The interval overlaps the published band but is too wide to confirm it (point "
                       f"{J.fmt_num(v)}x); rerun with more forks or iterations on a quiet machine.")
                side = "lower" if v < band[0] else "higher" if v > band[1] else None
                if side and (c.get("why") or {}).get(side):
                    why += f" The point lies {side} than the band: {c['why'][side]}"
            row.update(measured=measured, verdict=verdict, why=why,
                       band=f"{J.fmt_num(band[0])}..{J.fmt_num(band[1])}")
        out.append(row)
    return out


def published_table(results, techniques) -> list:
    lines = ["## Published vs measured", "",
             "Measured = geometric mean over the selected param sets, with the conservative interval. "
             "A claim agrees when the point estimate lies in the published figure widened by its tolerance "
             "(the band) and the whole interval lies within the band widened once more by the tolerance; "
             "an interval wholly outside the band does not agree; anything else is inconclusive. Ratios > 1 in a speed-up row mean the 'after' side is faster.", "",
             "| claim | published | band | measured [interval] | verdict | why |", "|---|---|---|---|---|---|"]
    for r in published_rows(results, techniques):
        lines.append(f"| {r['claim']} | {J.fmt_num(r['published'])}x | {r.get('band', '')} | {r['measured']} "
                     f"| {r['verdict']} | {r['why']} |")
    return lines + [""]


TARGET_VERDICTS = {"PASS": "met", "FAIL": "missed", "INCONCLUSIVE": "inconclusive", "WARN": "not run",
                   "NOT RUN": "not run"}


def targets_table(results, claims_cfg, techniques) -> list:
    """The CI claims and the issues' other targets, judged by the gate's own code on these results."""
    import gate
    lines = ["## Targets", "",
             "The goals set for each technique, judged by `scripts/gate.py` on these results: a goal is met "
             "only when the pessimistic end of its interval clears the bar (or the point score, where the "
             "note says so). \"CI\" rows are the claims the CI gate enforces; the others are tracked here, "
             "with the reason a goal is missed or unsettled.", "",
             "| goal | CI | params | baseline | variant | ratio [interval] | verdict | why |",
             "|---|---|---|---|---|---|---|---|"]
    det = claims_cfg.get("deterministic_metrics", [J.ALLOC])
    for enforced, key in ((True, "claims"), (False, "targets")):
        for c in claims_cfg.get(key, []):
            rows = gate.check_claims(results, {"claims": [c], "deterministic_metrics": det}, techniques,
                                     allow_missing=True)
            for r in rows:
                verdict = TARGET_VERDICTS.get(r["verdict"], r["verdict"].lower())
                if verdict == "missed" and r.get("point_clears"):
                    verdict = "not established (point clears the bar, interval does not)"
                why = " ".join(x for x in (r["note"] + ".", c.get("why", "") if verdict != "met" else "") if x)
                lines.append(f"| {J.md_cell(r['name'])} | {'yes' if enforced else 'no'} | {J.md_cell(r['params'])} "
                             f"| {r['baseline']} | {r['current']} | {r['change']} | {verdict} | {J.md_cell(why)} |")
    return lines + [""]


def build_report(runs, results, techniques, charts, report_path: Path, claims_cfg=None) -> str:
    lines = ["# hotpath-bench results", "",
             "Generated by `scripts/report.py` from " + ", ".join(f"`{r.path.name}`" for r in runs) + ".",
             "Scores are JMH's with their 99.9% confidence half-width. \"vs baseline\" is how many times "
             "better than the baseline variant (higher is better for every unit), with the conservative "
             "interval [pessimistic, optimistic] from both scores' confidence intervals; n/a means JMH "
             "gave no interval (a single measurement iteration).", ""]
    lines += environment(runs)
    lines += published_table(results, techniques)
    if claims_cfg:
        lines += targets_table(results, claims_cfg, techniques)
    groups = J.group_results(results, techniques)
    for cls, gs in J.by_class(groups).items():
        cfg = J.technique_config(techniques, cls)
        lines += [f"## {cfg.get('title', cls.rsplit('.', 1)[-1])}", "", f"`{cls}`", ""]
        by_name: dict = {}
        for g in gs:
            by_name.setdefault((g.name, g.mode, g.label_kind), []).append(g)
        for (name, mode, kind), sub in by_name.items():
            head = f"{name}" + (" and paired methods" if kind == "method" else "")
            lines += [f"### {head} ({mode})", ""]
            lines += technique_table(sub)
            lines.append("")
            for (c, n, m, k, png) in charts:
                if c == cls and n == name and m == mode:
                    lines.append(f"![{c.rsplit('.', 1)[-1]}.{n} {k}]({_rel(png, report_path.parent)})")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _headline(g, r, selectors) -> bool:
    """Whether a README selector (techniques.json "readme": method, params, variants) picks this row;
    a technique without selectors shows every row."""
    if not selectors:
        return True
    for sel in selectors:
        if sel.get("method") and sel["method"] != g.name:
            continue
        if sel.get("variants") and r not in [x for lbl, x in g.rows if lbl in sel["variants"]]:
            continue
        if J.param_matches(g.params, sel.get("params"), [g.params]):
            return True
    return False


def figures_block(results, techniques, charts, readme: Path) -> str:
    """The README's figures: per technique, the headline rows (techniques.json "readme") and the charts."""
    lines = [START, "", "_Generated by `python3 scripts/report.py --readme README.md`; do not edit by hand. "
             "Every configuration, variant and metric is in [results/REPORT.md](results/REPORT.md)._", "",
             "| technique | benchmark | params | before | after | after vs before [interval] | B/op before -> after |",
             "|---|---|---|---|---|---|---|"]
    groups = J.group_results(results, techniques)
    for cls, gs in J.by_class(groups).items():
        cfg = J.technique_config(techniques, cls)
        title = cfg.get("title", cls.rsplit(".", 1)[-1])
        for g in gs:
            b = g.base_result()
            if b is None:
                continue
            for lbl, r in g.rows:
                if r is b or not _headline(g, r, cfg.get("readme")):
                    continue
                ab, ar = b.metric(J.ALLOC), r.metric(J.ALLOC)
                alloc = f"{J.fmt_num(ab.score)} -> {J.fmt_num(ar.score)}" if ab and ar else ""
                params = J.md_cell(J.fmt_params({k: v for k, v in g.params.items() if k != "seed"}))
                lines.append(f"| {title} | {g.simple_class}.{g.name} ({g.mode}) | {params} "
                             f"| {g.baseline}: {J.fmt_metric(b.primary)} | {lbl}: {J.fmt_metric(r.primary)} "
                             f"| {J.fmt_ratio(*J.speedup(r.primary, b.primary))} | {alloc} |")
    lines += ["", "Where the write-ups' figures hold (the reasons are in REPORT.md's \"Published vs measured\"):", "",
              "| published claim | published | measured [interval] | verdict |", "|---|---|---|---|"]
    for p in published_rows(results, techniques):
        lines.append(f"| {J.md_cell(p['claim'])} | {J.fmt_num(p['published'])}x | {J.md_cell(p['measured'])} | {p['verdict']} |")
    if charts:
        # Two charts a row; each is normalized so the "before" variant is 1.0x, with error bars.
        cells = [f"![{c.rsplit('.', 1)[-1]}.{n} ({m}, {k})]({_rel(png, readme.parent)})" for (c, n, m, k, png) in charts]
        cells += [""] * (len(cells) % 2)
        lines += ["", "| | |", "|---|---|"]
        lines += [f"| {cells[i]} | {cells[i + 1]} |" for i in range(0, len(cells), 2)]
    lines += ["", END]
    return "\n".join(lines)


def rewrite_readme(readme: Path, block: str) -> None:
    if not readme.is_file():
        raise J.InputError(f"{readme}: no such file")
    text = readme.read_text(encoding="utf-8")
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        raise J.InputError(f"{readme}: no '{START}' ... '{END}' block to rewrite")
    J.write_atomic(readme, text[:i] + block + text[j + len(END):])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="JMH JSON result files (default: newest in results/)")
    ap.add_argument("--out", default="results/REPORT.md")
    ap.add_argument("--charts", default="results/charts", help="chart folder")
    ap.add_argument("--no-charts", action="store_true")
    ap.add_argument("--readme", help="rewrite the figures block of this README")
    ap.add_argument("--techniques", default=str(J.DEFAULT_TECHNIQUES))
    ap.add_argument("--claims", default=str(J.DEFAULT_CLAIMS), help="CI claims and targets shown in the report")
    a = ap.parse_args(argv)
    try:
        techniques = J.load_config(a.techniques)
        claims_cfg = J.load_config(a.claims)
        files = a.files or [J.newest_run()]
        runs = [J.load(f) for f in files]
        results = [r for run in runs for r in run.results]
        charts = []
        if not a.no_charts:
            import chart
            charts = chart.write_charts(results, a.charts, techniques)
        out = Path(a.out)
        J.write_atomic(out, build_report(runs, results, techniques, charts, out, claims_cfg))
        print(out)
        if a.readme:
            readme = Path(a.readme)
            rewrite_readme(readme, figures_block(results, techniques, charts, readme))
            print(readme)
    except J.InputError as e:
        J.fail(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
