"""The one verdict engine: every judgement is computed here once and returned as a Verdict (figure,
interval, bar, outcome, reason); the commands only format it. Regressions are judged only between the two
commits of one run (hpb.twocommit, hpb.breadth): two runs made apart do not share the machine's minutes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import forks, stats
from .config import JMH_METRICS, Suite, Technique, metric_unit_ok
from .evidence import Pool, pools  # noqa: F401 (where they were)
from .markdown import fmt_params
from .model import ALLOC, InputError, Metric, Result, comparable, higher_is_better
from .select import Group, group_results, matches_benchmark, missing_values, param_matches, resolve_params
from .stats import Figure

# a claim's bar: (its key, the test, what the figure is); a claim naming none of the first three is within_pct
BARS = (("min_speedup", ">=", "speed-up"), ("max_ratio", "<=", "ratio"), ("min_ratio", ">=", "ratio"),
        ("within_pct", "within", "ratio"))
FAILING = {"fail", "inconclusive", "not_run", "regression", "missing"}


@dataclass
class Verdict:
    check: str  # claim, target, time, alloc, ratio, missing, only, published, cited, jdk, reproduce
    subject: str  # what was judged, for a reader
    outcome: str  # pass fail inconclusive not_run warn ok regression missing | agrees higher lower too_wide ...
    reason: str = ""
    id: str = ""
    technique: str = ""
    params: dict = field(default_factory=dict)
    figure: Figure | None = None
    bar: float | None = None
    need: str = ""  # '>=', '<=' or 'within'
    before: Metric | None = None
    after: Metric | None = None
    enforced: bool = True
    point_clears: bool | None = None
    extra: dict = field(default_factory=dict)

    @property
    def failing(self) -> bool:
        return self.outcome in FAILING


def describe(r: Result, params: dict | None = None) -> str:
    p = fmt_params(r.params if params is None else params)
    return f"{r.simple_class}.{r.method} ({r.mode}{', t=' + str(r.threads) if r.threads != 1 else ''})" + (f" [{p}]" if p else "")


def _direction(t: Technique | None, metric: str, unit: str) -> bool:
    """Higher is better for this metric?"""
    if metric in ("primary", "", None):
        return higher_is_better(unit)
    info = (t.metric_info(metric) if t else None) or JMH_METRICS.get(metric)
    return bool(info and info.get("better") == "higher")


def paired_logs(a: Result, b: Result, t: Technique | None, metric: str, kind: str) -> list | None:
    """Per-trial log ratios of a against b on `metric`, oriented as the figure reads ('ratio': a/b;
    a speed-up: a/b for a throughput, b/a for a time or a cost); None when the two cannot be paired."""
    fa, fb = a.forks_of(metric), b.forks_of(metric)
    if not (a.paired and b.paired) or len(fa) != len(a.trials) or len(fb) != len(b.trials):
        return None
    logs = forks.paired_logs(fa, a.trials, fb, b.trials)
    flip = kind != "ratio" and not _direction(t, metric, (a.metric(metric) or a.primary).unit)
    return [-x for x in logs] if flip else logs


def paired_figure(a: Result, b: Result, t: Technique | None, metric: str, kind: str):
    """(Figure, forks.Paired) from forks paired by trial, or None; never narrower than resolution_figure."""
    logs = paired_logs(a, b, t, metric, kind)
    if logs is None:
        return None
    p = forks.interval_of_logs(logs)
    return stats.widen(Figure(p.value, p.lo, p.hi), resolution_figure(a, b, t, metric, kind)), p


def resolution_figure(a: Result, b: Result, t: Technique | None, metric: str, kind: str) -> Figure | None:
    """The interval a heap metric's resolution alone allows (config.Technique.measured), so forks that agree
    exactly do not pose as an exact figure; None for other metrics."""
    if t is None or not (t.metric_info(metric) or {}).get("resolution"):
        return None
    return measured_figure(a, b, t, metric, kind)


def measured_figure(a: Result, b: Result, t: Technique, metric: str, kind: str, base_metric=None) -> Figure:
    """a's `metric` against b's `base_metric` (default: the same) as the technique measures them: a/b for a
    'ratio', else a speed-up."""
    am, bm = t.measured(a, metric), t.measured(b, metric if base_metric is None else base_metric)
    return stats.ratio(am, bm) if kind == "ratio" else stats.speedup(am, bm, _direction(t, metric, am.unit))


def ratio_tolerance(suite: Suite, t: Technique | None, group: Group, label: str) -> tuple[float, str]:
    """(tolerance in %, where it came from): the technique's first ratio_tolerance covering this method, variant
    and param set (whatever of them it names must match), else the suite's."""
    for tol in (t.tolerances if t else []):
        if not all(not tol.get(k) or tol[k] == v for k, v in (("method", group.name), ("variant", label))):
            continue
        if not tol.get("params") or param_matches(group.params, resolve_params(tol["params"], [group.params])):
            return float(tol["pct"]), tol["why"]
    return float(suite.regression.get("ratio_tolerance_pct", 15)), "suite default"


def check_units(results, suite: Suite) -> None:
    """Bad input when a metric the suite judges has a unit it cannot judge (a B/op written as MB)."""
    used = {}
    for t, c, _ in suite.all_claims():
        used.setdefault(t.benchmark, set()).update({c.get("metric", "primary"), c.get("baseline_metric", c.get("metric", "primary"))})
    for t in suite.techniques:
        used.setdefault(t.benchmark, set()).update(c.get("metric", "primary") for c in t.cited)
        used[t.benchmark].add(ALLOC)
    for r in results:
        for name in used.get(r.cls, {ALLOC}) - {"primary"}:
            m = r.secondary.get(name)
            if m is not None and not metric_unit_ok(suite.technique(r.cls), name, m.unit):
                raise InputError(f"{r.source}: {describe(r)} {name}: unit {m.unit!r} is not the one the suite judges")


def _claim_groups(results, claim, t: Technique, suite: Suite):
    bench = claim.get("benchmark", t.benchmark)
    metric = claim.get("metric", "primary")
    base_metric = claim.get("baseline_metric", metric)
    groups = [g for g in group_results([r for r in results if matches_benchmark(r.cls, r.benchmark, bench)], suite)
              if not claim.get("method") or g.name == claim["method"]]
    with_sides = [g for g in groups if g.result(claim["variant"]) is not None and g.result(claim["baseline"]) is not None]
    resolved = resolve_params(claim.get("params"), [g.params for g in with_sides])
    chosen = [g for g in with_sides if param_matches(g.params, resolved)]
    missing = missing_values(resolved, [g.params for g in with_sides]) if with_sides else []
    lacking = sorted({m for g in chosen for lbl, m in ((claim["variant"], metric), (claim["baseline"], base_metric))
                      if g.result(lbl).metric(m) is None})
    return chosen, missing, lacking, bench


def judge_claim(results, claim: dict, t: Technique, suite: Suite, enforced=True, allow_missing=False) -> list:
    metric = claim.get("metric", "primary")
    base_metric = claim.get("baseline_metric", metric)
    name = f"{claim['id']}: {claim['variant']} vs {claim['baseline']}" + ("" if metric == "primary" else f" {metric}")
    if base_metric != metric:
        name = f"{claim['id']}: {claim['variant']} {metric} vs {claim['baseline']} {base_metric}"
    check = "claim" if enforced else "target"
    groups, missing, lacking, bench = _claim_groups(results, claim, t, suite)

    def absent(reason: str) -> Verdict:
        outcome = "warn" if allow_missing else "not_run"
        return Verdict(check, name, outcome, reason, claim["id"], t.id, enforced=enforced)

    where = bench.rsplit(".", 1)[-1] + ("." + claim["method"] if claim.get("method") else "")
    if not groups:
        return [absent(f"{where} ({claim['variant']} and {claim['baseline']}) not in this run")]
    out = []
    if missing:
        out.append(absent(f"part of what the claim names is not in this run: {', '.join(missing)}"))
    if lacking:
        out.append(absent(f"metric {', '.join(lacking)} not in this run"
                          + (" (the gc profiler did not run)" if ALLOC in lacking else "")))
        groups = [g for g in groups if g.result(claim["variant"]).metric(metric) is not None
                  and g.result(claim["baseline"]).metric(base_metric) is not None]
    det = t.deterministic(metric) and t.deterministic(base_metric)
    key, need, desc = next((b for b in BARS if b[0] in claim), BARS[-1])
    kind = "ratio" if ("max_ratio" in claim or "min_ratio" in claim) else "speedup"
    for g in groups:
        va, ba, bar = g.result(claim["variant"]), g.result(claim["baseline"]), claim[key]
        a, b = va.metric(metric), ba.metric(base_metric)
        if not comparable(a.unit, b.unit) and not (a.unit == "#" or b.unit == "#"):
            raise InputError(f"{va.source}: {claim['id']}: {a.unit} and {b.unit} cannot be compared")
        fig = measured_figure(va, ba, t, metric, kind, base_metric)
        # forks paired by trial give the fork-level interval: one fork's iterations say nothing of the next's JIT
        forked = paired_figure(va, ba, t, metric, kind) if metric == base_metric else None
        if forked is not None and forked[1].n >= 2:
            fig = forked[0]
        v, pess = fig.value, fig.hi if need == "<=" else fig.lo
        if need == "within":
            x = 1 + bar / 100
            note = f"no difference within +/-{bar:g}%: the whole interval inside [{1 / x:.3g}, {x:.3g}]"
            point_clears = not math.isnan(v) and 1 / x <= v <= x
            decided, passed = fig.known, fig.known and stats.equivalent(fig, bar)
        else:
            note = f"{desc} {need} {bar:g}x at the pessimistic end"
            point_clears = not math.isnan(v) and (v >= bar if need == ">=" else v <= bar)
            if claim.get("point_score") and not math.isnan(v):
                pess, note = v, note.replace("at the pessimistic end", "on the point score") + f" ({claim['point_score']})"
            elif math.isnan(pess) and det and not math.isnan(v):
                pess, note = v, note + " (deterministic metric: point score)"
            decided = not math.isnan(pess)
            passed = decided and (pess >= bar if need == ">=" else pess <= bar)
        outcome = "pass" if passed else "fail" if decided else "inconclusive"
        note += "" if decided else "; interval unknown (need >= 2 measurement iterations)"
        label = name if claim.get("method") else f"{name} ({g.name})"
        # each side's own score as the report shows it: over forks in a trials run (Result.over_forks)
        shown = (t.named(base_metric, ba.over_forks(base_metric)), t.named(metric, va.over_forks(metric)))
        out.append(Verdict(check, label, outcome, note, claim["id"], t.id, dict(g.params), fig, bar, need,
                           *shown, enforced, point_clears, {"why": claim.get("why", "")}))
    return out


def judge_claims(results, suite: Suite, ids=None, allow_missing=False, targets=False) -> list:
    """Every CI claim (with targets=True, every target too); only those of `ids` when given (unknown: bad input)."""
    known = {c["id"] for t, c, e in suite.all_claims() if e or targets}
    unknown = [i for i in ids or [] if i not in known]
    if unknown:
        raise InputError(f"no claim with id {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    return [v for t, c, enforced in suite.all_claims() if (enforced or targets) and (ids is None or c["id"] in ids)
            for v in judge_claim(results, c, t, suite, enforced, allow_missing)]
