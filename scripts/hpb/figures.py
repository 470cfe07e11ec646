"""The figures the suite cites, judged once (assemble): each cited figure per machine and boot, from trials runs
only, the reference machine's (most trials) to cite beside every other's; the write-ups' figures against ours; one
environment against another; a user's run against the cited figures. Decided, equivalent, undecided and a
footprint near zero: docs/protocol.md (Machines and boots).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from . import forks, stats
from .evidence import Pool, fingerprint, pools
from .machines import across, cpu_label, machine_figure, rests_on
from .select import Group, find_group, group_results, param_matches, resolve_params, select
from .stats import Figure
from .verdicts import Verdict, _direction, judge_claim, measured_figure, paired_logs, ratio_tolerance, resolution_figure

EQUIVALENT_PCT = 5.0
PRECISION_PCT = 10.0  # what a headline figure should reach on the reference machine
NEAR_ZERO = 0.05  # a footprint ratio below it is judged in bytes: 0.002x [0, 0.005] is all resolution, no ratio
REFERENCE_JDK = "17"  # the JDK every figure is cited on first and pull requests are gated on
# words for how the newest run's sampling of a figure's group ended (the provenance's groups[].ended)
ENDED = {"precision": "sampling ended on its precision", "budget": "sampling ended on the budget",
         "fixed": "a fixed number of trials (-Djmh.trials)", "cap": "sampling ended at the 50-trial cap",
         "minimum": "its group's minimum trials"}


def pair_of(results, t, c: dict, suite):
    """(variant's Result, baseline's Result) of cited figure c in one run's results, or None."""
    for g in find_group(group_results(results, suite), t.benchmark, c["method"], c.get("params") or {})[:1]:
        a, b = g.result(c["variant"]), g.result(c["baseline"])
        metric = c.get("metric", "primary")
        if a is not None and b is not None and a.metric(metric) is not None and b.metric(metric) is not None:
            return a, b
    return None


def machine_figures(trial_runs: list, t, c: dict, suite) -> tuple:
    """([MachineFigure], {machine: (newest run, a, b)}, (disturbed forks, forks), run names) for c."""
    metric, kind = c.get("metric", "primary"), c.get("kind", "speedup")
    logs, newest = {}, {}
    disturbed = total = 0
    for run, rs in sorted(trial_runs, key=lambda x: x[0].name):
        got = pair_of(rs, t, c, suite)
        if got is None or paired_logs(*got, t, metric, kind) is None:
            continue
        logs.setdefault(run.machine, {}).setdefault(run.boot, []).extend(paired_logs(*got, t, metric, kind))
        newest[run.machine] = (run, *got)
        for r in got:
            flags = forks.disturbed({m: r.forks_of(m) for m in forks.NOISE_METRICS})
            disturbed, total = disturbed + sum(flags), total + len(r.forks_of("primary"))
    figs = [machine_figure(m, cpu_label(newest[m][0].cpu), boots, resolution_figure(*newest[m][1:], t, metric, kind))
            for m, boots in logs.items()]
    return figs, newest, (disturbed, total), sorted(run.name for run, rs in trial_runs if pair_of(rs, t, c, suite))


def bar_of(t, c: dict, results) -> tuple:
    """(bar, within %) of the technique's CI claim, else target, on c's pair, configurations and metric."""
    metric, params = c.get("metric", "primary"), c.get("params") or {}
    pool = [r.params for r in results if r.cls == t.benchmark]
    for claim in t.claims + t.targets:
        if (claim.get("method"), claim["variant"], claim["baseline"], claim.get("metric", "primary")) != \
                (c["method"], c["variant"], c["baseline"], metric) or claim.get("baseline_metric", metric) != metric:
            continue
        if not param_matches({k: str(v) for k, v in params.items()},
                             {k: v for k, v in resolve_params(claim.get("params"), pool).items() if k in params}):
            continue
        if "within_pct" in claim:
            return None, float(claim["within_pct"])
        return float(claim.get("min_speedup", claim.get("max_ratio", claim.get("min_ratio")))), None
    return None, None


def settle(fig: Figure, spread: float, bar, within) -> tuple:
    """(status, trials it would need or None, sides of 1.0x and the bar) of one machine's figure."""
    lines = [1.0] + ([bar] if bar and bar != 1.0 else [])
    pct = within or EQUIVALENT_PCT
    if stats.equivalent(fig, pct):
        return "equivalent", None, ()
    if not (fig.value > 0):
        return "undecided", None, ()
    sides = tuple(fig.value > x for x in lines)
    if fig.known and all((fig.lo > x) if up else (fig.hi < x) for x, up in zip(lines, sides)):
        return "decided", None, sides
    m, band = math.log(fig.value), math.log(1 + pct / 100)
    # the fewest trials that would clear the nearest line or, inside the band, show it equivalent (None: distance <= 0)
    need = [stats.trials_needed(spread, d) for d in (min(abs(m - math.log(x)) for x in lines), band - abs(m))]
    return "undecided", min((n for n in need if n is not None), default=None), sides


def status_of(mfigs: list, bar, within) -> tuple:
    """(status, trials needed or None, words) of a figure over its machines."""
    each = [settle(m.figure, m.spread, bar, within) for m in mfigs]
    kinds = {s for s, _, _ in each}
    if kinds == {"equivalent"}:
        return "equivalent", None, f"within +/-{within or EQUIVALENT_PCT:g}% of 1.0x"
    if kinds == {"decided"} and len({sides for _, _, sides in each}) == 1:
        return "decided", None, "clear of 1.0x" + (f" and of the bar {bar:g}x" if bar and bar != 1.0 else "")
    if kinds == {"decided"}:
        return "undecided", None, "the machines disagree: each decided, on different sides"
    need = [n for s, n, _ in each if s == "undecided"]
    more = max(need) if need and None not in need else None
    lines = "1.0x" + (f" and the bar {bar:g}x" if bar and bar != 1.0 else "")
    return "undecided", more, (f"about {more} trials a machine would clear {lines}" if more
                               else f"more than 1,000 trials a machine to clear {lines}")


def precision(v) -> tuple:
    """(reached?, words): +/-X% of the reference machine's figure, or of the baseline's bytes near zero."""
    f = v.figure
    if not (f.known and f.lo >= 0):
        return False, "no interval"
    if v.extra.get("bytes"):
        half = (f.hi - f.lo) / 2
        return half * 100 <= PRECISION_PCT, f"+/-{half * 100:.2g}% of the baseline's bytes"
    if f.lo <= 0:
        return False, "no lower bound"
    pct = (math.sqrt(f.hi / f.lo) - 1) * 100
    return pct <= PRECISION_PCT, f"+/-{pct:.1f}%"


def cited(pool: Pool, suite, reference: str) -> list:
    t = pool.technique
    trial_runs = [(run, rs) for run, rs in pool.runs if run.protocol == "trials"]
    out = []
    for c in t.cited:
        mfigs, newest, (disturbed, total), names = machine_figures(trial_runs, t, c, suite)
        if not mfigs:
            continue
        mfigs.sort(key=lambda m: (m.machine != reference, -m.trials, m.machine))
        ref = mfigs[0]
        metric, kind = c.get("metric", "primary"), c.get("kind", "speedup")
        bar, within = bar_of(t, c, [r for _, rs in trial_runs for r in rs])
        status, need, why = status_of(mfigs, bar, within)
        run, a, b = newest[ref.machine]
        info = t.metric_info(metric) or {}
        near_zero = info.get("unit") == "bytes" and kind == "ratio" and ref.figure.value < NEAR_ZERO
        ended = [g.get("ended", "") for g in ((run.provenance or {}).get("trials") or {}).get("groups") or []
                 if c["id"] in (g.get("precision") or {})]
        v = Verdict("cited", c["label"], status, why, c["id"], t.id, dict(c.get("params") or {}), ref.figure, bar,
                    extra={"machine_figures": mfigs, "across": across(mfigs), "reference": ref.machine,
                           "rests_on": rests_on(mfigs), "trials": sum(m.trials for m in mfigs), "need": need,
                           "disturbed": disturbed, "forks": total, "metric": metric, "kind": kind,
                           "ended": ENDED.get(ended[-1], ended[-1]) if ended else "", "within": within,
                           "method": c["method"], "variant": c["variant"], "baseline": c["baseline"],
                           "env": pool.env, "code": pool.code, "resolution": bool(info.get("resolution")),
                           "bytes": t.measured(b, metric).score if near_zero else None, "runs": names})
        v.extra["precision"] = precision(v)
        out.append(v)
    return out


def run_agreement(pool: Pool, c: dict, suite) -> dict | None:
    """The change (second / first, 95% interval) of figure c between the two newest trials runs of one boot,
    or None: if the intervals mean what they say, about 95% of such changes hold 1."""
    t = pool.technique
    by_boot: dict = {}
    for run, rs in sorted(pool.runs, key=lambda x: x[0].name):
        got = pair_of(rs, t, c, suite) if run.protocol == "trials" else None
        logs = paired_logs(*got, t, c.get("metric", "primary"), c.get("kind", "speedup")) if got else None
        if logs and len(logs) >= 2:
            by_boot.setdefault(run.boot, []).append((run.name, stats.of_logs(logs)))
    pairs = [v[-2:] for v in by_boot.values() if len(v) >= 2]
    if not pairs:
        return None
    (n1, e1), (n2, e2) = pairs[0]
    f = stats.difference(e2, e1).figure()
    return {"runs": (n1, n2), "change": f.value, "lo": f.lo, "hi": f.hi, "holds_1": f.lo <= 1 <= f.hi}


def _published_estimate(runs: list, p: dict, t) -> stats.Estimate | None:
    """Our estimate of a write-up's figure from one boot's runs: the mean log ratio over the configurations,
    paired by trial where each baseline ran in the same trials, else unpaired (Welch); None without forks."""
    m = p["measure"]
    metric = m.get("metric", "primary")
    key = lambda r: ("" if t.method_pair(r.method) else r.benchmark, r.mode,  # noqa: E731
                     tuple(sorted((k, v) for k, v in r.params.items() if k != t.variant_param)))
    comps, sides, paired, unit = {}, ({}, {}), True, None
    for results in runs:
        after = select(results, {"benchmark": t.benchmark, **m["after"]}, metric)
        before = select(results, {"benchmark": t.benchmark, **m["before"]}, metric)
        if not after or not before or not all(r.paired for r in after + before):
            continue
        unit = after[0].metric(metric).unit
        partner = {key(r): r for r in before}
        paired = paired and len(partner) == len(before) == len(after) == len({key(a) for a in after} & set(partner))
        for side, rs in zip(sides, (after, before)):
            for r in rs:
                side.setdefault(key(r), []).extend(math.log(v) for v in r.forks_of(metric) if v > 0)
        for a in after if paired else []:
            b = partner[key(a)]
            comps.setdefault(key(a), []).extend(forks.paired_logs(a.forks_of(metric), a.trials, b.forks_of(metric), b.trials))
    if unit is None:
        return None
    if paired:
        est = stats.average([stats.of_logs(logs) for logs in comps.values()])
    else:
        est = stats.difference(*(stats.average([stats.of_logs(v) for v in side.values()]) for side in sides))
    sign = 1 if m["kind"] == "ratio" or _direction(t, metric, unit) else -1
    return stats.Estimate(sign * est.mean, est.se, est.df, est.n)


def published(pool: Pool, t, reference: str) -> list:
    """Each write-up claim against our figure on the reference machine: agrees when the point lies in the band
    (published figure widened by its tolerance) and the interval in the band widened once more; lower or
    higher when the interval lies wholly outside the band; else too wide or inconclusive."""
    out = []
    mine = [(run, rs) for run, rs in pool.runs if run.protocol == "trials"]
    machines = [run.machine for run, _ in mine]
    machine = reference if reference in machines else max(sorted(set(machines)), key=machines.count, default=None)
    on = [x for x in mine if x[0].machine == machine]
    for p in t.published:
        if "not_comparable" in p:
            out.append(Verdict("published", p["claim"], "not_comparable", p["not_comparable"], p["id"], t.id,
                               bar=float(p["published"]), extra={"runs": 0}))
            continue
        boots: dict = {}
        for run, rs in on:
            boots.setdefault(run.boot, []).append(rs)
        ests = [e for e in (_published_estimate(rs, p, t) for rs in boots.values()) if e is not None]
        pub, tol = float(p["published"]), float(p.get("tolerance", 1.5))
        band = (pub / tol, pub * tol)
        if not ests:
            out.append(Verdict("published", p["claim"], "not_run", "The benchmarks for this claim are not in these results.",
                               p["id"], t.id, bar=pub, extra={"band": band, "runs": 0}))
            continue
        units = stats.of_logs([e.mean for e in ests])
        fig = (ests[0] if len(ests) == 1 else stats.Estimate(units.mean, units.se, units.df, sum(e.n for e in ests))).figure()
        share = p.get("cpu_share")
        measured = Figure(*(stats.amdahl(x, share) for x in fig)) if share else fig
        lo, hi, val = measured.lo, measured.hi, measured.value
        outcome = ("inconclusive" if not measured.known or math.isnan(val) else "lower" if hi < band[0]
                   else "higher" if lo > band[1] else "too_wide" if lo < band[0] / tol or hi > band[1] * tol
                   or not band[0] <= val <= band[1] else "agrees")
        why = (p.get("why") or {}).get(outcome, "")
        if outcome == "too_wide":
            why = "The interval overlaps the published band but is too wide to confirm it; more trials would settle it."
            side = "lower" if val < band[0] else "higher" if val > band[1] else None
            if side and (p.get("why") or {}).get(side):
                why += f" The point lies {side} than the band: {p['why'][side]}"
        out.append(Verdict("published", p["claim"], outcome, why, p["id"], t.id, figure=fig, bar=pub,
                           extra={"band": band, "runs": len(on), "share": share, "end_to_end": measured}))
    return out


def compare_environments(base: list, other: list, tolerance_for) -> list:
    """Cited verdicts of one environment against another's on the first machine that measured both: the ratio
    of the gains, and whether it grew, shrank, held (interval within the pair's tolerance of 1) or is unsettled."""
    out = []
    bmap = {v.id: v for v in base}
    for v in other:
        b = bmap.get(v.id)
        mine = {m.machine: m for m in v.extra["machine_figures"]}
        common = [m for m in b.extra["machine_figures"] if m.machine in mine] if b else []
        if not common:
            continue
        moved = stats.difference(mine[common[0].machine].estimate, common[0].estimate).figure()
        outcome = ("unsettled" if not moved.known else "grew" if moved.lo > 1 else "shrank" if moved.hi < 1
                   else "held" if stats.equivalent(moved, tolerance_for(v)) else "unsettled")
        out.append(Verdict("jdk", v.subject, outcome, f"on {common[0].label}; tolerance +/-{tolerance_for(v):g}%", v.id,
                           v.technique, v.params, moved, extra={"before": b, "after": v, "kind": v.extra["kind"],
                                  "on": (common[0].figure, mine[common[0].machine].figure), "machine": common[0].label}))
    return out


def reproduce(cited_records: list, runs: list, suite) -> list:
    """Each cited figure (cited.json) the runs measured in its environment (JDK feature release, VM, JVM options):
    the user's figure (forks paired by trial, else JMH's intervals of the newest run) and whether it reproduces
    (README: inside the prediction, else meeting the machines' range), and whether the machine differs beyond noise."""
    def num(x) -> float:
        return math.nan if x is None else math.inf if x == "inf" else x

    def env_matches(r, env: dict, t, results) -> bool:
        return (r.env.jdk_major == env.get("jdk_major") and r.env.vm == env.get("vm")
                and list(t.env_jvm_args(r, results)) == list(env.get("jvm_args", [])))
    out = []
    for c in cited_records:
        t = suite.by_id(c["technique"])
        spec = next((x for x in t.cited if x["id"] == c["id"]), None) if t else None
        if spec is None:
            continue
        mine = [(run, [r for r in run.results if r.cls == t.benchmark and env_matches(r, c["env"], t, run.results)]) for run in runs]
        mine = [(run, rs) for run, rs in mine if rs and pair_of(rs, t, spec, suite) is not None]
        if not mine:
            continue
        figs = machine_figures(mine, t, spec, suite)[0]
        if figs:
            new, how = figs[0].figure, ""
        else:
            metric, kind = spec.get("metric", "primary"), spec.get("kind", "speedup")
            new = measured_figure(*pair_of(mine[-1][1], t, spec, suite), t, metric, kind)
            how = "; yours is from iteration-level intervals (not a trials run)"
        machines = [Figure(m["value"], num(m["lo"]), num(m["hi"])) for m in c.get("machine_figures") or []] or \
            [Figure(c["value"], c["lo"], c["hi"])]
        pred = c.get("prediction")
        known = [m for m in machines if m.known]
        if math.isnan(new.value):
            outcome, note = "inconclusive", "no ratio in your run"
        elif pred:
            outcome = "reproduces" if Figure(math.nan, pred[0], pred[1]).contains(new.value) else "differs"
            note = ("inside" if outcome == "reproduces" else "outside") + f" the 95% prediction for a new machine [{pred[0]:.3g}, {pred[1]:.3g}]"
        elif not known:
            outcome, note = "inconclusive", "the cited figure has no interval"
        else:
            lo, hi = min(m.lo for m in known), max(m.hi for m in known)
            meets = (new.hi >= lo and new.lo <= hi) if new.known else lo <= new.value <= hi
            outcome = "reproduces" if meets else "differs"
            whose = f"{len(machines)} machine figures'" if len(machines) > 1 else "1 machine figure's"
            note = f"{'meets' if meets else 'misses'} the {whose} range widened by their intervals [{lo:.3g}, {hi:.3g}]"
        if outcome != "inconclusive" and new.known:
            if all(not new.contains(m.value) for m in machines):
                note += f"; your machine differs beyond your run's noise ({new.value / machines[0].value:.2f}x the cited)"
            else:
                note += "; the difference is within your run's noise"
        out.append(Verdict("reproduce", c["label"], outcome, note + how, c["id"], t.id, c.get("params") or {}, new,
                           extra={"cited": Figure(c["value"], c["lo"], c["hi"]), "env": c["env"], "runs": [r.name for r, _ in mine]}))
    return out


@dataclass
class TechniqueEvidence:
    technique: object
    pools: list  # the pools of the code shown, reference environment first
    stale: bool  # no full run of the current code: the newest code's runs are shown instead
    cited: dict  # id(pool) -> [Verdict]
    comparisons: list  # [(Pool, [Verdict jdk])] for every other environment against the reference
    published: list
    claims: list  # claims and targets on the newest reference run of the reference machine
    newest: tuple | None  # (Run, [Result]) that run
    agreement: list  # [(Verdict cited, run_agreement dict)]

    @property
    def reference(self):
        return self.pools[0] if self.pools else None


def env_order(env, reference_jdk: str = REFERENCE_JDK):
    """Sort key: the reference JDK with the fewest extra JVM options first, then by JDK and options."""
    major = int(env.jdk_major) if env.jdk_major.isdigit() else 999
    return (env.jdk_major != reference_jdk, major, len(env.jvm_args), env.jvm_args)


def reference_machine(shown: list) -> str:
    """The machine with the most trials-run forks in the reference environment's pools."""
    count: Counter = Counter()
    for run, rs in (x for p in shown for x in p.runs if x[0].protocol == "trials"):
        count[run.machine] += sum(len(r.forks_of("primary")) for r in rs)
    return max(sorted(count), key=count.get) if count else ""


def assemble(runs: list, suite, require_full=True) -> list:
    """Every technique's evidence: its current code's figures per environment, comparisons, published, claims."""
    all_pools = pools(runs, suite, require_full)
    chosen = []
    for t in suite.techniques:
        mine = [p for p in all_pools if p.technique is t]
        if not mine:
            continue
        current = fingerprint(t, None) if require_full else None
        shown = [p for p in mine if p.code == current] if current else []
        stale = require_full and not shown
        if not shown:
            newest = max(mine, key=lambda p: max(run.name for run, _ in p.runs))
            shown = [p for p in mine if p.code == newest.code]
        chosen.append((t, sorted(shown, key=lambda p: env_order(p.env)), stale))
    reference = reference_machine([shown[0] for _, shown, _ in chosen])
    out = []
    for t, shown, stale in chosen:
        ref = shown[0]
        cites = {id(p): cited(p, suite, reference) for p in shown}
        def tol(v, t=t):
            spec = next(c for c in t.cited if c["id"] == v.id)
            g = Group(t.benchmark, spec["method"], "", 1, dict(spec.get("params") or {}), "variant")
            return ratio_tolerance(suite, t, g, spec["variant"])[0]
        comparisons = [(p, compare_environments(cites[id(ref)], cites[id(p)], tol)) for p in shown[1:]]
        newest = max([x for x in ref.runs if x[0].machine == reference] or ref.runs, key=lambda x: x[0].name)
        claims = [v for c in t.claims for v in judge_claim(newest[1], c, t, suite, True, allow_missing=True)] + \
            [v for c in t.targets for v in judge_claim(newest[1], c, t, suite, False, allow_missing=True)]
        agreement = [(v, run_agreement(ref, next(c for c in t.cited if c["id"] == v.id), suite)) for v in cites[id(ref)]]
        out.append(TechniqueEvidence(t, shown, stale, cites, comparisons, published(ref, t, reference), claims, newest,
                                     [(v, a) for v, a in agreement if a]))
    return out
