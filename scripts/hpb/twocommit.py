"""Two commits measured side by side in one run (`mvn jmh:run -Djmh.against=REF`, and CI's
`-Djmh.gate`): the two sides, each change paired by trial, allocation over forks, and the gate's
verdicts on them. compare.py and gate.py format what this returns; gate_power.py resamples it.

The gate's rule (docs/gate.md), for a run of n trials judged at look k of K fixed looks:

- gain (each gated claim's pair: its variant against its baseline): d_t = ln(gain_head,t /
  gain_base,t) over the trials t in which all four forks ran. The check passes when the lower end
  of the one-sided Student t bound on mean(d) at level 1 - alpha_k lies above ln(1 - margin):
  the data show the gain fell by less than the margin. It is a REGRESSION when the upper end lies
  below it (shown to have lost more), and INCONCLUSIVE otherwise, which fails too. alpha (0.05)
  bounds the share of pairs that lost exactly the margin and still pass, per check; look k spends
  alpha_k of it (SPEND: a quarter at 5 and 10 trials, half at 20), and the shares sum to alpha, so
  by Bonferroni stopping at any look keeps that bound. When the gate's cap (-Djmh.budget) leaves no
  room for a look, it brings that look forward to the trials that fit and ends the run there; a
  count between two looks is judged at the stricter of their levels (Rule.level_at), so the look
  brought forward spends no more than its share. Where it falls is set by the clock, not by the
  changes, so the bound holds; undecided there, INCONCLUSIVE.
- time (each configuration's own score, head against base, paired by trial): a REGRESSION only
  when shown slower by more than the suite's threshold (10%), at level 1 - TIME_ALPHA_k / m over the
  m configurations (Bonferroni), where the look k the run stopped at spends TIME_ALPHA_k of
  TIME_ALPHA in the gain's shares (which look stops a group depends on its gain checks, whose forks
  are the time rows' own, so each look gets its share): a configuration that lost exactly the
  threshold fails at most TIME_ALPHA of runs; an unchanged one, whose bound must fall a whole
  threshold below the truth, far less (gate_power.py measures it). It bounds false alarms, not
  misses; the gains carry the misses' bound.
- allocation (each configuration, over forks): the forks' median B/op grew by at least 16 bytes
  and 5%, and a one-sided exact Wilcoxon-Mann-Whitney rank-sum test over each side's forks gives
  p <= the breadth rule's alloc_alpha / m (hpb/breadth.py); one fork whose escape analysis kept an object
  moves neither the median nor the ranks enough.
- claims with fixed bars: judged on the head side's forks, as in any run of the trial protocol.
"""
from __future__ import annotations

import dataclasses
import json
import math
import statistics
from dataclasses import dataclass

from . import breadth, forks
from .config import Suite
from .model import ALLOC, BEST, ITERATIONS, InputError, Run
from .select import matched_rows
from .stats import Figure

SIDES = ("base", "head")

# The gate's defaults, from scripts/suite.json's rule section (each with its reason there); a -Djmh.gate
# run states its own in its provenance ("gate"). SPEND: the share of alpha each look spends.
from .rule import ALPHA, FAST_STATE_MIN_ITERATIONS, LOOKS, MARGIN_PCT, SPEND, TIME_ALPHA  # noqa: E402


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
            raise InputError(f"the gate's alpha shares {self.spend} do not fit its looks {self.looks} and alpha {self.alpha:g}")

    @property
    def levels(self) -> tuple:
        """The one-sided level of each look: 1 - its share of alpha."""
        spend = self.spend or (self.alpha / max(1, len(self.looks)),) * len(self.looks)
        return tuple(1 - a for a in spend)

    def level_at(self, n: int) -> float:
        """The level a change of n trials is judged at: that of the look at n (the first look's below
        it, the last's above it; the only one's when the looks are not counts). Between two looks n is
        a look the gate's cap brought forward (the plugin's TrialSchedule.runGate): judged at the
        stricter of the two looks' levels, so that it spends no more alpha than the look it replaced."""
        levels = self.levels
        index = 0
        for i, look in enumerate(self.looks):
            if isinstance(look, int) and look <= n:
                index = i
        if isinstance(self.looks[index], int) and self.looks[index] < n and index + 1 < len(self.looks):
            return max(levels[index], levels[index + 1])
        return levels[index]

    def levels_words(self) -> str:
        """'0.9875, 0.9875 and 0.975' (or '0.9875 each' when even)."""
        lv = [f"{x:g}" for x in self.levels]
        if len(set(lv)) == 1:
            return f"{lv[0]} each"
        return ", ".join(lv[:-1]) + " and " + lv[-1]

    @property
    def bar(self) -> float:
        return 1 - self.margin_pct / 100


def rule_of(run: Run) -> Rule:
    """The rule a gate run recorded; a two-commit run made without -Djmh.gate had one look (its fixed trials)."""
    g = (run.provenance or {}).get("gate")
    if not g:
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
    """A two-commit run's results by side ('base': the ref, 'head': the tree), each without its
    'side' param; bad input when the run is not one."""
    out = {s: [] for s in SIDES}
    for r in run.results:
        side = r.params.get("side")
        if side in out:
            out[side].append(dataclasses.replace(r, params={k: v for k, v in r.params.items() if k != "side"}))
    if not all(out.values()):
        raise InputError(f"{run.name}: not a two-commit run (no results with side=base and side=head); "
                         "make one with mvn jmh:run -Djmh.against=REF, or give two runs")
    return out


def fast_state(run: Run, min_iterations: int = FAST_STATE_MIN_ITERATIONS) -> Run:
    """The run with each fork's primary figure the best of its measured iterations instead of their
    mean: the speed of the core's fast state (docs/gate.md). Time, gain and fixed-bar checks then
    compare fast states; allocation is unchanged. Bad input when a throughput or time result's forks
    have fewer than min_iterations iterations: a best of few long iterations is a mean of fast and
    slow spells, not a fast state (fork_spread.py lowers the bar to compare the two figures on any run)."""
    out = []
    for r in run.results:
        if r.mode in ("thrpt", "avgt"):
            counts = r.fork_values.get(ITERATIONS, ())
            if not counts or min(counts) < min_iterations:
                raise InputError(
                    f"{run.name}: {r.benchmark} has forks of {min(counts, default=0)} measured iterations; the "
                    f"fast-state figure needs at least {min_iterations} (make the run with "
                    "-Djmh.i=100 -Djmh.r=100ms)")
            r = dataclasses.replace(r, fork_values={**r.fork_values, "primary": r.fork_values[BEST]})
        out.append(r)
    return dataclasses.replace(run, results=out)


def trial_logs(a, b, t, metric="primary") -> dict:
    """trial -> ln(a/b) oriented as 'x better' (a time or a cost inverted), for the trials in which
    both ran a fork with a positive score."""
    from .verdicts import _direction
    if not (a.paired and b.paired):
        return {}
    bt = dict(zip(b.trials, b.forks_of(metric)))
    sign = 1 if _direction(t, metric, (a.metric(metric) or a.primary).unit) else -1
    out = {}
    for trial, v in zip(a.trials, a.forks_of(metric)):
        w = bt.get(trial)
        if w is not None and v > 0 and w > 0 and math.isfinite(v) and math.isfinite(w):
            out[trial] = sign * math.log(v / w)
    return out


def one_sided(logs: list, level: float) -> Figure:
    """exp(mean) with the one-sided Student t bounds at `level` on each side (NaN ends below 2 trials)."""
    logs = [x for x in logs if math.isfinite(x)]
    n = len(logs)
    if n == 0:
        return Figure(math.nan, math.nan, math.nan)
    mean = sum(logs) / n
    if n < 2:
        return Figure(math.exp(mean), math.nan, math.nan)
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
    half = forks.t_quantile(level, n - 1) * sd / math.sqrt(n)
    return Figure(math.exp(mean), math.exp(mean - half), math.exp(mean + half))


def decide(logs: list, rule: Rule) -> tuple:
    """(outcome, Figure) of a change of gain under the rule: 'pass', 'regression' or 'inconclusive'."""
    fig = one_sided(logs, rule.level_at(len(logs)))
    if len(logs) < 2 or not fig.known:
        return "inconclusive", fig
    if fig.lo > rule.bar:
        return "pass", fig
    if fig.hi < rule.bar:
        return "regression", fig
    return "inconclusive", fig


def alloc_verdict(base: list, head: list, rows: int = 1) -> tuple:
    """(outcome, words) for allocation across forks, by the breadth rule (hpb.breadth.alloc_row) with
    `rows` allocation rows in the run: 'ok', 'regression' or 'inconclusive' ('' when unmeasured)."""
    from .breadth import alloc_row, default_settings
    outcome, words, _ = alloc_row(base, head, rows, default_settings())
    return {"undecided": "inconclusive"}.get(outcome, outcome), words


def selected_claims(run: Run) -> set | None:
    """The claims a run was narrowed to (-Djmh.claims, as its provenance records it), None when it was not:
    a gate pass scoped to the techniques a change reaches judges just those."""
    props = ((run.provenance or {}).get("jmh") or {}).get("mavenProperties") or {}
    value = props.get("jmh.claims")
    if not isinstance(value, str):
        return None
    return {x.strip() for x in value.split(",") if x.strip()}


def gained_pairs(suite: Suite) -> list:
    """(technique, claim) for every gated claim on a time or throughput gain: the gate's gain checks."""
    return [(t, c) for t in suite.techniques for c in t.claims
            if c.get("metric", "primary") == "primary" and "min_speedup" in c
            and (suite.ci_passes.get(c.get("ci")) or {}).get("gate")]


def names(t, c: dict, r) -> bool:
    """Whether result r is one of the two configurations claim c of technique t compares (what
    -Djmh.gate and -Djmh.claims select; max and min stand for every value)."""
    if r.cls != t.benchmark or r.method != c.get("method") or r.params.get(t.variant_param) not in (c["variant"], c["baseline"]):
        return False
    for k, v in (c.get("params") or {}).items():
        vals = v if isinstance(v, list) else [v]
        if "max" not in vals and "min" not in vals and r.params.get(k) not in vals:
            return False
    return True


def claim_sides(by: dict, t, c, suite: Suite) -> list:
    """[(head group, base group)] of one gated claim: each group of its pair on head with the base
    group of the same params."""
    from .verdicts import _claim_groups
    head, _, _, _ = _claim_groups(by["head"], c, t, suite)
    base, _, _, _ = _claim_groups(by["base"], c, t, suite)
    return [(g, bg) for g in head for bg in [next((x for x in base if x.params == g.params), None)] if bg is not None]


def gain_logs(by: dict, t, c, suite: Suite) -> list:
    """[(params, {trial: d_t})] for one gated claim: per trial, ln(gain_head / gain_base)."""
    out = []
    for g, bg in claim_sides(by, t, c, suite):
        now = trial_logs(g.result(c["variant"]), g.result(c["baseline"]), t)
        then = trial_logs(bg.result(c["variant"]), bg.result(c["baseline"]), t)
        out.append((dict(g.params), {k: now[k] - then[k] for k in sorted(set(now) & set(then))}))
    return out


def judge(run: Run, suite: Suite, undecided: str = "fail", strict=frozenset()) -> list:
    """Every verdict of the gate on a two-commit run: gains, fixed-bar claims on head, time, allocation.
    undecided='warn' reports a gain check the run could not decide, and a fixed bar its interval
    neither clears nor wholly misses, as warnings instead of failing (CI's mode, docs/gate.md says
    why); a loss shown beyond the margin, and a bar shown missed, fail either way. The claims in
    `strict` are judged by the rule whatever `undecided` says: undecided, they fail (CI's mode for a
    claim whose measured false alarms at CI's look allow it, docs/gate.md)."""
    from .verdicts import Verdict, describe, judge_claims
    by = sides(run)
    rule = rule_of(run)
    cap = capped(run)
    out = []
    ids = []
    chosen = selected_claims(run)
    for t, c in gained_pairs(suite):
        if chosen is not None and c["id"] not in chosen:
            continue
        rows = gain_logs(by, t, c, suite)
        name = f"{c['id']}: {c['variant']} vs {c['baseline']}"
        if not rows:
            out.append(Verdict("gain", name, "not_run", "not measured on both sides in this run", c["id"], t.id))
            continue
        ids.append(c["id"])
        for params, d in rows:
            logs = list(d.values())
            outcome, fig = decide(logs, rule)
            n = len(logs)
            look = f"{n} trials" + (f", look {rule.looks.index(n) + 1} of {len(rule.looks)}" if n in rule.looks else "")
            bounds = f"one-sided {rule.level_at(n):.4g} bounds [{fig.lo:.3g}, {fig.hi:.3g}]x" if fig.known else "no interval"
            if outcome == "pass":
                why = f"the gain fell by less than {rule.margin_pct:g}%: {bounds} clear {rule.bar:.2f}x ({look})"
            elif outcome == "regression":
                why = f"the gain fell by more than {rule.margin_pct:g}%: {bounds} lie below {rule.bar:.2f}x ({look})"
            elif fig.known:
                why = (f"undecided after {look}: the lower bound {fig.lo:.3g}x is {rule.bar - fig.lo:.3g} short of "
                       f"{rule.bar:.2f}x, the upper {fig.hi:.3g}x above it")
            else:
                why = f"undecided: {n} paired trial(s), at least 2 needed"
            if outcome == "inconclusive" and isinstance(rule.looks[-1], int) and n < rule.looks[-1] and not cap:
                why += "; the run ended at this look (a check shown to fail ends it: the gate fails either way)"
            if cap and isinstance(rule.looks[-1], int) and n < rule.looks[-1]:
                if n not in rule.looks:
                    why += "; the gate's cap (-Djmh.budget) brought its next look forward to these trials"
                elif outcome == "inconclusive":
                    why += "; the gate's cap (-Djmh.budget) ended it before its next look"
            if outcome == "inconclusive" and undecided == "warn" and c["id"] not in strict:
                outcome, why = "warn", why + " (a warning here: only a loss shown beyond the margin fails)"
            configs = [breadth.config_key(r) for r in by["head"] if names(t, c, r)
                       and all(r.params.get(k) == v for k, v in params.items())]
            out.append(Verdict("gain", name, outcome, why, c["id"], t.id, params, fig, rule.bar, ">=",
                               extra={"n": n, "logs": logs, "configs": configs,
                                      "decided": outcome in ("pass", "regression")}))
    for v in judge_claims(by["head"], suite, ids=ids) if ids else []:
        if undecided == "warn" and v.id not in strict and v.outcome in ("fail", "inconclusive") and not _shown_to_miss(v):
            v = dataclasses.replace(v, outcome="warn", reason=v.reason + "; not shown to miss the bar either "
                                    "(a warning here: only a bar shown missed fails)")
        out.append(v)
    base = {r.key: r for r in by["base"]}
    gated = [(t, c) for t, c in gained_pairs(suite) if c["id"] in ids]
    pairs = [(h, base[h.key]) for h in by["head"] if h.key in base
             and any(names(t, c, h) for t, c in gated)]
    m = max(1, len(pairs))
    threshold = time_threshold(suite)
    for h, b in pairs:
        t = suite.technique(h.cls)
        logs = list(trial_logs(h, b, t).values())
        shown, fig = time_verdict(logs, m, threshold, rule)
        out.append(Verdict("time", describe(h), "regression" if shown else "ok",
                           (f"shown slower by more than {threshold:g}%" if shown else "no slowdown beyond "
                            f"{threshold:g}% shown") + f" (one-sided {time_level(len(logs), m, rule):.4g} bounds, "
                           f"{len(logs)} trials)",
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
    """The one-sided level of a time row of n trials among m: 1 - TIME_ALPHA_k / m, TIME_ALPHA_k the
    share of TIME_ALPHA the rule's look at n spends, as its gain checks spend alpha (all of it with no
    rule, or one look)."""
    share = (1 - rule.level_at(n)) / rule.alpha if rule else 1.0
    return 1 - TIME_ALPHA * share / max(1, m)


def time_verdict(logs: list, m: int, threshold_pct: float, rule: Rule | None = None) -> tuple:
    """(shown slower?, Figure) for one configuration's per-trial ln(head/base), oriented as 'x better':
    a regression only when the upper one-sided bound at time_level (Bonferroni over the m configurations
    of the run, and over the rule's looks) lies below 1 - threshold."""
    fig = one_sided(logs, time_level(len(logs), m, rule))
    return bool(fig.known and math.log(fig.hi) < math.log(1 - threshold_pct / 100)), fig


def _shown_to_miss(v) -> bool:
    """A fixed-bar claim whose whole interval misses its bar (its optimistic end too)."""
    if v.figure is None or not v.figure.known or v.bar is None:
        return False
    return v.figure.hi < v.bar if v.need == ">=" else v.figure.lo > v.bar if v.need == "<=" else False


def gain_rows(by: dict, suite: Suite) -> list:
    """(group, technique, label, now logs, then logs) for every pair in both sides: compare.py's table of gains."""
    out = []
    for g, t, label, r, hb, br, bb in matched_rows(by["head"], by["base"], suite):
        out.append((g, t, label, trial_logs(r, hb, t), trial_logs(br, bb, t)))
    return out


# ---------------------------------------------------------------- the plugin's question at each look

def look(run: Run, suite: Suite) -> dict:
    """What the plugin asks at each look of a -Djmh.gate run (through scripts/plan.py, with the forks
    merged so far): {"open": [configurations still needed by an undecided check], "checks": [{"id",
    "params", "decided", "outcome", "n", "configurations"}]} (a gain check's id is its claim's). A configuration is {"benchmark", "mode", "params" (without
    the side), "side"}; a check's configurations are open on both sides. The run is judged as gate.py
    judges it (judge, on the fast-state figure when the run was made with -Djmh.gateFigure=best):
    gated claims' gains and every breadth row that can still move (hpb.breadth) hold their
    configurations open; nothing is open at the run's last look or once the cap has ended a group,
    where an undecided check is INCONCLUSIVE, nor once a check has been shown to fail."""
    props = ((run.provenance or {}).get("jmh") or {}).get("mavenProperties") or {}
    figure = ((run.provenance or {}).get("gate") or {}).get("forkFigure")
    if props.get("jmh.gateFigure") == "best" or figure == "best":
        run = fast_state(run)
    rule = rule_of(run)
    checks, wanted = [], {}
    for v in judge(run, suite):
        if v.outcome == "not_run":
            continue
        decided = bool(v.extra.get("decided", True))
        configs = [{"benchmark": key["benchmark"], "mode": key["mode"], "params": dict(key["params"]), "side": side}
                   for key in v.extra.get("configs", []) for side in SIDES]
        checks.append({"id": v.id if v.check == "gain" else f"{v.check}:{v.id or v.subject}",
                       "params": dict(v.params or {}), "decided": decided, "outcome": v.outcome,
                       "n": v.extra.get("n", 0), "configurations": configs})
        if not decided:
            for k in configs:
                wanted[json.dumps(k, sort_keys=True)] = k
    n = max((len(r.trials) for r in run.results), default=0)
    last = isinstance(rule.looks[-1], int) and n >= rule.looks[-1]
    # a check shown to fail (a loss beyond its threshold, decided at a look) fails the gate whatever the
    # others would say: the run stops there instead of measuring on for checks that cannot change that
    failed = any(c["decided"] and c["outcome"] == "regression" for c in checks)
    return {"open": [] if last or failed or capped(run) else list(wanted.values()), "checks": checks}
