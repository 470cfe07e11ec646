"""Two commits measured side by side in one run (`mvn jmh:run -Djmh.against=REF`, and CI's `-Djmh.gate`):
the two sides, each change paired by trial, and the gate's verdicts on them (compare.py and gate.py format
them, gate_power.py resamples them) by docs/gate.md's rules: the gated claims' gains and time here, every
other subject by the breadth rule (hpb/breadth.py). The defaults are suite.json's `rule` (hpb/rule.py);
a -Djmh.gate run states its own in its provenance ("gate").
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass

from . import breadth
from .config import Suite
from .model import BEST, ITERATIONS, InputError, Run
from .rule import ALPHA, FAST_STATE_MIN_ITERATIONS, LOOKS, MARGIN_PCT, SPEND, TIME_ALPHA  # noqa: F401 (re-exported)
from .select import matched_rows, param_matches, resolve_params
from .stats import Figure, sd, t_quantile

SIDES = ("base", "head")


@dataclass(frozen=True)
class Rule:
    """The gate's looks, margin and alpha; spend, the share of alpha each look spends (None: even
    shares, alpha / looks each, as every gate run recorded before uneven shares)."""
    looks: tuple
    margin_pct: float = MARGIN_PCT
    alpha: float = ALPHA
    spend: tuple | None = None

    def __post_init__(self):
        if self.spend is not None and (len(self.spend) != len(self.looks) or sum(self.spend) > self.alpha + 1e-12):
            raise InputError(f"the gate's alpha shares {self.spend} do not fit its looks {self.looks} "
                             f"and alpha {self.alpha:g}")

    @property
    def levels(self) -> tuple:
        """The one-sided level of each look: 1 - its share of alpha."""
        spend = self.spend or (self.alpha / max(1, len(self.looks)),) * len(self.looks)
        return tuple(1 - a for a in spend)

    def level_at(self, n: int) -> float:
        """The level of the look at n (the first's below it, the last's above it, the only one's when the
        looks are not counts). Between two looks, n is one the cap brought forward (the plugin's
        TrialSchedule.runGate): the stricter of the two levels, so it spends no more than the look it replaced."""
        index = max((i for i, look in enumerate(self.looks) if isinstance(look, int) and look <= n), default=0)
        between = isinstance(self.looks[index], int) and self.looks[index] < n
        return max(self.levels[index:index + 1 + between])

    def levels_words(self) -> str:
        """'0.9875, 0.9875 and 0.975' (or '0.9875 each' when even)."""
        lv = [f"{x:g}" for x in self.levels]
        return f"{lv[0]} each" if len(set(lv)) == 1 else ", ".join(lv[:-1]) + " and " + lv[-1]

    @property
    def bar(self) -> float:
        return 1 - self.margin_pct / 100


def _gate(run: Run) -> dict:
    return (run.provenance or {}).get("gate") or {}


def _maven_properties(run: Run) -> dict:
    return ((run.provenance or {}).get("jmh") or {}).get("mavenProperties") or {}


def rule_of(run: Run) -> Rule:
    """The rule a gate run recorded; a two-commit run made without -Djmh.gate had one look (its fixed trials)."""
    if not (g := _gate(run)):
        return Rule(looks=(None,))
    try:
        spend = tuple(float(x) for x in g["alphaPerLook"]) if g.get("alphaPerLook") else None
        return Rule(tuple(int(x) for x in g["looks"]), float(g["marginPct"]), float(g["alpha"]), spend)
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{run.name}: the provenance's gate block is malformed: {g!r}")


def capped(run: Run) -> bool:
    """Whether the gate's cap (-Djmh.budget) ended the run's groups: at a look, or at a look it brought forward."""
    groups = ((run.provenance or {}).get("trials") or {}).get("groups") or []
    return any(str(g.get("ended", "")).startswith("budget") for g in groups)


def is_two_commit(run: Run) -> bool:
    return any(r.params.get("side") in SIDES for r in run.results)


def sides(run: Run) -> dict:
    """A two-commit run's results by side ('base': the ref, 'head': the tree), without the 'side' param."""
    out = {s: [dataclasses.replace(r, params={k: v for k, v in r.params.items() if k != "side"})
               for r in run.results if r.params.get("side") == s] for s in SIDES}
    if not all(out.values()):
        raise InputError(f"{run.name}: not a two-commit run (no results with side=base and side=head); "
                         "make one with mvn jmh:run -Djmh.against=REF, or give two runs")
    return out


def fast_state(run: Run, min_iterations: int = FAST_STATE_MIN_ITERATIONS) -> Run:
    """The run with each fork's primary figure the best of its iterations instead of their mean: the core's
    fast state (docs/gate.md); allocation is unchanged. A best of fewer than min_iterations long iterations is
    a mean of fast and slow spells, not a fast state: bad input (fork_spread.py lowers the bar)."""
    out = []
    for r in run.results:
        if r.mode in ("thrpt", "avgt"):
            counts = r.fork_values.get(ITERATIONS, ())
            if not counts or min(counts) < min_iterations:
                raise InputError(f"{run.name}: {r.benchmark} has forks of {min(counts, default=0)} measured "
                                 f"iterations; the fast-state figure needs at least {min_iterations} (make the run "
                                 "with -Djmh.i=100 -Djmh.r=100ms)")
            r = dataclasses.replace(r, fork_values={**r.fork_values, "primary": r.fork_values[BEST]})
        out.append(r)
    return dataclasses.replace(run, results=out)


def trial_logs(a, b, t, metric="primary") -> dict:
    """trial -> ln(a/b) as 'x better' (a time or a cost inverted), over the trials both ran with a positive score."""
    from .verdicts import _direction
    if not (a.paired and b.paired):
        return {}
    bt = dict(zip(b.trials, b.forks_of(metric)))
    sign = 1 if _direction(t, metric, (a.metric(metric) or a.primary).unit) else -1
    return {trial: sign * math.log(v / w) for trial, v in zip(a.trials, a.forks_of(metric))
            if (w := bt.get(trial)) is not None and v > 0 and w > 0 and math.isfinite(v) and math.isfinite(w)}


def one_sided(logs: list, level: float) -> Figure:
    """exp(mean) with the one-sided Student t bounds at `level` on each side (NaN ends below 2 trials)."""
    logs = [x for x in logs if math.isfinite(x)]
    n = len(logs)
    mean = sum(logs) / n if n else math.nan
    if n < 2:
        return Figure(math.exp(mean))
    half = t_quantile(level, n - 1) * sd(logs) / math.sqrt(n)
    return Figure(math.exp(mean), math.exp(mean - half), math.exp(mean + half))


def decide(logs: list, rule: Rule) -> tuple:
    """(outcome, Figure) of a change of gain under the rule: 'pass', 'regression' or 'inconclusive'."""
    fig = one_sided(logs, rule.level_at(len(logs)))  # NaN ends (below 2 trials) compare false: inconclusive
    return ("pass" if fig.lo > rule.bar else "regression" if fig.hi < rule.bar else "inconclusive"), fig


def alloc_verdict(base: list, head: list, rows: int = 1) -> tuple:
    """(outcome, words) for allocation across forks, by the breadth rule (hpb.breadth.alloc_row) with
    `rows` allocation rows in the run: 'ok', 'regression' or 'inconclusive' ('' when unmeasured)."""
    outcome, words, _ = breadth.alloc_row(base, head, rows, breadth.default_settings())
    return {"undecided": "inconclusive"}.get(outcome, outcome), words


def selected_claims(run: Run) -> set | None:
    """The claims a run was narrowed to (-Djmh.claims, as its provenance records it), None when it was not:
    a gate pass scoped to the techniques a change reaches judges just those."""
    value = _maven_properties(run).get("jmh.claims")
    return {x.strip() for x in value.split(",") if x.strip()} if isinstance(value, str) else None


def gained_pairs(suite: Suite) -> list:
    """(technique, claim) for every gated claim on a time or throughput gain: the gate's gain checks."""
    return [(t, c) for t in suite.techniques for c in t.claims
            if c.get("metric", "primary") == "primary" and "min_speedup" in c
            and (suite.ci_passes.get(c.get("ci")) or {}).get("gate")]


def names(t, c: dict, r, pool: list | None = None) -> bool:
    """Whether result r is one of the two configurations claim c of technique t compares (what
    -Djmh.gate and -Djmh.claims select): max and min stand for the largest and smallest value among pool
    (the params of the configurations at hand, as the judge resolves them), for every value without one."""
    if (r.cls != t.benchmark or r.method != c.get("method")
            or r.params.get(t.variant_param) not in (c["variant"], c["baseline"])):
        return False
    if pool is not None:
        return param_matches(r.params, resolve_params(c.get("params") or {}, pool))
    params = {k: v if isinstance(v, list) else [v] for k, v in (c.get("params") or {}).items()}
    return all("max" in vals or "min" in vals or r.params.get(k) in vals for k, vals in params.items())


def claim_sides(by: dict, t, c, suite: Suite) -> list:
    """[(head group, base group)] of one gated claim: each head group of its pair with base's of the same params."""
    from .verdicts import _claim_groups
    head, base = (_claim_groups(by[side], c, t, suite)[0] for side in ("head", "base"))
    return [(g, bg) for g in head for bg in [next((x for x in base if x.params == g.params), None)] if bg is not None]


def gain_logs(by: dict, t, c, suite: Suite) -> list:
    """[(params, {trial: d_t})] for one gated claim: per trial, ln(gain_head / gain_base)."""
    def logs(g):
        return trial_logs(g.result(c["variant"]), g.result(c["baseline"]), t)
    return [(dict(g.params), {k: now[k] - then[k] for k in sorted(set(now) & set(then))})
            for g, bg in claim_sides(by, t, c, suite) for now, then in [(logs(g), logs(bg))]]


def _gain_words(outcome: str, fig: Figure, n: int, rule: Rule, cap: bool) -> str:
    """Why a gated claim's gain check came out as it did, at which look, and what ended the run there."""
    look = f"{n} trials" + (f", look {rule.looks.index(n) + 1} of {len(rule.looks)}" if n in rule.looks else "")
    bounds = f"one-sided {rule.level_at(n):.4g} bounds [{fig.lo:.3g}, {fig.hi:.3g}]x" if fig.known else "no interval"
    if outcome in ("pass", "regression"):
        less, lie = ("less", "clear") if outcome == "pass" else ("more", "lie below")
        why = f"the gain fell by {less} than {rule.margin_pct:g}%: {bounds} {lie} {rule.bar:.2f}x ({look})"
    elif fig.known:
        why = (f"undecided after {look}: the lower bound {fig.lo:.3g}x is {rule.bar - fig.lo:.3g} short of "
               f"{rule.bar:.2f}x, the upper {fig.hi:.3g}x above it")
    else:
        why = f"undecided: {n} paired trial(s), at least 2 needed"
    early = isinstance(rule.looks[-1], int) and n < rule.looks[-1]
    if outcome == "inconclusive" and early and not cap:
        why += "; the run ended at this look (a check shown to fail ends it: the gate fails either way)"
    if cap and early and n not in rule.looks:
        why += "; the gate's cap (-Djmh.budget) brought its next look forward to these trials"
    elif cap and early and outcome == "inconclusive":
        why += "; the gate's cap (-Djmh.budget) ended it before its next look"
    return why


def judge(run: Run, suite: Suite, undecided: str = "fail", strict=frozenset()) -> list:
    """Every verdict of the gate on a two-commit run: gains, fixed-bar claims on head, time, breadth.
    undecided='warn' (CI's mode, docs/gate.md says why) reports an undecided gain check, and a fixed bar its
    interval neither clears nor wholly misses, as warnings; a loss shown beyond the margin, and a bar shown
    missed, fail either way. The claims in `strict` fail undecided whatever `undecided` says."""
    from .verdicts import Verdict, describe, judge_claims
    by, rule, cap, chosen = sides(run), rule_of(run), capped(run), selected_claims(run)
    out, ids = [], []
    for t, c in [(t, c) for t, c in gained_pairs(suite) if chosen is None or c["id"] in chosen]:
        rows = gain_logs(by, t, c, suite)
        name = f"{c['id']}: {c['variant']} vs {c['baseline']}"
        if not rows:
            out.append(Verdict("gain", name, "not_run", "not measured on both sides in this run", c["id"], t.id))
            continue
        ids.append(c["id"])
        for params, d in rows:
            logs = list(d.values())
            outcome, fig = decide(logs, rule)
            why = _gain_words(outcome, fig, len(logs), rule, cap)
            if outcome == "inconclusive" and undecided == "warn" and c["id"] not in strict:
                outcome, why = "warn", why + " (a warning here: only a loss shown beyond the margin fails)"
            configs = [breadth.config_key(r) for r in by["head"] if names(t, c, r)
                       and all(r.params.get(k) == v for k, v in params.items())]
            out.append(Verdict("gain", name, outcome, why, c["id"], t.id, params, fig, rule.bar, ">=",
                               extra={"n": len(logs), "logs": logs, "configs": configs,
                                      "decided": outcome in ("pass", "regression")}))
    base_bars = judge_claims(by["base"], suite, ids=ids, allow_missing=True) if ids else []
    for v in judge_claims(by["head"], suite, ids=ids) if ids else []:
        v = breadth.beside_base(v, base_bars)
        if (undecided == "warn" and v.id not in strict and v.outcome in ("fail", "inconclusive")
                and not _shown_to_miss(v)):
            v = dataclasses.replace(v, outcome="warn", reason=v.reason + "; not shown to miss the bar either "
                                    "(a warning here: only a bar shown missed fails)")
        out.append(v)
    base = {r.key: r for r in by["base"]}
    gated = [(t, c) for t, c in gained_pairs(suite) if c["id"] in ids]
    pairs = [(h, base[h.key]) for h in by["head"] if h.key in base and any(names(t, c, h) for t, c in gated)]
    m = max(1, len(pairs))
    threshold = time_threshold(suite)
    for h, b in pairs:
        logs = list(trial_logs(h, b, suite.technique(h.cls)).values())
        shown, fig = time_verdict(logs, m, threshold, rule)
        words = f"shown slower by more than {threshold:g}%" if shown else f"no slowdown beyond {threshold:g}% shown"
        out.append(Verdict("time", describe(h), "regression" if shown else "ok",
                           f"{words} (one-sided {time_level(len(logs), m, rule):.4g} bounds, {len(logs)} trials)",
                           params=dict(h.params), figure=fig, before=b.primary, after=h.primary,
                           extra={"configs": [breadth.config_key(h)]}))
    out += breadth.judge(by, suite, rule, chosen, {h.key for h, _ in pairs}, set(ids), pairs)
    if not any(h.key in base for h in by["head"]):
        raise InputError(f"{run.name}: no configuration was measured on both sides")
    return out


def time_threshold(suite: Suite) -> float:
    """The slowdown (%) a configuration's time must be shown to exceed before it fails in a two-commit run:
    two_commit_threshold_pct (suite.json says why), else the threshold between two separate runs."""
    reg = suite.regression
    return float(reg.get("two_commit_threshold_pct", reg.get("threshold_pct", 10)))


def time_level(n: int, m: int, rule: Rule | None = None) -> float:
    """1 - TIME_ALPHA_k / m for a time row of n trials among m, TIME_ALPHA_k the share of TIME_ALPHA the
    rule's look at n spends, as its gains spend alpha (all of it with no rule)."""
    share = (1 - rule.level_at(n)) / rule.alpha if rule else 1.0
    return 1 - TIME_ALPHA * share / max(1, m)


def time_verdict(logs: list, m: int, threshold_pct: float, rule: Rule | None = None) -> tuple:
    """(shown slower?, Figure) of per-trial ln(head/base) as 'x better': shown when hi at time_level < 1 - threshold."""
    fig = one_sided(logs, time_level(len(logs), m, rule))
    return bool(fig.known and math.log(fig.hi) < math.log(1 - threshold_pct / 100)), fig


def _shown_to_miss(v) -> bool:
    """A fixed-bar claim whose whole interval misses its bar (its optimistic end too)."""
    known = v.figure is not None and v.figure.known and v.bar is not None
    return known and (v.figure.hi < v.bar if v.need == ">=" else v.need == "<=" and v.figure.lo > v.bar)


def gain_rows(by: dict, suite: Suite) -> list:
    """(group, technique, label, now logs, then logs) for every pair in both sides: compare.py's table of gains."""
    return [(g, t, label, trial_logs(r, hb, t), trial_logs(br, bb, t))
            for g, t, label, r, hb, br, bb in matched_rows(by["head"], by["base"], suite)]


def look(run: Run, suite: Suite) -> dict:
    """What the plugin asks at each look of a -Djmh.gate run (through scripts/plan.py, with the forks merged so
    far): {"open": [configurations an undecided check still needs, on both sides], "checks": [{"id", "params",
    "decided", "outcome", "n", "configurations"}]}, a configuration being {"benchmark", "mode", "params",
    "side"}. The run is judged as gate.py judges it (on the fast-state figure under -Djmh.gateFigure=best);
    nothing is open at the last look, once the cap ended a group, or once a check has been shown to fail."""
    if _maven_properties(run).get("jmh.gateFigure") == "best" or _gate(run).get("forkFigure") == "best":
        run = fast_state(run)
    rule = rule_of(run)
    checks, wanted = [], {}
    for v in [v for v in judge(run, suite) if v.outcome != "not_run"]:
        decided = bool(v.extra.get("decided", True))
        configs = [{"benchmark": key["benchmark"], "mode": key["mode"], "params": dict(key["params"]), "side": side}
                   for key in v.extra.get("configs", []) for side in SIDES]
        checks.append({"id": v.id if v.check == "gain" else f"{v.check}:{v.id or v.subject}",
                       "params": dict(v.params or {}), "decided": decided, "outcome": v.outcome,
                       "n": v.extra.get("n", 0), "configurations": configs})
        if not decided:
            wanted.update((json.dumps(k, sort_keys=True), k) for k in configs)
    n = max((len(r.trials) for r in run.results), default=0)
    last = isinstance(rule.looks[-1], int) and n >= rule.looks[-1]
    # a check shown to fail fails the gate whatever the others say: the run stops rather than measure on
    failed = any(c["decided"] and c["outcome"] == "regression" for c in checks)
    return {"open": [] if last or failed or capped(run) else list(wanted.values()), "checks": checks}
