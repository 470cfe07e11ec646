"""What a run of the trial protocol measures and how many trials each part gets; the plugin only executes
(forks, orders, keeps the clock and budget, merges, records). scripts/plan.py is the command. A group is one
comparison (a method's variants at one mode and other params, or a method pair; both sides of a two-commit run
join it); a step is a number of trials of some of its members, run phase by phase, priority 0 before 1. The
phases, and what -Djmh.trials, quick, budget and gate change: docs/protocol.md, "How many trials".
"""
from __future__ import annotations

import math

from . import rule as rules
from . import twocommit
from .config import Suite
from .model import MODES, InputError, Metric, Result, fmt_key_params, load
from .select import find_group, group_results, param_matches, resolve_params

CONTRACT = 1
SIDES = (None, "base", "head")


def _check_contract(request, what: str) -> dict:
    if not isinstance(request, dict):
        raise InputError(f"{what}: expected a JSON object")
    if request.get("contract") != CONTRACT:
        raise InputError(f"{what}: contract {request.get('contract')!r}, but scripts/plan.py speaks contract "
                         f"{CONTRACT}: build the plugin and the scripts of one checkout (mvn install)")
    return request


def _configurations(raw) -> list:
    """The request's configurations, checked, as (side, result without scores): what grouping reads."""
    if not isinstance(raw, list):
        raise InputError("schedule request: configurations: expected a list")
    out = []
    for i, c in enumerate(raw):
        where = f"schedule request: configurations[{i}]"
        if not isinstance(c, dict) or not isinstance(c.get("benchmark"), str) or "." not in c["benchmark"]:
            raise InputError(f"{where}: expected an object with a benchmark Class.method")
        if c.get("mode") not in MODES:
            raise InputError(f"{where}: unknown mode {c.get('mode')!r}")
        params = c.get("params") or {}
        if not isinstance(params, dict) or not all(isinstance(x, str) for kv in params.items() for x in kv):
            raise InputError(f"{where}: params: expected an object of names to string values")
        if c.get("side") not in SIDES:
            raise InputError(f"{where}: side must be base, head or null, not {c.get('side')!r}")
        metric = Metric(1.0, math.nan, math.nan, "ops/s")
        out.append((c.get("side"), Result(c["benchmark"], c["mode"], dict(params), metric, {})))
    if not out:
        raise InputError("schedule request: no configurations")
    return out


def _by_side(confs, chosen) -> dict:
    """side -> [(index, result)] of the chosen configurations, sides in order of first appearance."""
    out: dict = {}
    for i, (side, r) in enumerate(confs):
        if i in chosen:
            out.setdefault(side, []).append((i, r))
    return out


def _index(pairs, r) -> int:
    return next(i for i, x in pairs if x is r)


def _cited_members(pairs, t, c, suite: Suite):
    """(variant index, baseline index) of cited figure c among one side's configurations, or None: the
    pair report.py's cited_figure reads (in the first group find_group names)."""
    groups = find_group(group_results([r for _, r in pairs], suite), t.benchmark, c["method"], c.get("params") or {})
    a, b = (groups[0].result(c["variant"]), groups[0].result(c["baseline"])) if groups else (None, None)
    return None if a is None or b is None else (_index(pairs, a), _index(pairs, b))


def _named(ids, confs, suite: Suite) -> set:
    """The configurations the given claims and cited figures compare; bad input for an unknown id."""
    known = {c["id"]: ("claim", t, c) for t, c, _ in suite.all_claims()}
    known.update({c["id"]: ("cited", t, c) for t in suite.techniques for c in t.cited})
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise InputError(f"-Djmh.claims: no claim or cited figure {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(known))}")
    chosen, sides = set(), _by_side(confs, range(len(confs))).values()
    for kind, t, c in (known[i] for i in ids):
        if kind == "claim":  # its max or min among what the run can measure, as the judge resolves it
            pool = [r.params for _, r in confs if r.cls == t.benchmark and r.method == c.get("method")]
            chosen |= {k for k, (_, r) in enumerate(confs) if twocommit.names(t, c, r, pool)}
        else:
            chosen |= {m for pairs in sides for m in _cited_members(pairs, t, c, suite) or ()}
    return chosen


def _groups(confs, chosen, suite: Suite) -> list:
    """[{group (one side's select.Group), members, baseline}] in order of first appearance; both sides of a
    two-commit run join the same group."""
    out: dict = {}
    for pairs in _by_side(confs, chosen).values():
        for g in group_results([r for _, r in pairs], suite):
            key = (g.cls, g.name, g.mode, g.threads, tuple(sorted(g.params.items())), g.label_kind)
            e = out.setdefault(key, {"group": g, "members": [], "baseline": []})
            e["members"] += [_index(pairs, r) for _, r in g.rows]
            if g.base_result() is not None:
                e["baseline"].append(_index(pairs, g.base_result()))
    return [{**e, "members": sorted(e["members"]), "baseline": sorted(e["baseline"])} for e in out.values()]


def _min_trials(e, suite: Suite, confs) -> int:
    t = suite.technique(e["group"].cls)
    mins = [n for n in (t.min_trials(confs[m][1].method) for m in e["members"]) if n is not None] if t else []
    return max(mins, default=rules.MIN_TRIALS)


def _warmups(confs, chosen, suite: Suite) -> list:
    """Each chosen configuration's own warm-up: the first `warmup` entry of its technique file covering it."""
    out = []
    for i in sorted(chosen):
        _, r = confs[i]
        t = suite.technique(r.cls)
        entries = (t.raw.get("warmup") or []) if t else []
        pool = [x.params for _, x in confs if x.cls == r.cls and x.method == r.method]
        w = next((w for w in entries
                  if w["method"] == r.method and param_matches(r.params, resolve_params(w["params"], pool))), None)
        if w:
            words = ", ".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in w["params"].items())
            out.append({"configuration": i, "iterations": w["iterations"], "time": w["time"],
                        "label": f"{r.simple_class}.{r.method} [{words}]: {w['iterations']} x {w['time']}"})
    return out


def _gate(options: dict) -> dict:
    """The rule a -Djmh.gate run's looks follow, as its provenance records it (twocommit.rule_of reads it)."""
    trials = options.get("trials")
    looks, spend = ([trials], [rules.ALPHA]) if trials else (list(rules.LOOKS), list(rules.SPEND))
    return {"looks": looks, "alphaPerLook": spend, "levelPerLook": [1 - a for a in spend],
            "marginPct": rules.MARGIN_PCT, "alpha": rules.ALPHA,
            "forkFigure": "best" if options.get("gate_figure") == "best" else "mean"}


def _checks(e, confs, gained) -> list:
    """The gain claims a two-commit group can judge: it holds the claim's variant and baseline on both sides."""
    members = [confs[m] for m in e["members"]]
    return [c["id"] for t, c in gained
            if {(s, v) for s in ("base", "head") for v in (c["variant"], c["baseline"])}
            <= {(side, r.params.get(t.variant_param)) for side, r in members if twocommit.names(t, c, r)}]


def _steps(e, mine, minimum, fixed, two_commit) -> list:
    """A group's steps (docs/protocol.md), those of no trials left out; fixed: every member's trials."""
    members, cited = e["members"], rules.CITED_TRIALS
    prio = 0 if two_commit or any(c["headline"] for c in mine) else 1
    if fixed or not (mine or two_commit):
        steps = [{"phase": 1 if fixed else 3, "priority": 0, "members": members, "trials": fixed or minimum}]
    else:
        # a two-commit run compares every configuration with itself on the other side: all are cited
        first = sorted({m for c in mine for m in (c["variant"], c["baseline"])}) if mine else members
        rest = [m for m in members if m not in first]
        steps = [{"phase": 1, "priority": prio, "members": first, "trials": cited},
                 {"phase": 2, "priority": prio, "members": members, "trials": max(0, minimum - cited)}]
        if rest:
            steps.append({"phase": 2, "priority": prio, "members": sorted(set(rest) | set(e["baseline"])),
                          "trials": min(cited, minimum)})
    return [s for s in steps if s["trials"] > 0]


def schedule(request, suite: Suite) -> dict:
    """The answer to a schedule request (its fields: scripts/plan.py)."""
    request = _check_contract(request, "schedule request")
    confs = _configurations(request.get("configurations"))
    options = request.get("options") or {}
    if not isinstance(options, dict):
        raise InputError("schedule request: options: expected an object")
    ids, gate, trials = options.get("claims"), bool(options.get("gate")), options.get("trials")
    if ids is not None and (not isinstance(ids, list) or not ids or not all(isinstance(x, str) and x for x in ids)):
        raise InputError("schedule request: options.claims: expected a non-empty list of ids, or null")
    if trials is not None and (isinstance(trials, bool) or not isinstance(trials, int) or trials < 1):
        raise InputError("schedule request: options.trials: expected a positive whole number, or null")
    two_commit = any(side is not None for side, _ in confs)
    if gate and not two_commit:
        raise InputError("-Djmh.gate judges two commits side by side: give the other one with -Djmh.against=REF")
    gained = [(t, c) for t, c in twocommit.gained_pairs(suite) if ids is None or c["id"] in ids] if gate else []
    if ids is not None:
        chosen = _named(ids, confs, suite)
    elif gate:
        chosen = {k for k, (_, r) in enumerate(confs) if any(twocommit.names(t, c, r) for t, c in gained)}
    else:
        chosen = set(range(len(confs)))
    if not chosen:
        raise InputError(("-Djmh.claims" if ids is not None else "-Djmh.gate") + ": no configuration the "
                         + ("ids name" if ids is not None else "gain claims name") + " is in the selection"
                         + (" on both sides" if two_commit else ""))
    entries = _groups(confs, chosen, suite)
    pairs = _by_side(confs, chosen).get(None, [])  # only a one-commit run cites (a gate run has two)
    cited = [{"id": c["id"], "group": next(e for e in entries if got[0] in e["members"]), "variant": got[0],
              "baseline": got[1], "headline": c["id"] == (t.answer or {}).get("cite")}
             for t in suite.techniques for c in t.cited
             if not two_commit and (got := _cited_members(pairs, t, c, suite))]
    rule = _gate(options)
    fixed = trials if trials is not None and not options.get("budget") else None
    groups = []
    for n, e in enumerate(entries, 1):
        # a gate group runs at least to its first look; the others to their technique's minimum
        minimum = rule["looks"][0] if gate else trials if trials is not None else _min_trials(e, suite, confs)
        mine, g = [c for c in cited if c["group"] is e], e["group"]
        groups.append({"id": f"g{n:02d}", "label": f"{g.simple_class}.{g.name} {fmt_key_params(g.params)}".rstrip(),
                       "params": dict(g.params), "members": e["members"], "baseline": e["baseline"],
                       "min_trials": minimum, "cited": [c["id"] for c in mine],
                       "headline": any(c["headline"] for c in mine),
                       "checks": _checks(e, confs, gained) if gate else [],
                       "steps": _steps(e, mine, minimum, rule["looks"][-1] if gate else fixed, two_commit)})
        for c in mine:
            c["group"] = groups[-1]["id"]
    if gate:
        words = (f"the gain claims' configurations on both sides, judged at looks of {rule['looks']} trials "
                 f"(scripts/suite.json, rule); a group stops at the first look that decides every check in it")
    elif fixed:
        words = f"{trials} trial(s) of every group"
    else:
        words = (f"phase 1: the configurations each cited figure compares, {rules.CITED_TRIALS} trials, headline "
                 f"figures first; phase 2: the cited groups to their technique's minimum; phase 3: every other "
                 f"group to its minimum"
                 + (f" ({trials} trials)" if trials is not None else " (min_trials in scripts/techniques/*.json)"))
    return {"contract": CONTRACT, "groups": groups, "cited": cited, "warmups": _warmups(confs, chosen, suite),
            "gate": rule if gate else None, "describe": words}


def look(request, suite: Suite) -> dict:
    """The answer to a look request: twocommit.look on the interim result the plugin merged."""
    request = _check_contract(request, "look request")
    if not isinstance(request.get("result"), str):
        raise InputError("look request: result: expected the path of the merged JMH JSON")
    return {"contract": CONTRACT, **twocommit.look(load(request["result"]), suite)}
