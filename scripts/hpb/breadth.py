"""The breadth rule: every cited figure and claim a two-commit run (`-Djmh.against=BASE -Djmh.gate
-Djmh.claims=IDS`) measured, but the gated claims (twocommit.judge), judged between its commits with the
numbers of suite.json's `breadth` section (each with its reason there), at the run's looks, alpha spent in
the gain rule's proportions. Rows: time, a cited pair's gain, allocation, noisy units, deterministic
footprints, fixed bars; docs/gate.md ("The rules") gives each one's legs and their reasons.
Each verdict carries extra["decided"] and extra["configs"], which twocommit.look turns into open groups.
"""
from __future__ import annotations

import dataclasses
import math
import statistics
from collections import namedtuple

from . import forks
from .config import Suite
from .model import ALLOC, InputError, Result
from .rule import SUITE_FILE, SUITE_JSON, check_keys
from .select import group_results, param_matches, resolve_params
from .stats import Figure

KEYS = ("time_pass_pct", "time_fail_pct", "gain_margin_pct", "alpha", "time_alpha", "alloc_min_bytes",
        "alloc_alpha", "noisy_ratio")
Settings = namedtuple("Settings", KEYS)


def check(d, where: str) -> dict:
    """suite.json's `breadth` section, checked: every number with its reason."""
    def each(k):
        if isinstance(d[k], bool) or not isinstance(d[k], (int, float)) or not d[k] > 0:
            raise InputError(f"{where}: breadth.{k}: expected a positive number, got {d[k]!r}")
    check_keys(d, "breadth", KEYS, where, why_text=True, each=each)
    for keys, what, top in ((("alpha", "time_alpha", "alloc_alpha"), "a share below", 1),
                            (("time_pass_pct", "time_fail_pct", "gain_margin_pct"), "a percentage below", 100)):
        for k in keys:
            if not d[k] < top:
                raise InputError(f"{where}: breadth.{k}: expected {what} {top}, got {d[k]!r}")
    if not d["noisy_ratio"] > 1:
        raise InputError(f"{where}: breadth.noisy_ratio: expected a factor above 1, got {d['noisy_ratio']!r}")
    return d


def _settings(d, where: str) -> Settings:
    d = check(d, where)
    return Settings(*(float(d[k]) for k in KEYS))


def settings(suite: Suite) -> Settings:
    return _settings(suite.raw.get("breadth"), str(suite.path))


def default_settings() -> Settings:
    """The settings of the repository's scripts/suite.json."""
    return _settings(SUITE_JSON.get("breadth"), str(SUITE_FILE))


# ---------------------------------------------------------------- what a technique's figures name

def subjects(t) -> list:
    """Every cited figure and every CI claim of technique t as one shape: {id, kind ('cited' or
    'claim'), method, variant, baseline, params, metric, baseline_metric, speedup (bool), spec}."""
    def subject(c, kind, method, baseline_metric, speedup):
        return {"id": c["id"], "kind": kind, "method": method, "variant": c["variant"], "baseline": c["baseline"],
                "params": c.get("params") or {}, "metric": c.get("metric", "primary"),
                "baseline_metric": baseline_metric, "speedup": speedup, "spec": c}
    return ([subject(c, "cited", c["method"], c.get("metric", "primary"), c.get("kind", "speedup") == "speedup")
             for c in t.cited]
            + [subject(c, "claim", c.get("method"), c.get("baseline_metric", c.get("metric", "primary")),
                       "min_speedup" in c) for c in t.claims])


def pairs(results, t, s: dict, suite: Suite) -> list:
    """[(group params, variant result, baseline result)] of subject s among `results` (one side)."""
    groups = [g for g in group_results([r for r in results if r.cls == t.benchmark], suite)
              if not s["method"] or g.name == s["method"]]
    with_sides = [g for g in groups if g.result(s["variant"]) is not None and g.result(s["baseline"]) is not None]
    resolved = resolve_params(s["params"], [g.params for g in with_sides])
    return [(dict(g.params), g.result(s["variant"]), g.result(s["baseline"]))
            for g in with_sides if param_matches(g.params, resolved)]


def config_key(r: Result) -> dict:
    """A configuration as the plugin names it (a provenance's group member, without its side)."""
    return {"benchmark": r.benchmark, "mode": r.mode, "params": dict(sorted(r.params.items()))}


# ---------------------------------------------------------------- one row each

def _finite(xs) -> list:
    return [v for v in xs if math.isfinite(v)]


def time_row(logs: list, rule, m: int, st: Settings) -> tuple:
    """('pass'|'regression'|'undecided', Figure at the pass level, words) of per-trial ln(head/base), x better."""
    from .twocommit import one_sided
    n = len(logs)
    level = rule.level_at(n)
    fail_level = 1 - st.time_alpha * ((1 - level) / rule.alpha) / max(1, m)
    fig, worst = one_sided(logs, level), one_sided(logs, fail_level)
    if n < 2 or not fig.known:
        return "undecided", fig, f"{n} paired trial(s), at least 2 needed"
    bound = f"one-sided {level:.4g} bounds [{fig.lo:.3g}, {fig.hi:.3g}]x, {n} trials"
    if worst.hi < 1 - st.time_fail_pct / 100:
        return "regression", fig, (f"shown slower by more than {st.time_fail_pct:g}% (one-sided {fail_level:.4g} "
                                   f"upper bound {worst.hi:.3g}x); {bound}")
    if fig.lo > 1 - st.time_pass_pct / 100:
        return "pass", fig, f"shown slower by less than {st.time_pass_pct:g}%: {bound}"
    return "undecided", fig, (f"neither shown slower by less than {st.time_pass_pct:g}% (lower bound {fig.lo:.3g}x) "
                              f"nor by more than {st.time_fail_pct:g}%; {bound}")


def shown_above(base: list, head: list, factor: float, level_alpha: float) -> tuple:
    """(outcome 'regression'|'ok'|'undecided', p) of a one-sided exact rank-sum test that head's forks
    lie above `factor` times base's, at level_alpha: undecided when these fork counts cannot reach it."""
    b = [factor * v for v in _finite(base)]
    h = _finite(head)
    if not b or not h or forks.smallest_p(len(b), len(h)) > level_alpha:
        return "undecided", math.nan
    p = forks.rank_sum_p_greater(b, h)
    return ("regression" if p <= level_alpha else "ok"), p


def alloc_row(base: list, head: list, m: int, st: Settings) -> tuple:
    """(outcome, words, median growth in B/op) for one configuration's allocation over forks."""
    b, h = _finite(base), _finite(head)
    if not b or not h:
        return "", "", math.nan
    grew = statistics.median(h) - statistics.median(b)
    medians = f"fork medians {statistics.median(b):,.1f} -> {statistics.median(h):,.1f} B/op"
    if grew < st.alloc_min_bytes:
        return "ok", f"{medians}: grew by less than {st.alloc_min_bytes:g} bytes", grew
    level = st.alloc_alpha / max(1, m)
    outcome, p = shown_above(b, h, 1.0, level)
    words = {"undecided": f"{len(b)} and {len(h)} forks cannot show growth at p <= {level:.3g} "
                          f"(at best {forks.smallest_p(len(b), len(h)):.3g})",
             "regression": f"grew (rank-sum p = {p:.3g} <= {level:.3g})",
             "ok": f"growth not shown (rank-sum p = {p:.3g} > {level:.3g})"}[outcome]
    return outcome, f"{medians}: {words}", grew


def footprint_row(t, metric: str, b: Result, h: Result) -> tuple:
    """(outcome, words) for a deterministic metric: head's median over forks against base's, allowed
    to grow (or, higher being better, fall) by no more than its declared resolution."""
    info = t.metric_info(metric) or {}
    bv, hv = (_finite(r.forks_of(metric)) or ([r.metric(metric).score] if r.metric(metric) else []) for r in (b, h))
    if not bv or not hv:
        return "", ""
    mb, mh = statistics.median(bv), statistics.median(hv)
    res, per_res = info.get("resolution"), t.resolution(h, metric)
    allowed, why = 0.0, "exact (no resolution declared)"
    if per_res is not None:
        allowed, why = per_res, f"its resolution {res['bytes']:g} bytes / {res['per_param']}"
    worse = (mb - mh) if info.get("better") == "higher" else (mh - mb)
    words = f"{mb:.6g} -> {mh:.6g} {info.get('unit', '')}; allowed {allowed:.3g} ({why})"
    return ("regression" if worse > allowed + 1e-9 * max(abs(mb), 1.0) else "ok"), words


# ---------------------------------------------------------------- the rows of a run

def judge(by: dict, suite: Suite, rule, chosen: set | None, gated_keys: set, gated_ids: set,
          gated_pairs=()) -> list:
    """Every breadth verdict on the two sides `by` ({'base': [...], 'head': [...]}) of a run judged by `rule`
    (twocommit.Rule). chosen: the ids the run was narrowed to (-Djmh.claims; None: a run of the gated claims
    alone, whose configurations get only their allocation judged here); gated_keys: the configurations the
    gated claims' rule judges for time (and a cited pair of two such, for gain); gated_ids: the gated claims;
    gated_pairs: their (head, base) results, whose allocation is judged here."""
    from .twocommit import Rule, decide, trial_logs
    from .verdicts import Verdict, judge_claim
    st = settings(suite)
    base_rule = Rule(rule.looks, st.gain_margin_pct, st.alpha,
                     tuple(x / rule.alpha * st.alpha for x in rule.spend) if rule.spend else None)
    base_by = {r.key: r for r in by["base"]}
    out, configs = [], {}
    for h, b in gated_pairs:
        configs.setdefault(h.key, (suite.technique(h.cls), h, b, set()))
    gains, claims = [], []
    for t in suite.techniques:
        for s in [s for s in subjects(t) if chosen is not None and s["id"] in chosen and s["id"] not in gated_ids]:
            both = [(p, v, b, base_by.get(v.key), base_by.get(b.key)) for p, v, b in pairs(by["head"], t, s, suite)]
            both = [x for x in both if x[3] is not None and x[4] is not None]
            if not both:
                out.append(Verdict(s["kind"], s["id"], "not_run", "not measured on both sides in this run", s["id"],
                                   t.id, extra={"decided": True, "configs": []}))
                continue
            for p, v, b, vb, bb in both:
                for r, rb, metric in ((v, vb, s["metric"]), (b, bb, s["baseline_metric"])):
                    configs.setdefault(r.key, (t, r, rb, set()))[3].add(metric)
                if (s["speedup"] and s["metric"] == "primary" and s["kind"] == "cited"
                        and not (v.key in gated_keys and b.key in gated_keys)):
                    gains.append((t, s, p, v, b, vb, bb))
            if s["kind"] == "claim":
                claims.append((t, s))
    times = [row for k, row in configs.items() if "primary" in row[3] and k not in gated_keys]
    for t, h, b, _ in times:
        logs = list(trial_logs(h, b, t).values())
        outcome, fig, words = time_row(logs, base_rule, len(times), st)
        out.append(_verdict("time", h, outcome, words, t.id, fig, base_rule, len(logs),
                            before=b.primary, after=h.primary))
    for t, s, p, v, b, vb, bb in gains:
        now, then = trial_logs(v, b, t), trial_logs(vb, bb, t)
        logs = [now[k] - then[k] for k in sorted(set(now) & set(then))]
        outcome, fig = decide(logs, base_rule)
        n = len(logs)
        words = (f"the gain fell by less than {st.gain_margin_pct:g}%" if outcome == "pass" else
                 f"the gain fell by more than {st.gain_margin_pct:g}%" if outcome == "regression" else "undecided")
        if fig.known:
            words += (f": one-sided {base_rule.level_at(n):.4g} bounds [{fig.lo:.3g}, {fig.hi:.3g}]x "
                      f"against {base_rule.bar:.2f}x")
        words += f" ({n} trials)"
        out.append(_verdict("gain", v, outcome, words, t.id, fig, base_rule, n, params=p, sid=s["id"],
                            extra={"logs": logs}, subject=f"{s['id']}: {s['variant']} vs {s['baseline']}",
                            configs=[config_key(v), config_key(b)]))
    m_alloc = sum(1 for t, h, b, _ in configs.values() if h.forks_of(ALLOC) and b.forks_of(ALLOC))
    for t, h, b, ms in configs.values():
        outcome, words, grew = alloc_row(b.forks_of(ALLOC), h.forks_of(ALLOC), m_alloc, st)
        if outcome:
            out.append(_verdict("alloc", h, outcome, words, t.id, Figure(grew), base_rule, len(h.forks_of(ALLOC))))
    others = [(t, h, b, metric) for t, h, b, ms in configs.values() for metric in sorted(ms)
              if metric not in ("primary", ALLOC)]
    footprints = [x for x in others if x[0].deterministic(x[3])]
    noisy = [x for x in others if not x[0].deterministic(x[3])]
    for t, h, b, metric in footprints:
        outcome, words = footprint_row(t, metric, b, h)
        if outcome:
            out.append(_verdict(metric, h, outcome, words, t.id, None, base_rule, len(h.forks_of(metric))))
    level = st.alloc_alpha / max(1, len(noisy))
    for t, h, b, metric in noisy:
        bv, hv = b.forks_of(metric), h.forks_of(metric)
        if not bv or not hv:
            continue
        higher = (t.metric_info(metric) or {}).get("better") == "higher"  # worse is lower: swap the sides
        outcome, p = shown_above(*((hv, bv) if higher else (bv, hv)), st.noisy_ratio, level)
        what = (f"fork medians {statistics.median(_finite(bv) or [math.nan]):.4g} -> "
                f"{statistics.median(_finite(hv) or [math.nan]):.4g}")
        words = {"regression": f"{what}: shown worse than {st.noisy_ratio:g}x base's (rank-sum p = {p:.3g} "
                               f"<= {level:.3g})",
                 "ok": f"{what}: not shown worse than {st.noisy_ratio:g}x base's (p = {p:.3g})",
                 "undecided": f"{what}: {len(bv)} and {len(hv)} forks cannot reach p <= {level:.3g}"}[outcome]
        out.append(_verdict(metric, h, outcome, words, t.id, None, base_rule, len(hv)))
    for t, s in claims:
        base = judge_claim(by["base"], s["spec"], t, suite, allow_missing=True)
        for v in judge_claim(by["head"], s["spec"], t, suite):
            v = beside_base(v, base)
            v.extra.update({"decided": True, "configs": []})
            out.append(v)
    return out


def beside_base(v, base: list):
    """Head's fixed-bar verdict v, the change's doing only where base met the bar in the same run: where base
    measured it and missed it too (or could not show it), this machine does not reach the bar, which says
    nothing of the change (the pair's gain check judges that): a warning. base: the claim's verdicts on base."""
    b = next((x for x in base if x.id == v.id and x.params == v.params and x.figure is not None), None)
    if v.outcome not in ("fail", "inconclusive") or b is None or b.outcome == "pass":
        return v
    f = b.figure
    return dataclasses.replace(v, outcome="warn", reason=f"{v.reason}; base misses it too ({f.value:.3g}x "
                               f"[{f.lo:.3g}, {f.hi:.3g}]): this machine does not reach the bar (a warning: "
                               "the gain judges the change)")


def _verdict(check, r, outcome, words, tid, fig, rule, n, before=None, after=None, params=None, sid="", extra=None,
             subject=None, configs=None):
    """A breadth Verdict on result r (its description and configuration unless subject and configs say): an
    undecided (or inconclusive) row is open before the last look and INCONCLUSIVE (failing) at it."""
    from .verdicts import Verdict, describe
    last = not isinstance(rule.looks[-1], int) or n >= rule.looks[-1]
    decided = outcome not in ("undecided", "inconclusive")
    if not decided:
        words += "; open to the next look" if not last else "; undecided at the last look"
    return Verdict(check, subject or describe(r), outcome if decided else "inconclusive", words, sid, tid,
                   dict(params if params is not None else r.params), fig, before=before, after=after,
                   extra={"decided": decided, "configs": configs or [config_key(r)], "n": n, "breadth": True,
                          **(extra or {})})
