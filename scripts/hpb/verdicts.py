"""The one verdict engine. Every judgement the scripts make is computed here, once, and returned as
data (Verdict: the figure, its interval, the bar, the outcome and the reason); gate.py, report.py,
compare.py, reproduce.py and export.py only format what comes back.

- claims and targets (technique files): a ratio inside one run must clear its bar at the
  pessimistic end of its interval, or lie within +/-X% for an equivalence claim;
- regressions are judged only between the two commits of one run (hpb.twocommit, hpb.breadth):
  two runs made apart do not share the machine's minutes, and that comparison was removed;
- published figures against the write-ups' claims;
- cited figures pooled over runs, the JDK-to-JDK table, and the reproduce check.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import evidence, forks, stats
from . import machines as machines_mod
from .config import JMH_METRICS, Suite, Technique, metric_unit_ok
from .model import ALLOC, InputError, Metric, Result, Run, comparable, higher_is_better
from .select import Group, find_group, group_results, matches_benchmark, missing_values, param_matches, resolve_params, select
from .stats import Figure

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
    from .markdown import fmt_params
    p = fmt_params(r.params if params is None else params)
    return f"{r.simple_class}.{r.method} ({r.mode}{', t=' + str(r.threads) if r.threads != 1 else ''})" + (f" [{p}]" if p else "")


def _direction(t: Technique | None, metric: str, unit: str) -> bool:
    """Higher is better for this metric?"""
    if metric in ("primary", "", None):
        return higher_is_better(unit)
    info = (t.metric_info(metric) if t else None) or JMH_METRICS.get(metric)
    return bool(info and info.get("better") == "higher")


def check_units(results, suite: Suite) -> None:
    """Bad input when a metric the suite judges has a unit it cannot judge (a B/op written as MB,
    a technique's counter with an undeclared unit)."""
    used = {}
    for t, c, _ in suite.all_claims():
        used.setdefault(t.benchmark, set()).update({c.get("metric", "primary"), c.get("baseline_metric", c.get("metric", "primary"))})
    for t in suite.techniques:
        used.setdefault(t.benchmark, set()).update(c.get("metric", "primary") for c in t.cited)
        used[t.benchmark].add(ALLOC)
    for r in results:
        t = suite.technique(r.cls)
        for name in used.get(r.cls, {ALLOC}):
            if name == "primary":
                continue
            m = r.secondary.get(name)
            if m is not None and not metric_unit_ok(t, name, m.unit):
                raise InputError(f"{r.source}: {describe(r)} {name}: unit {m.unit!r} is not the one the suite judges")


# ---------------------------------------------------------------- claims and targets

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
    absent = "warn" if allow_missing else "not_run"
    where = bench.rsplit(".", 1)[-1] + ("." + claim["method"] if claim.get("method") else "")
    if not groups:
        return [Verdict(check, name, absent, f"{where} ({claim['variant']} and {claim['baseline']}) not in this run",
                        claim["id"], t.id, enforced=enforced)]
    out = []
    if missing:
        out.append(Verdict(check, name, absent, f"part of what the claim names is not in this run: {', '.join(missing)}",
                           claim["id"], t.id, enforced=enforced))
    if lacking:
        out.append(Verdict(check, name, absent, f"metric {', '.join(lacking)} not in this run"
                           + (" (the gc profiler did not run)" if ALLOC in lacking else ""), claim["id"], t.id, enforced=enforced))
        groups = [g for g in groups if g.result(claim["variant"]).metric(metric) is not None
                  and g.result(claim["baseline"]).metric(base_metric) is not None]
    det = t.deterministic(metric) and t.deterministic(base_metric)
    for g in groups:
        a, b = g.result(claim["variant"]).metric(metric), g.result(claim["baseline"]).metric(base_metric)
        if not comparable(a.unit, b.unit) and not (a.unit == "#" or b.unit == "#"):
            raise InputError(f"{g.result(claim['variant']).source}: {claim['id']}: {a.unit} and {b.unit} cannot be compared")
        a, b = t.measured(g.result(claim["variant"]), metric), t.measured(g.result(claim["baseline"]), base_metric)
        kind = "ratio" if ("max_ratio" in claim or "min_ratio" in claim) else "speedup"
        fig = stats.ratio(a, b) if kind == "ratio" else stats.speedup(a, b, _direction(t, metric, a.unit))
        # Forks paired by trial (the trial protocol) give the fork-level interval: one fork's
        # iterations say nothing about the next fork's JIT outcome.
        forked = paired_figure(g.result(claim["variant"]), g.result(claim["baseline"]), t, metric, kind) \
            if metric == base_metric else None
        if forked is not None and forked[1].n >= 2:
            fig = forked[0]
        if "min_speedup" in claim:
            bar, need, pess, desc = claim["min_speedup"], ">=", fig.lo, "speed-up"
        elif "max_ratio" in claim:
            bar, need, pess, desc = claim["max_ratio"], "<=", fig.hi, "ratio"
        elif "min_ratio" in claim:
            bar, need, pess, desc = claim["min_ratio"], ">=", fig.lo, "ratio"
        else:
            bar, need, pess, desc = claim["within_pct"], "within", fig.lo, "ratio"
        v = fig.value
        if need == "within":
            x = 1 + bar / 100
            note = f"no difference within +/-{bar:g}%: the whole interval inside [{1 / x:.3g}, {x:.3g}]"
            point_clears = not math.isnan(v) and 1 / x <= v <= x
            if not fig.known:
                outcome, note = "inconclusive", note + "; interval unknown (need >= 2 measurement iterations)"
            else:
                outcome = "pass" if stats.equivalent(fig, bar) else "fail"
        else:
            note = f"{desc} {need} {bar:g}x at the pessimistic end"
            point_clears = not math.isnan(v) and (v >= bar if need == ">=" else v <= bar)
            if claim.get("point_score") and not math.isnan(v):
                pess, note = v, note.replace("at the pessimistic end", "on the point score") + f" ({claim['point_score']})"
            elif math.isnan(pess) and det and not math.isnan(v):
                pess, note = v, note + " (deterministic metric: point score)"
            if math.isnan(pess):
                outcome, note = "inconclusive", note + "; interval unknown (need >= 2 measurement iterations)"
            else:
                outcome = "pass" if (pess >= bar if need == ">=" else pess <= bar) else "fail"
        label = name if claim.get("method") else f"{name} ({g.name})"
        out.append(Verdict(check, label, outcome, note, claim["id"], t.id, dict(g.params), fig, bar, need,
                           t.named(base_metric, b), t.named(metric, a), enforced, point_clears, {"why": claim.get("why", "")}))
    return out


def judge_claims(results, suite: Suite, ids=None, allow_missing=False, targets=False) -> list:
    """Every CI claim (and, with targets=True, every target) on these results; `ids` restricts
    the claims to those ids (an unknown id is bad input)."""
    known = {c["id"] for t, c, e in suite.all_claims() if e or targets}
    if ids is not None:
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise InputError(f"no claim with id {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    out = []
    for t, c, enforced in suite.all_claims():
        if (not enforced and not targets) or (ids is not None and c["id"] not in ids):
            continue
        out += judge_claim(results, c, t, suite, enforced, allow_missing)
    return out


# ---------------------------------------------------------------- tolerances between environments

def _applies(tol: dict, method: str, variant: str | None, params: dict) -> bool:
    """Whether a tolerance (ratio or allocation) covers this method, variant and param set: each
    of its method, variant and params that it names must match."""
    return ((not tol.get("method") or tol["method"] == method)
            and (not tol.get("variant") or tol["variant"] == variant)
            and (not tol.get("params") or param_matches(params, resolve_params(tol["params"], [params]))))


def ratio_tolerance(suite: Suite, t: Technique | None, group: Group, label: str) -> tuple[float, str]:
    """(tolerance in %, where it came from) for a pair: the first of the technique's
    ratio_tolerances that matches it, else the suite default."""
    for tol in (t.tolerances if t else []):
        if _applies(tol, group.name, label, group.params):
            return float(tol["pct"]), tol["why"]
    return float(suite.regression.get("ratio_tolerance_pct", 15)), "suite default"


# ---------------------------------------------------------------- published claims

def published_figure(results, p: dict, t: Technique) -> tuple[Figure, int, int] | None:
    m = p["measure"]
    metric = m.get("metric", "primary")
    after = select(results, {"benchmark": t.benchmark, **m["after"]}, metric)
    before = select(results, {"benchmark": t.benchmark, **m["before"]}, metric)
    if not after or not before:
        return None
    a = stats.geomean_metric([t.measured(r, metric) for r in after])
    b = stats.geomean_metric([t.measured(r, metric) for r in before])
    fig = stats.speedup(a, b, _direction(t, metric, a.unit)) if m["kind"] == "speedup" else stats.ratio(a, b)
    return fig, len(after), len(before)


def judge_published(runs: list, suite: Suite, only: Technique | None = None) -> list:
    """Each write-up claim against our figure, pooled over `runs` (lists of results, one per run;
    run envelope): agrees when the point lies in the published figure widened by its tolerance (the
    band) and the whole interval within the band widened once more; does not agree when the interval
    lies wholly outside the band; inconclusive otherwise."""
    out = []
    for t in suite.techniques:
        if only is not None and t is not only:
            continue
        for p in t.published:
            if "not_comparable" in p:
                out.append(Verdict("published", p["claim"], "not_comparable", p["not_comparable"], p["id"], t.id,
                                   bar=float(p["published"]), extra={"runs": 0}))
                continue
            per_run = [f for f in (published_figure(rs, p, t) for rs in runs) if f is not None]
            pub, tol = float(p["published"]), float(p.get("tolerance", 1.5))
            band = (pub / tol, pub * tol)
            v = Verdict("published", p["claim"], "not_run", "The benchmarks for this claim are not in these results.",
                        p["id"], t.id, bar=pub, extra={"band": band, "runs": len(per_run)})
            if per_run:
                fig = stats.envelope([f for f, _, _ in per_run])
                _, na, nb = per_run[0]
                share = p.get("cpu_share")
                measured = fig
                if share:
                    measured = Figure(*(stats.amdahl(x, share) for x in fig))
                lo, hi, val = measured.lo, measured.hi, measured.value
                if not measured.known or math.isnan(val):
                    outcome = "inconclusive"
                elif hi < band[0]:
                    outcome = "lower"
                elif lo > band[1]:
                    outcome = "higher"
                elif not band[0] <= val <= band[1] or lo < band[0] / tol or hi > band[1] * tol:
                    outcome = "too_wide"
                else:
                    outcome = "agrees"
                why = (p.get("why") or {}).get(outcome, "")
                if outcome == "too_wide":
                    why = ("The interval overlaps the published band but is too wide to confirm it; "
                           "rerun with more forks or iterations on a quiet machine.")
                    side = "lower" if val < band[0] else "higher" if val > band[1] else None
                    if side and (p.get("why") or {}).get(side):
                        why += f" The point lies {side} than the band: {p['why'][side]}"
                v = Verdict("published", p["claim"], outcome, why, p["id"], t.id, figure=fig, bar=pub,
                            extra={"band": band, "runs": len(per_run), "n": (na, nb), "share": share, "end_to_end": measured})
            out.append(v)
    return out


# ---------------------------------------------------------------- pooled evidence

@dataclass
class Pool:
    """Full runs of one technique's code in one environment."""
    technique: Technique
    code: str | None
    env: object  # model.Environment without host/cpu
    runs: list  # [(Run, [Result of this technique])]

    @property
    def machines(self) -> list:
        return sorted({run.host or f"unknown:{run.name}" for run, _ in self.runs})


def _env_key(r: Result):
    from .model import Environment
    return Environment(r.env.jdk, r.env.vm, r.env.vm_version, r.env.jvm_args)


def pools(runs: list, suite: Suite, require_full=True) -> list:
    """Group the runs' results per (technique, benchmark code, environment). Results of a run that
    is not a full run are left out when require_full (the report pools results/; files a user names
    are taken as given)."""
    out: dict = {}
    for run in runs:
        ok, _ = evidence.full_run(run)
        if require_full and not ok:
            continue
        for t in suite.techniques:
            rs = [r for r in run.results if r.cls == t.benchmark]
            if not rs:
                continue
            code = evidence.run_code(t, run) if require_full else (evidence.run_code(t, run) or f"given:{run.name}")
            if code is None:
                code = f"unknown:{run.name}"
            by_env: dict = {}
            for r in rs:
                by_env.setdefault(_env_key(r), []).append(r)
            for env, rr in by_env.items():
                key = (t.id, code, env)
                out.setdefault(key, Pool(t, code, env, []))
                out[key].runs.append((run, rr))
    return list(out.values())


def cited_figure(results, t: Technique, c: dict, suite: Suite) -> tuple[Figure, Result, Result] | None:
    """A cited figure in one run: from forks paired by trial when the run is of the trial protocol
    (forks.py), else JMH's iteration-level intervals combined conservatively (stats.py)."""
    groups = find_group(group_results(results, suite), t.benchmark, c["method"], c.get("params") or {})
    metric = c.get("metric", "primary")
    for g in groups[:1]:
        a, b = g.result(c["variant"]), g.result(c["baseline"])
        if a is None or b is None or a.metric(metric) is None or b.metric(metric) is None:
            return None
        p = paired_figure(a, b, t, metric, c.get("kind", "speedup"))
        if p is not None:
            return p[0], a, b
        am, bm = t.measured(a, metric), t.measured(b, metric)
        if c.get("kind") == "ratio":
            return stats.ratio(am, bm), a, b
        return stats.speedup(am, bm, _direction(t, metric, am.unit)), a, b
    return None


def paired_logs(a: Result, b: Result, t: Technique | None, metric: str, kind: str) -> list | None:
    """Per-trial log ratios of a against b on `metric`, oriented as the figure reads ('ratio': a/b;
    a speed-up: a/b for a throughput, b/a for a time or a cost); None when the two cannot be paired."""
    if not (a.paired and b.paired):
        return None
    fa, fb = a.forks_of(metric), b.forks_of(metric)
    if len(fa) != len(a.trials) or len(fb) != len(b.trials):
        return None
    logs = forks.paired_logs(fa, a.trials, fb, b.trials)
    unit = (a.metric(metric) or a.primary).unit
    if kind != "ratio" and not _direction(t, metric, unit):
        logs = [-x for x in logs]
    return logs


def paired_figure(a: Result, b: Result, t: Technique | None, metric: str, kind: str):
    """(Figure, forks.Paired) from forks paired by trial, or None. A metric measured once per fork
    with a declared resolution (heap figures) keeps at least the interval its resolution gives, so
    forks that agree exactly do not pose as an exact figure."""
    logs = paired_logs(a, b, t, metric, kind)
    if logs is None:
        return None
    p = forks.interval_of_logs(logs)
    fig = Figure(p.value, p.lo, p.hi)
    if t is not None and (t.metric_info(metric) or {}).get("resolution"):
        am, bm = t.measured(a, metric), t.measured(b, metric)
        res = stats.ratio(am, bm) if kind == "ratio" else stats.speedup(am, bm, _direction(t, metric, am.unit))
        if res.known and fig.known:
            fig = Figure(p.value, min(fig.lo, res.lo), max(fig.hi, res.hi))
        elif res.known:
            fig = Figure(p.value, res.lo, res.hi)
    return fig, p


def disturbed_forks(r: Result) -> tuple:
    """(disturbed, all) forks of a result, by the noise profiler's shares (forks.DISTURBED_PCT)."""
    flags = forks.disturbed({m: r.forks_of(m) for m in forks.NOISE_METRICS})
    return sum(flags), len(r.forks_of("primary"))


def coverage(runs: list) -> str:
    """What a pooled interval covers, in words: how many runs, on how many machines."""
    n = len(runs)
    labels = {r.host or f"unknown:{r.name}" for r in runs}
    inferred = any(not r.host or r.host.startswith("cpu:") for r in runs)
    if n == 1:
        return "single run: the interval covers the error within that run only, not the spread between machines"
    if len(labels) == 1 and inferred:
        return (f"{n} runs that recorded no host id, all on the same CPU model: the interval covers their spread, "
                "perhaps not the spread between machines")
    if len(labels) == 1:
        return f"{n} runs on one machine: the interval covers their spread, not the spread between machines"
    m = f"at least {len(labels)}" if inferred else str(len(labels))
    how = " (told apart by CPU model where a run recorded no host id)" if inferred else ""
    return f"{n} runs on {m} machines{how}: the envelope of their intervals"


def judge_cited(pool: Pool, suite: Suite) -> list:
    """Each figure the technique cites, per run and pooled over the pool's runs. Runs of the trial
    protocol, when the pool has any, are the only ones cited: per machine, the paired trials of all its
    runs give one figure with its fork-level interval; across machines, the machines' figures side by
    side (machines.py). Older runs are pooled as before (the run envelope)."""
    out = []
    t = pool.technique
    trial_runs = [(run, rs) for run, rs in pool.runs if run.protocol == "trials"]
    for c in t.cited:
        if trial_runs:
            v = _cited_from_trials(trial_runs, pool, t, c, suite)
            if v is not None:
                out.append(v)
            continue
        per_run = []
        for run, rs in pool.runs:
            got = cited_figure(rs, t, c, suite)
            if got is not None:
                per_run.append((run, got[0], got[1], got[2]))
        if not per_run:
            continue
        pooled = stats.envelope([f for _, f, _, _ in per_run])
        machines = sorted({run.host or f"unknown:{run.name}" for run, *_ in per_run})
        out_note = coverage([run for run, *_ in per_run])
        out.append(Verdict("cited", c["label"], "cited", out_note, c["id"], t.id, dict(c.get("params") or {}), pooled,
                           extra={"runs": [(run.name, f, a, b) for run, f, a, b in per_run], "machines": machines,
                                  "metric": c.get("metric", "primary"), "method": c["method"], "variant": c["variant"],
                                  "baseline": c["baseline"], "env": pool.env, "code": pool.code,
                                  "kind": c.get("kind", "speedup")}))
    return out


def run_agreement(per_run: list):
    """Whether two trials runs of the same code on the same machine agree within their intervals:
    the change between their figures, exp(y2 - y1), with a 95% interval from both runs' standard
    errors (each recovered from its t interval; Welch-Satterthwaite degrees of freedom). None unless
    the two newest runs on one machine both have an interval. Holding 1 is what 'the interval means
    what it says' predicts for about 95% of pairs."""
    by_machine: dict = {}
    for run, got in per_run:
        if got is not None and got[1].n >= 2 and got[1].lo > 0:
            by_machine.setdefault(run.host or run.name, []).append((run, got[1]))
    pairs = [v for v in by_machine.values() if len(v) >= 2]
    if not pairs:
        return None
    (r1, p1), (r2, p2) = sorted(pairs[0], key=lambda x: x[0].name)[-2:]
    def se(p):
        return (math.log(p.hi) - math.log(p.lo)) / 2 / forks.t_quantile(0.975, p.n - 1)
    s1, s2 = se(p1), se(p2)
    d = math.log(p2.value) - math.log(p1.value)
    s = math.sqrt(s1 * s1 + s2 * s2)
    den = (s1 ** 4 / (p1.n - 1) + s2 ** 4 / (p2.n - 1))
    df = (s ** 4) / den if den > 0 else p1.n + p2.n - 2
    half = forks.t_quantile(0.975, max(df, 1.0)) * s
    return {"runs": (r1.name, r2.name), "change": math.exp(d), "lo": math.exp(d - half), "hi": math.exp(d + half),
            "holds_1": math.exp(d - half) <= 1 <= math.exp(d + half)}


# How the newest run's sampling of a figure's group ended (the provenance's groups[].ended).
ENDED = {"precision": "sampling ended on its precision", "budget": "sampling ended on the budget",
         "fixed": "a fixed number of trials (-Djmh.trials)", "cap": "sampling ended at the 50-trial cap",
         "minimum": "its group's minimum trials"}


def _cited_from_trials(trial_runs, pool: Pool, t: Technique, c: dict, suite: Suite):
    metric, kind = c.get("metric", "primary"), c.get("kind", "speedup")
    per_run, logs_by_machine, cpu_by_machine, disturbed, forks_total = [], {}, {}, 0, 0
    precision = []
    for run, rs in trial_runs:
        got = cited_figure(rs, t, c, suite)
        if got is None:
            continue
        fig, a, b = got
        per_run.append((run, fig, a, b))
        logs = paired_logs(a, b, t, metric, kind) or []
        machine = run.host or f"unknown:{run.name}"
        logs_by_machine.setdefault(machine, []).extend(logs)
        cpu_by_machine[machine] = run.cpu
        for r in (a, b):
            d, n = disturbed_forks(r)
            disturbed += d
            forks_total += n
        for g in ((run.provenance or {}).get("trials") or {}).get("groups") or []:
            pr = (g.get("precision") or {}).get(c["id"])
            if pr is not None:
                precision.append((run.name, g.get("ended", ""), g.get("trials")))
    if not per_run:
        return None
    mfigs = []
    for machine, logs in logs_by_machine.items():
        p = forks.interval_of_logs(logs)
        mfigs.append(machines_mod.MachineFigure(machine, p.value, p.lo, p.hi, p.n, cpu_by_machine.get(machine, "")))
    resolution = bool((t.metric_info(metric) or {}).get("resolution"))
    if len(mfigs) == 1 and not resolution:
        m = mfigs[0]
        fig = Figure(m.ratio, m.lo, m.hi)
    elif len(mfigs) == 1:
        fig = per_run[-1][1] if len(per_run) == 1 else stats.envelope([f for _, f, _, _ in per_run])
    else:
        fig = stats.envelope([Figure(m.ratio, m.lo, m.hi) for m in mfigs])
    across = machines_mod.across(mfigs)
    n = sum(m.n for m in mfigs)
    ended = ENDED.get(precision[-1][1], precision[-1][1]) if precision else ""
    reached = f"+/-{(math.sqrt(fig.hi / fig.lo) - 1) * 100:.0f}%" if fig.known and fig.lo > 0 else "no interval"
    note = (f"{n} paired trials on {across.describe() if across else '?'}; 95% t interval over the trials"
            f"{' (at least the heap measurement resolution)' if resolution else ''}, {reached}; covers "
            f"{'that machine' if len(mfigs) == 1 else 'each machine'} only"
            + (f"; {ended}" if ended else "")
            + f"; {disturbed} of {forks_total} forks disturbed (kept)")
    agree = run_agreement([(run, paired_figure(a, b, t, metric, kind)) for run, _, a, b in per_run])
    return Verdict("cited", c["label"], "cited", note, c["id"], t.id, dict(c.get("params") or {}), fig,
                   extra={"runs": [(run.name, f, a, b) for run, f, a, b in per_run], "agreement": agree,
                          "machines": sorted(logs_by_machine), "machine_figures": mfigs, "across": across,
                          "trials": n, "disturbed": disturbed, "forks": forks_total, "protocol": "trials",
                          "metric": metric, "method": c["method"], "variant": c["variant"],
                          "baseline": c["baseline"], "env": pool.env, "code": pool.code, "kind": kind,
                          "precision": fig.hi / fig.lo if fig.known and fig.lo > 0 else math.nan,
                          "ended": ended})


def compare_environments(base: list, other: list, tolerance_for) -> list:
    """Cited verdicts of one environment against another's: the ratio of the two gains with its
    interval, and whether the gain grew, shrank, held (no change beyond the pair's tolerance) or is
    unsettled (the interval is too wide to say)."""
    out = []
    bmap = {v.id: v for v in base}
    for v in other:
        b = bmap.get(v.id)
        if b is None:
            continue
        moved = stats.change(b.figure, v.figure)
        tol = tolerance_for(v)
        if not moved.known:
            outcome = "unsettled"
        elif moved.lo > 1:
            outcome = "grew"
        elif moved.hi < 1:
            outcome = "shrank"
        elif stats.equivalent(moved, tol):
            outcome = "held"
        else:
            outcome = "unsettled"
        out.append(Verdict("jdk", v.subject, outcome, f"tolerance +/-{tol:g}%", v.id, v.technique, v.params, moved,
                           extra={"before": b, "after": v, "kind": v.extra.get("kind", "speedup")}))
    return out


def reproduce(cited: list, runs: list, suite: Suite) -> list:
    """For every cited figure (as report.py wrote them to results/cited.json) that the given runs
    measured in the same environment (JDK feature release, VM and JVM options), the user's figure
    and whether it reproduces:

    - with a prediction for a new machine (three or more machines behind the figure): the user's
      figure lies inside the 95% prediction interval;
    - otherwise: the user's interval meets the range of the machines' figures widened by their own
      intervals (the lowest low end to the highest high end), i.e. the two could be the same machine
      kind's spread plus noise;
    and how much of the difference is the user's machine rather than noise: when the user's own
    interval excludes every cited machine's figure, their machine measures differently beyond its
    run's noise.
    The user's figure comes from their run's forks paired by trial (a trials run), else from their
    run's iteration-level intervals (an older run; said in the note)."""
    out = []
    for c in cited:
        t = suite.by_id(c["technique"])
        if t is None:
            continue
        spec = next((x for x in t.cited if x["id"] == c["id"]), None)
        if spec is None:
            continue
        figs, names, paired_runs = [], [], 0
        for run in runs:
            rs = [r for r in run.results if r.cls == t.benchmark and _env_matches(r, c["env"])]
            got = cited_figure(rs, t, spec, suite) if rs else None
            if got is not None:
                figs.append(got[0])
                names.append(run.name)
                paired_runs += got[1].paired and got[2].paired
        if not figs:
            continue
        new = figs[0] if len(figs) == 1 else stats.envelope(figs)
        cited_fig = Figure(c["value"], c["lo"], c["hi"])
        mfigs = [Figure(m["value"], m["lo"] if m["lo"] is not None else math.nan,
                        m["hi"] if m["hi"] is not None else math.nan) for m in c.get("machine_figures") or []]
        pred = c.get("prediction")
        how = "" if paired_runs == len(figs) else "; yours is from iteration-level intervals (not a trials run)"
        if math.isnan(new.value):
            outcome, note = "inconclusive", "no ratio in your run"
        elif pred:
            band = Figure(math.nan, pred[0], pred[1])
            outcome = "reproduces" if band.contains(new.value) else "differs"
            note = ("inside" if outcome == "reproduces" else "outside") + \
                f" the 95% prediction for a new machine [{pred[0]:.3g}, {pred[1]:.3g}]"
        elif mfigs or cited_fig.known:
            known = [m for m in (mfigs or [cited_fig]) if m.known]
            if not known:
                outcome, note = "inconclusive", "the cited figure has no interval"
            else:
                lo, hi = min(m.lo for m in known), max(m.hi for m in known)
                n = len(mfigs) or 1
                meets = (new.hi >= lo and new.lo <= hi) if new.known else lo <= new.value <= hi
                outcome = "reproduces" if meets else "differs"
                whose = f"{n} machine figures'" if n > 1 else "1 machine figure's"
                note = (f"{'meets' if meets else 'misses'} the {whose} range "
                        f"widened by their intervals [{lo:.3g}, {hi:.3g}]")
        else:
            outcome, note = "inconclusive", "the cited figure has no interval"
        if outcome != "inconclusive" and new.known:
            centers = [m.value for m in (mfigs or [cited_fig])]
            if all(not new.contains(x) for x in centers):
                note += f"; your machine differs beyond your run's noise ({new.value / centers[0]:.2f}x the cited)"
            else:
                note += "; the difference is within your run's noise"
        note += how
        out.append(Verdict("reproduce", c["label"], outcome, note, c["id"], t.id, c.get("params") or {}, new,
                           extra={"cited": cited_fig, "env": c["env"], "runs": names}))
    return out


def _env_matches(r: Result, env: dict) -> bool:
    return r.env.jdk_major == env.get("jdk_major") and r.env.vm == env.get("vm") and list(r.env.jvm_args) == list(env.get("jvm_args", []))


# ---------------------------------------------------------------- everything the report shows

@dataclass
class TechniqueEvidence:
    technique: Technique
    pools: list  # the pools of the code shown, reference environment first
    stale: bool  # no full run of the current code: the newest code's runs are shown instead
    cited: dict  # id(pool) -> [Verdict]
    comparisons: list  # [(Pool, [Verdict jdk])] for every other environment against the reference
    published: list
    claims: list  # claims and targets on the newest reference run
    newest: tuple | None  # (Run, [Result]) newest run of the reference pool

    @property
    def reference(self):
        return self.pools[0] if self.pools else None


def env_order(env, reference_jdk: str = "17"):
    """The reference environment first (the reference JDK with the fewest extra JVM options), then
    by JDK feature release and options."""
    major = int(env.jdk_major) if env.jdk_major.isdigit() else 999
    return (env.jdk_major != reference_jdk, major, len(env.jvm_args), env.jvm_args)


def _newest_run(pool):
    return max(pool.runs, key=lambda rr: rr[0].name)


def assemble(runs: list, suite: Suite, require_full=True) -> list:
    """Judge once: for every technique, the pooled figures of its current code per environment,
    the comparisons between environments, the published comparisons and the claims."""
    all_pools = pools(runs, suite, require_full)
    out = []
    for t in suite.techniques:
        mine = [p for p in all_pools if p.technique is t]
        if not mine:
            continue
        current = evidence.fingerprint(t, None) if require_full else None
        shown = [p for p in mine if p.code == current] if current else []
        stale = require_full and not shown
        if not shown:
            newest_pool = max(mine, key=lambda p: _newest_run(p)[0].name)
            shown = [p for p in mine if p.code == newest_pool.code]
        shown.sort(key=lambda p: env_order(p.env))
        cited = {id(p): judge_cited(p, suite) for p in shown}
        ref = shown[0]

        def tol(v, t=t):
            spec = next((c for c in t.cited if c["id"] == v.id), {})
            g = Group(t.benchmark, spec.get("method", ""), "", 1, dict(spec.get("params") or {}), "variant")
            return ratio_tolerance(suite, t, g, spec.get("variant", ""))[0]
        comparisons = [(p, compare_environments(cited[id(ref)], cited[id(p)], tol)) for p in shown[1:]]
        published = judge_published([rs for _, rs in ref.runs], suite, t)
        newest = _newest_run(ref)
        claims = judge_claim_set(newest[1], suite, t)
        out.append(TechniqueEvidence(t, shown, stale, cited, comparisons, published, claims, newest))
    return out


def judge_claim_set(results, suite: Suite, t: Technique) -> list:
    """A technique's CI claims and targets on one run's results, as the report shows them."""
    out = []
    for c in t.claims:
        out += judge_claim(results, c, t, suite, True, allow_missing=True)
    for c in t.targets:
        out += judge_claim(results, c, t, suite, False, allow_missing=True)
    return out
