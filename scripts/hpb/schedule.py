"""What a run of the trial protocol measures and how many trials each part gets: the plugin sends the
configurations JMH enumerated and the run's options, this module answers (scripts/plan.py is the
command; docs/protocol.md the protocol). The plugin then only executes: it forks, orders, keeps the
clock and the budget, merges and records. Every rule is here or in the modules it calls: which
configurations a claim or a cited figure compares (twocommit.names, select.find_group, the same
functions the judges use), how they group (select.group_results), the trial counts (suite.json's
`schedule`, each technique file's `min_trials`), a configuration's own warm-up (`warmup`) and, for a
-Djmh.gate run, the looks and their alpha (suite.json's `rule`) and the checks each group carries.

A group is one comparison: the variants of one method at the same mode and other params, or the
methods of a method pair; in a two-commit run both sides of every configuration join it. A step is a
number of trials of one group that run the same members; the plugin runs the steps phase by phase,
and within a phase the steps of priority 0 before those of priority 1:

- a default run (neither -Djmh.trials nor -Djmh.gate): phase 1 gives the configurations every cited
  figure compares `cited_trials` trials, the groups holding a technique's headline figure
  (`answer.cite`) first; phase 2 brings the cited groups to their technique's `min_trials` (the rest
  of a group's members run with its baseline, so that each of their forks has a partner in its
  trial); phase 3 brings every other group to its minimum. No group stops or extends on its own
  interval: the counts are fixed before the run (set from the pilots), the budget only cuts them short.
- -Djmh.trials=N (no budget), -Djmh.quick: N trials of every group.
- -Djmh.trials=N with -Djmh.budget: the default run with N as every group's minimum.
- -Djmh.gate: the gain claims' configurations on both sides, one step up to the last look; the
  plugin judges at each look through look() (twocommit.look).
"""
from __future__ import annotations

import math

from . import rule as rules
from . import twocommit
from .config import Suite
from .model import MODES, InputError, Metric, Result, fmt_key_params
from .select import find_group, group_results, param_matches, resolve_params

CONTRACT = 1
SIDES = (None, "base", "head")


def _check_contract(request, what: str) -> dict:
    if not isinstance(request, dict):
        raise InputError(f"{what}: expected a JSON object")
    if request.get("contract") != CONTRACT:
        raise InputError(f"{what}: contract {request.get('contract')!r}, but scripts/plan.py speaks contract {CONTRACT}: "
                         "build the plugin and the scripts of one checkout (mvn install)")
    return request


def _configurations(raw) -> list:
    """The request's configurations as results without scores (what grouping and selection read), checked."""
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
        if not isinstance(params, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in params.items()):
            raise InputError(f"{where}: params: expected an object of names to string values")
        if c.get("side") not in SIDES:
            raise InputError(f"{where}: side must be base, head or null, not {c.get('side')!r}")
        out.append((c.get("side"), Result(c["benchmark"], c["mode"], dict(params), Metric(1.0, math.nan, math.nan, "ops/s"), {})))
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
    """(variant index, baseline index) of cited figure c among one side's configurations, or None:
    the pair report.py's cited_figure reads (the first group find_group names)."""
    groups = find_group(group_results([r for _, r in pairs], suite), t.benchmark, c["method"], c.get("params") or {})
    for g in groups[:1]:
        a, b = g.result(c["variant"]), g.result(c["baseline"])
        if a is not None and b is not None:
            return _index(pairs, a), _index(pairs, b)
    return None


def _known_ids(suite: Suite) -> dict:
    """id -> ('claim', technique, claim) or ('cited', technique, figure) for every id -Djmh.claims takes."""
    out = {}
    for t, c, _ in suite.all_claims():
        out[c["id"]] = ("claim", t, c)
    for t in suite.techniques:
        for c in t.cited:
            out[c["id"]] = ("cited", t, c)
    return out


def _named(ids, confs, suite: Suite) -> set:
    """The configurations the given claims and cited figures compare; bad input for an unknown id."""
    known = _known_ids(suite)
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise InputError(f"-Djmh.claims: no claim or cited figure {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    everything = set(range(len(confs)))
    chosen = set()
    for i in ids:
        kind, t, c = known[i]
        if kind == "claim":
            chosen |= {k for k, (_, r) in enumerate(confs) if twocommit.names(t, c, r)}
        else:
            for pairs in _by_side(confs, everything).values():
                got = _cited_members(pairs, t, c, suite)
                if got:
                    chosen |= set(got)
    return chosen


def _group_key(g) -> tuple:
    return (g.cls, g.name, g.mode, g.threads, tuple(sorted(g.params.items())), g.label_kind)


def _groups(confs, chosen, suite: Suite) -> list:
    """[{key, group (one side's select.Group), members, baseline}] in order of first appearance; each
    side of a two-commit run joins the same group."""
    out: dict = {}
    for pairs in _by_side(confs, chosen).values():
        for g in group_results([r for _, r in pairs], suite):
            e = out.setdefault(_group_key(g), {"group": g, "members": [], "baseline": []})
            e["members"] += [_index(pairs, r) for _, r in g.rows]
            if g.base_result() is not None:
                e["baseline"].append(_index(pairs, g.base_result()))
    for e in out.values():
        e["members"].sort()
        e["baseline"].sort()
    return list(out.values())


def _min_trials(e, suite: Suite, confs) -> int:
    t = suite.technique(e["group"].cls)
    mins = [t.min_trials(confs[m][1].method) for m in e["members"]] if t else []
    mins = [n for n in mins if n is not None]
    return max(mins) if mins else rules.MIN_TRIALS


def _label(g) -> str:
    return f"{g.simple_class}.{g.name} {fmt_key_params(g.params)}".rstrip()


def _warmups(confs, chosen, suite: Suite) -> list:
    """Each chosen configuration's own warm-up from its technique file (the first `warmup` entry that
    covers it), the same on both sides of a two-commit run."""
    out = []
    for i in sorted(chosen):
        _, r = confs[i]
        t = suite.technique(r.cls)
        for w in (t.raw.get("warmup") or []) if t else []:
            if w["method"] != r.method:
                continue
            pool = [x.params for _, x in confs if x.cls == r.cls and x.method == r.method]
            if param_matches(r.params, resolve_params(w["params"], pool)):
                words = ", ".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in w["params"].items())
                out.append({"configuration": i, "iterations": w["iterations"], "time": w["time"],
                            "label": f"{r.simple_class}.{r.method} [{words}]: {w['iterations']} x {w['time']}"})
                break
    return out


def _gate(options: dict) -> dict:
    """The rule a -Djmh.gate run schedules its looks by, as its provenance records it (twocommit.rule_of reads it)."""
    trials = options.get("trials")
    looks, spend = ([trials], [rules.ALPHA]) if trials else (list(rules.LOOKS), list(rules.SPEND))
    return {"looks": looks, "alphaPerLook": spend, "levelPerLook": [1 - a for a in spend], "marginPct": rules.MARGIN_PCT,
            "alpha": rules.ALPHA, "forkFigure": "best" if options.get("gate_figure") == "best" else "mean"}


def _checks(e, confs, gained) -> list:
    """The gain claims a two-commit group can judge: it holds the claim's variant and baseline on both sides."""
    out = []
    for t, c in gained:
        have = set()
        for m in e["members"]:
            side, r = confs[m]
            if twocommit.names(t, c, r):
                have.add((side, r.params.get(t.variant_param)))
        if {(s, v) for s in ("base", "head") for v in (c["variant"], c["baseline"])} <= have:
            out.append(c["id"])
    return out


def schedule(request, suite: Suite) -> dict:
    """The answer to a schedule request (scripts/plan.py; the exact fields are in its docstring)."""
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
    cited = []
    if not two_commit and not gate:
        pairs = _by_side(confs, chosen).get(None, [])
        for t in suite.techniques:
            for c in t.cited:
                got = _cited_members(pairs, t, c, suite)
                if got:
                    e = next(e for e in entries if got[0] in e["members"])
                    cited.append({"id": c["id"], "group": e, "variant": got[0], "baseline": got[1],
                                  "headline": c["id"] == (t.answer or {}).get("cite")})
    fixed = trials is not None and not options.get("budget")
    groups = []
    for n, e in enumerate(entries, 1):
        gid = f"g{n:02d}"
        # a gate group runs at least to its first look; the others to their technique's minimum
        minimum = _gate(options)["looks"][0] if gate else trials if trials is not None else _min_trials(e, suite, confs)
        mine = [c for c in cited if c["group"] is e]
        headline = any(c["headline"] for c in mine)
        members = e["members"]
        if gate:
            steps = [{"phase": 1, "priority": 0, "members": members, "trials": _gate(options)["looks"][-1]}]
        elif fixed:
            steps = [{"phase": 1, "priority": 0, "members": members, "trials": trials}]
        elif mine or two_commit:
            # a two-commit run compares every configuration with itself on the other side: all are cited
            first = sorted({m for c in mine for m in (c["variant"], c["baseline"])}) if mine else members
            rest = [m for m in members if m not in first]
            prio = 0 if headline or two_commit else 1
            steps = [{"phase": 1, "priority": prio, "members": first, "trials": rules.CITED_TRIALS},
                     {"phase": 2, "priority": prio, "members": members, "trials": max(0, minimum - rules.CITED_TRIALS)}]
            if rest:
                steps.append({"phase": 2, "priority": prio, "members": sorted(set(rest) | set(e["baseline"])),
                              "trials": min(rules.CITED_TRIALS, minimum)})
        else:
            steps = [{"phase": 3, "priority": 0, "members": members, "trials": minimum}]
        groups.append({"id": gid, "label": _label(e["group"]), "params": dict(e["group"].params),
                       "members": members, "baseline": e["baseline"],
                       "min_trials": minimum, "cited": [c["id"] for c in mine], "headline": headline,
                       "checks": _checks(e, confs, gained) if gate else [],
                       "steps": [s for s in steps if s["trials"] > 0]})
        for c in mine:
            c["group"] = gid
    if gate:
        words = (f"the gain claims' configurations on both sides, judged at looks of {_gate(options)['looks']} trials "
                 f"(scripts/suite.json, rule); a group stops at the first look that decides every check in it")
    elif fixed:
        words = f"{trials} trial(s) of every group"
    else:
        words = (f"phase 1: the configurations each cited figure compares, {rules.CITED_TRIALS} trials, headline figures "
                 f"first; phase 2: the cited groups to their technique's minimum; phase 3: every other group to its minimum"
                 + (f" ({trials} trials)" if trials is not None else " (min_trials in scripts/techniques/*.json)"))
    return {"contract": CONTRACT, "groups": groups, "cited": cited, "warmups": _warmups(confs, chosen, suite),
            "gate": _gate(options) if gate else None, "describe": words}


def look(request, suite: Suite) -> dict:
    """The answer to a look request: twocommit.look on the interim result the plugin merged."""
    from .model import load
    request = _check_contract(request, "look request")
    if not isinstance(request.get("result"), str):
        raise InputError("look request: result: expected the path of the merged JMH JSON")
    return {"contract": CONTRACT, **twocommit.look(load(request["result"]), suite)}
