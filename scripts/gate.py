#!/usr/bin/env python3
"""CI regression gate: claims within one run, and regressions against a committed baseline.

    python3 scripts/gate.py CURRENT.json [MORE.json ...] [--baseline FILE] [--claims FILE]
                            [--allow-missing] [--time-warn-only] [--claim-ids ID,ID]

Exit 0 pass, 1 a regression or a broken claim, 2 bad input. Prints one table and a one-line
summary.

Claims (scripts/claims.json): both sides ran in the same run, so their ratio is stable where
absolute times are not. A claim holds only when the pessimistic end of the ratio's conservative
interval clears the bar. An unknown interval (NaN error, e.g. one measurement iteration) is
INCONCLUSIVE and fails, except for deterministic metrics (B/op, bytes per entry), whose point
score is used. A claim whose benchmarks are not in the run is NOT RUN and fails unless
--allow-missing.

Regressions (default baseline results/baseline.json; absent -> warning, check skipped; an
explicit --baseline that is missing is bad input): direction from the unit. Time/throughput
regresses when it is worse by more than the threshold (10%, per-benchmark overrides) AND the two
99.9% intervals do not overlap; unknown intervals give a warning. B/op regresses when it grows by
at least 16 bytes and more than 5% and the intervals (when known) do not overlap, so an extra
object per operation fails even on a noisy runner. A different JDK or CPU between the runs (or
--time-warn-only) turns time regressions into warnings; allocation still gates. Benchmarks in
only one of the files are listed as warnings.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import jmhjson as J

DEFAULT_BASELINE = J.RESULTS_DIR / "baseline.json"
FAIL_VERDICTS = {"FAIL", "REGRESSION", "INCONCLUSIVE", "NOT RUN"}


def _row(kind, what, base, cur, change, verdict, note=""):
    return {"check": kind, "what": what, "baseline": base, "current": cur, "change": change,
            "verdict": verdict, "note": note}


def _claim_groups(results, claim, techniques):
    groups = [g for g in J.group_results(results, techniques)
              if (g.cls == claim["benchmark"] or g.cls.endswith("." + claim["benchmark"]))
              and (not claim.get("method") or g.name == claim["method"])]
    metric = claim.get("metric", "primary")
    sides = ((claim["variant"], metric), (claim["baseline"], claim.get("baseline_metric", metric)))
    groups = [g for g in groups
              if all(any(lbl == l2 and r.metric(m) is not None for l2, r in g.rows) for lbl, m in sides)]
    pool = [g.params for g in groups]
    return [g for g in groups if J.param_matches(g.params, claim.get("params"), pool)]


def check_claims(results, claims_cfg, techniques, allow_missing=False):
    rows = []
    det = set(claims_cfg.get("deterministic_metrics", [J.ALLOC]))
    for c in claims_cfg.get("claims", []):
        metric = c.get("metric", "primary")
        base_metric = c.get("baseline_metric", metric)
        groups = _claim_groups(results, c, techniques)
        name = f"{c['id']}: {c['variant']} vs {c['baseline']}" + ("" if metric == "primary" else f" {metric}")
        if base_metric != metric:
            name = f"{c['id']}: {c['variant']} {metric} vs {c['baseline']} {base_metric}"
        if not groups:
            row = _row("claim", name, "", "", "", "NOT RUN" if not allow_missing else "WARN",
                       f"{c['benchmark']}{'.' + c['method'] if c.get('method') else ''} not in this run")
            rows.append(dict(row, name=name, params=""))
            continue
        for g in groups:
            rows_by = dict(g.rows)
            a, b = rows_by[c["variant"]].metric(metric), rows_by[c["baseline"]].metric(base_metric)
            if "min_speedup" in c:
                v, lo, hi = J.speedup(a, b)
                bar, need, pess, desc = c["min_speedup"], ">=", lo, "speed-up"
            elif "max_ratio" in c:
                v, lo, hi = J.ratio(a, b)
                bar, need, pess, desc = c["max_ratio"], "<=", hi, "ratio"
            else:
                v, lo, hi = J.ratio(a, b)
                bar, need, pess, desc = c["min_ratio"], ">=", lo, "ratio"
            note = f"{desc} {need} {J.fmt_num(bar)}x at the pessimistic end"
            if c.get("point_score") and not math.isnan(v):
                # A total over the measured window (e.g. GC time): its per-iteration t-interval
                # with a few iterations spans zero, so the claim states a bar far from the point.
                pess, note = v, note.replace("at the pessimistic end", "on the point score") + f" ({c['point_score']})"
            elif math.isnan(pess) and {metric, base_metric} <= det and not math.isnan(v):
                pess, note = v, note + " (deterministic metric: point score)"
            if math.isnan(pess):
                verdict = "INCONCLUSIVE"
                note += "; interval unknown (need >= 2 measurement iterations)"
            else:
                ok = pess >= bar if need == ">=" else pess <= bar
                verdict = "PASS" if ok else "FAIL"
            method = "" if c.get("method") else f" ({g.name})"
            row = _row("claim", f"{name}{method} [{g.params_label()}]", J.fmt_metric(b), J.fmt_metric(a),
                       J.fmt_ratio(v, lo, hi), verdict, note)
            row.update(name=name + method, params=g.params_label(),
                       point_clears=not math.isnan(v) and (v >= bar if need == ">=" else v <= bar))
            rows.append(row)
    return rows


def _threshold(reg, benchmark):
    per = reg.get("per_benchmark", {})
    return float(per.get(benchmark, per.get(benchmark.rsplit(".", 1)[0], reg.get("threshold_pct", 10))))


def _overlap(a: J.Metric, b: J.Metric) -> bool:
    a, b = a.base(), b.base()
    return a.lo <= b.hi and b.lo <= a.hi


def _what(r: J.Result) -> str:
    p = J.fmt_params(r.params)
    return f"{r.simple_class}.{r.method} ({r.mode}{', t=' + str(r.threads) if r.threads != 1 else ''})" + (f" [{p}]" if p else "")


def environment_differs(base: J.Run, cur: J.Run) -> str:
    diffs = []
    if base.jdk and cur.jdk and base.jdk != cur.jdk:
        diffs.append(f"JDK {base.jdk} vs {cur.jdk}")
    if base.cpu and cur.cpu and base.cpu != cur.cpu:
        diffs.append(f"CPU {base.cpu} vs {cur.cpu}")
    return "; ".join(diffs)


def check_regressions(base: J.Run, cur: J.Run, claims_cfg, time_warn_only=False):
    reg = claims_cfg.get("regression", {})
    min_bytes, min_pct = float(reg.get("alloc_min_bytes", 16)), float(reg.get("alloc_min_pct", 5))
    env = environment_differs(base, cur)
    rows = []
    bmap = {r.key: r for r in base.results}
    cmap = {r.key: r for r in cur.results}
    for key, c in cmap.items():
        b = bmap.get(key)
        if b is None:
            rows.append(_row("only in current", _what(c), "", J.fmt_metric(c.primary), "", "WARN", "new benchmark or param set"))
            continue
        # time / throughput
        thr = _threshold(reg, c.benchmark)
        v, lo, hi = J.speedup(c.primary, b.primary)  # > 1: current better
        change = J.fmt_ratio(v, lo, hi)
        worse_pct = (1 / v - 1) * 100 if v > 0 else math.inf
        if not (b.primary.known and c.primary.known):
            verdict, note = ("WARN", "interval unknown") if worse_pct > thr else ("OK", "interval unknown")
        elif worse_pct > thr and not _overlap(b.primary, c.primary):
            verdict, note = "REGRESSION", f"{worse_pct:.0f}% worse (threshold {thr:g}%), intervals apart"
            if env or time_warn_only:
                verdict, note = "WARN", note + ("; " + env if env else "; time regressions are warnings in this run")
        else:
            verdict, note = "OK", (f"{worse_pct:.0f}% worse, within noise" if worse_pct > 0 else "")
        rows.append(_row("time", _what(c), J.fmt_metric(b.primary), J.fmt_metric(c.primary), change, verdict, note))
        # allocation
        ba, ca = b.metric(J.ALLOC), c.metric(J.ALLOC)
        if ba is None or ca is None:
            continue
        grow = ca.score - ba.score
        pct = grow / ba.score * 100 if ba.score > 0 else (math.inf if grow > 0 else 0)
        apart = not (ba.known and ca.known) or not _overlap(ba, ca)
        if grow > min_bytes - 0.5 and pct > min_pct and apart:  # 0.5 B slack: JMH's B/op is a measured average
            verdict, note = "REGRESSION", f"+{grow:.1f} B/op (+{pct:.0f}%)"
        else:
            verdict, note = "OK", (f"{grow:+.1f} B/op" if abs(grow) >= 0.5 else "")
        rows.append(_row("B/op", _what(c), J.fmt_metric(ba), J.fmt_metric(ca), f"{grow:+.1f} B/op", verdict, note))
    for key, b in bmap.items():
        if key not in cmap:
            rows.append(_row("only in baseline", _what(b), J.fmt_metric(b.primary), "", "", "WARN", "not in the current run"))
    return rows, env


def print_table(rows, out=None):
    out = out or sys.stdout
    cols = ["check", "what", "baseline", "current", "change", "verdict", "note"]
    heads = ["check", "benchmark [params]", "baseline", "current", "change [interval]", "verdict", "note"]
    widths = [max(len(h), *(len(str(r[c])) for r in rows)) if rows else len(h) for c, h in zip(cols, heads)]
    widths = [min(w, 90) for w in widths]

    def line(vals):
        return "  ".join(str(v)[:w].ljust(w) for v, w in zip(vals, widths)).rstrip()
    print(line(heads), file=out)
    print(line(["-" * w for w in widths]), file=out)
    for r in rows:
        print(line([r[c] for c in cols]), file=out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("current", nargs="+", help="JMH JSON of the run to check (several files of one pass are merged)")
    ap.add_argument("--baseline", help=f"JMH JSON to compare with (default {DEFAULT_BASELINE}; if absent the regression check is skipped with a warning)")
    ap.add_argument("--claims", default=str(J.DEFAULT_CLAIMS))
    ap.add_argument("--techniques", default=str(J.DEFAULT_TECHNIQUES))
    ap.add_argument("--allow-missing", action="store_true", help="claims whose benchmarks did not run warn instead of failing")
    ap.add_argument("--time-warn-only", action="store_true", help="time regressions warn instead of failing (short runs); allocation still gates")
    ap.add_argument("--no-claims", action="store_true", help="skip the claims check")
    ap.add_argument("--claim-ids", help="check only these claims (comma-separated ids from the claims file)")
    a = ap.parse_args(argv)
    try:
        claims_cfg = J.load_config(a.claims)
        techniques = J.load_config(a.techniques)
        cur = J.load_many(a.current)
        base = None
        warnings = []
        if a.baseline:
            base = J.load(a.baseline)
        elif DEFAULT_BASELINE.is_file():
            base = J.load(DEFAULT_BASELINE)
        else:
            warnings.append(f"no baseline ({DEFAULT_BASELINE} absent): regression check skipped")
    except J.InputError as e:
        J.fail(str(e))
    if a.claim_ids:
        wanted = [i.strip() for i in a.claim_ids.split(",") if i.strip()]
        known = {c["id"] for c in claims_cfg.get("claims", [])}
        unknown = [i for i in wanted if i not in known]
        if unknown:
            J.fail(f"{a.claims}: no claim with id {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        claims_cfg = dict(claims_cfg, claims=[c for c in claims_cfg["claims"] if c["id"] in wanted])
    rows = [] if a.no_claims else check_claims(cur.results, claims_cfg, techniques, a.allow_missing)
    if base is not None:
        reg_rows, env = check_regressions(base, cur, claims_cfg, a.time_warn_only)
        rows += reg_rows
        if env:
            warnings.append(f"environments differ ({env}): time changes are warnings, allocation still gates")
    print_table(rows)
    failed = [r for r in rows if r["verdict"] in FAIL_VERDICTS]
    warned = [r for r in rows if r["verdict"] == "WARN"]
    for w in warnings:
        print("warning: " + w)
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    summary = ", ".join(f"{n} {v.lower()}" for v, n in sorted(counts.items()))
    print(("GATE FAILED: " if failed else "GATE PASSED: ") + (summary or "nothing checked")
          + (f"; {len(warnings)} warning(s)" if warnings else "")
          + (f" (see {len(warned)} WARN row(s))" if warned else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
