#!/usr/bin/env python3
"""The JMH passes CI makes, what each one judges and what it costs, derived from the technique files.

    python3 scripts/ci_plan.py [--all]              # a pull request's passes (.ci/run reads stdout)
    python3 scripts/ci_plan.py --minutes            # minutes per technique, from measured fork durations
    python3 scripts/ci_plan.py --scheduled          # the rotation, two scheduled runs a day (every cited figure, JDK 17 and 25, weekly)
    python3 scripts/ci_plan.py --scheduled --night N [--jdk 25]   # one night's passes (or HPB_NIGHT=N HPB_JDK=25; one runner a JDK)
    python3 scripts/ci_plan.py --claims-log [--base REF]           # removed or loosened claims, a moved baseline
    python3 scripts/ci_plan.py --judge [-- ARGS]    # gate.py's options for a gate pass (made with ARGS), one a line

Each stdout line is one `mvn jmh:run`, tab-separated: pass name, kind (gate, instrument, claims, new,
unchanged), the ids it judges, the arguments; what each judges, what is left to the scheduled run and why go
to stderr. The kinds, and what a pull request judges of each technique: docs/gate.md, "The passes".
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys

from hpb import breadth, cli, config, evidence, figures, scope as scoping
from hpb.model import REPO, RESULTS_DIR, TIME_UNITS, InputError, load, unit_kind
from hpb.rule import FAST_STATE_MIN_ITERATIONS, LOOKS

BASELINE_PROVENANCE = RESULTS_DIR / "baseline.provenance.json"
CLAIMS_LOG = REPO / "scripts" / "claims-log.json"
BARS = ("min_speedup", "max_ratio", "min_ratio", "within_pct")
LOOSER = {"min_speedup": -1, "min_ratio": -1, "max_ratio": 1, "within_pct": 1}  # the direction that loosens a bar


def baseline_commit(path=BASELINE_PROVENANCE) -> str:
    """The commit the committed baseline run measured: the gate's other side."""
    try:
        commit = json.loads(path.read_text(encoding="utf-8"))["git"]["commit"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{path}: cannot read the baseline's commit ({e})")
    if not isinstance(commit, str) or len(commit) < 7:
        raise InputError(f"{path}: git.commit is not a commit id: {commit!r}")
    return commit


def _git(*args) -> str | None:
    p = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def ci_settings(suite) -> dict:
    ci = suite.raw.get("ci") or {}
    for k in ("pr", "scheduled", "instrument"):
        if not isinstance(ci.get(k), dict):
            raise InputError(f"{suite.path}: ci.{k} is missing")
    return ci


def _arg(args, name: str, default=None):
    """The value of -Djmh.<name>=... among mvn arguments."""
    return next((a.split("=", 1)[1] for a in args if a.startswith(f"-Djmh.{name}=")), default)


# ---------------------------------------------------------------- what a technique's passes judge

def all_ids(t) -> list:
    return [s["id"] for s in breadth.subjects(t)]


def headline_ids(t) -> list:
    """The headline figure (answer.cite) and the gated claims (ci: gate)."""
    ids = [t.answer["cite"]] if t.answer.get("cite") else []
    return ids + [c["id"] for c in t.claims if c.get("ci") == "gate" and c["id"] not in ids]


# ---------------------------------------------------------------- minutes, from measured forks

def gate_window(t, gate_args) -> tuple | None:
    """(iterations, seconds) a gate fork of technique t (None: the gate's) measures; None: the classes' own."""
    w = t.raw.get("gate_window") if t is not None else None
    if w:
        return (int(w["iterations"]), _seconds(w["time"])) if "iterations" in w else None
    i, r = _arg(gate_args, "i"), _arg(gate_args, "r")
    return None if i is None or r is None else (int(i), _seconds(r))


def window_args(t, gate_args) -> list:
    """The gate's arguments for technique t: its file's gate_window in place of -Djmh.i and -Djmh.r."""
    w = t.raw.get("gate_window")
    if not w:
        return list(gate_args)
    own = [f"-Djmh.i={int(w['iterations'])}", f"-Djmh.r={w['time'].replace(' ', '')}"] if "iterations" in w else []
    # a best of few long iterations is no fast state (rule: fast_state_min_iterations): such forks are judged
    # by their means, as are the classes' own windows (none measures 50 iterations)
    figure = [] if own and int(w["iterations"]) >= FAST_STATE_MIN_ITERATIONS else ["-Djmh.gateFigure=mean"]
    dropped = ("-Djmh.i=", "-Djmh.r=") + (("-Djmh.gateFigure=",) if figure else ())
    return [a for a in gate_args if not a.startswith(dropped)] + figure + own


def judge_options(suite, pass_args: list) -> list:
    """gate.py's options (suite.json) for a gate pass made with these mvn arguments: its -Djmh.gateFigure's."""
    out, figure = list(suite.gate_judge()), _arg(pass_args, "gateFigure", "mean")
    if not pass_args:
        return out
    i = out.index("--fork-figure") if "--fork-figure" in out else len(out)
    return out[:i] + out[i + 2:] + (["--fork-figure", figure] if figure != "mean" else [])


class Minutes:
    """Estimated seconds of one gate trial (both sides) per configuration (docs/gate.md, "Minutes"). Work around
    each iteration (a JFR window, a set-up) is in real gate passes' forks, not in the full runs' model."""

    def __init__(self, suite, gate_args: list, jdk: str = figures.REFERENCE_JDK):
        self.suite, self.jdk, self.gate_args = suite, jdk, list(gate_args)
        self.window = gate_window(None, gate_args)
        self.forks: dict = {}  # (benchmark, params) -> [(fork seconds, measured seconds as run, seconds an op)]
        self.observed: dict = {}  # ((benchmark, params), window) -> [seconds of a real gate fork]
        self.results, sources, runs = [], {}, []  # sources: (benchmark, params) -> the run its forks come from
        for f in sorted(RESULTS_DIR.glob("2*.json"), reverse=True):
            if f.name.endswith(".provenance.json"):
                continue
            try:
                run = load(f)
            except InputError:
                continue
            if run.protocol == "trials" and run.trials_engine >= evidence.TRIALS_ENGINE and evidence.full_run(run)[0]:
                runs.append((f, run))
        # this JDK's runs first (pull requests gate on JDK 17; a JDK 25 run times latency's summary at 0.4x
        # JDK 17's), another JDK's only where this one has none
        runs.sort(key=lambda x: {r.env.jdk_major for r in x[1].results} != {jdk})
        for f, run in runs:
            try:
                measured = {_key(r["benchmark"], r.get("params")):
                            (r["measurementIterations"], _seconds(r["measurementTime"]), _op_seconds(r))
                            for r in json.loads(f.read_text(encoding="utf-8"))}
            except (ValueError, KeyError, TypeError):
                continue
            for s in (run.provenance.get("trials") or {}).get("schedule") or []:
                if not isinstance(s.get("seconds"), (int, float)):
                    continue
                key = _key(s["benchmark"], s["params"])
                if sources.setdefault(key, f.name) != f.name:  # one run's forks a configuration
                    continue
                n, r, op = measured.get(key, (0, 0.0, 0.0))
                self.forks.setdefault(key, []).append((s["seconds"], n * max(r, op), op))
            self.results += [r for r in run.results if _key(r.benchmark, r.params) in self.forks]
        for f in sorted((RESULTS_DIR / "ci").glob("*.summary.json")):
            try:
                d = json.loads(f.read_text(encoding="utf-8"))
                props = d["provenance"]["jmh"].get("mavenProperties") or {}
                version = str((d["provenance"].get("jdk") or {}).get("version", ""))
                i, r = props.get("jmh.i"), props.get("jmh.r")  # neither: the classes' own (a gate_window)
                if (i is None) != (r is None) or version.split(".")[0] != jdk:
                    continue
                window = None if i is None else (int(i), _seconds(r))
                for i, *_, seconds in d.get("schedule") or []:
                    r = d["results"][i]
                    key = _key(r["benchmark"], {k: v for k, v in (r.get("params") or {}).items() if k != "side"})
                    self.observed.setdefault((key, window), []).append(float(seconds))
            except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
                continue

    def fork(self, key, window) -> float:
        """Seconds of one gate fork of this configuration at this window (iterations, seconds)."""
        seen = self.observed.get((key, window))
        if seen:  # the median: one pass made on a loaded machine (forks 5-15x longer) does not move it
            return statistics.median(seen)
        forks = self.forks[key]
        if window is None:
            return sum(s for s, _, _ in forks) / len(forks)
        n, r = window
        return sum(max(1.0, s - as_run + n * max(r, op)) for s, as_run, op in forks) / len(forks)

    def configurations(self, t, ids) -> set:
        return {_key(r.benchmark, r.params) for s in breadth.subjects(t) if s["id"] in ids
                for _, v, b in breadth.pairs(self.results, t, s, self.suite) for r in (v, b)}

    def minutes(self, t, ids, trials: int) -> float | None:
        """Minutes of these subjects' configurations at these trials, both sides; None when unmeasured."""
        keys, w = self.configurations(t, ids), gate_window(t, self.gate_args)
        # fsum: exactly rounded in any set order (a plain sum followed the hash seed, and a night's budget with it)
        return math.fsum(2 * self.fork(k, w) for k in keys) * trials / 60 if keys else None


def _key(benchmark: str, params) -> tuple:
    return benchmark, tuple(sorted((params or {}).items()))


def _op_seconds(r: dict) -> float:
    """Seconds one operation takes a thread, from a JMH result's score (0 where its mode does not say)."""
    pm = r.get("primaryMetric") or {}
    try:
        score = float(pm.get("score"))
    except (TypeError, ValueError):
        return 0.0
    (kind, factor), mode = unit_kind(str(pm.get("scoreUnit", ""))), r.get("mode")
    if score > 0 and mode == "thrpt" and kind == "rate":
        return int(r.get("threads") or 1) / (score * factor)
    return score * factor if score > 0 and mode in ("avgt", "sample") and kind == "time" else 0.0


def _seconds(text: str) -> float:
    m = re.fullmatch(r"\s*([0-9.]+)\s*(ns|us|ms|s|m|min)?\s*", text)
    return float(m.group(1)) * {**TIME_UNITS, None: 1}[m.group(2)] if m else 0.0


def fmt_min(x) -> str:
    return "unmeasured" if x is None else f"{x:.0f} min"


# ---------------------------------------------------------------- a pull request's passes

def reach(minutes, t, i, near: dict) -> float:
    """How near a change comes to figure or claim i (near: scope.variants_reached): its configurations' nearest
    variant (a parameter's value naming it) or benchmark method, inf where none is reached."""
    names = {str(v) for b, params in minutes.configurations(t, [i]) for v in [b.rsplit(".", 1)[-1], *dict(params).values()]}
    return min([near[v] for v in names if v in near] + [near.get("*", math.inf)])


def first_ids(t, minutes, near: dict | None, bodies: bool = False) -> list:
    """What a pull request judges of technique t before anything else: its headline figure and gated claims, or,
    where the change is to method bodies alone (bodies: scope.changed_members knew each changed class's methods)
    and reaches some of its figures (near), those of them it reaches, else the nearest figure it reaches: a
    figure whose code is the same on both sides is left to the scheduled run."""
    heads = headline_ids(t)
    reached = [i for i in all_ids(t) if bodies and near and minutes and reach(minutes, t, i, near) < math.inf]
    if not reached:
        return heads
    return [i for i in heads if i in reached] or [min(reached, key=lambda i: reach(minutes, t, i, near))]


def filled(t, ids: list, minutes, trials: int, cap: float, near: dict | None = None) -> list:
    """ids, then each other cited figure and claim of the technique that still fits its minutes: those whose
    variants the change comes nearest to first (near: scope.variants_reached), the headline figure and gated
    claims first among equals, then its file's order."""
    heads = headline_ids(t)
    order = sorted(all_ids(t), key=lambda i: (reach(minutes, t, i, near), i not in heads)) if near else all_ids(t)
    out = list(ids)
    for i in order if minutes else []:
        if i not in out:
            m = minutes.minutes(t, out + [i], trials)
            if m is not None and m <= cap:
                out.append(i)
    return out


def gate_passes(techniques, chosen: dict, gate: dict, against: str, minutes, trials: int) -> list:
    """The gate passes for these techniques' chosen ids: one per window (the gate's, each technique file's
    own gate_window: a JMH run measures one), the gate's -Djmh.budget shared by their estimated minutes."""
    by_args: dict = {}
    for t in (t for t in techniques if chosen.get(t.id)):
        ids, tids, mins = by_args.setdefault(tuple(window_args(t, gate["args"])), ([], [], []))
        ids.extend(chosen[t.id])
        tids.append(t.id)
        mins.append((minutes.minutes(t, chosen[t.id], trials) if minutes else None) or 0.0)
    budget = _arg(gate["args"], "budget")
    total = sum(sum(m) for _, _, m in by_args.values())
    out = []
    for args, (ids, tids, mins) in by_args.items():
        name = "gate" if list(args) == list(gate["args"]) else f"gate-{'-'.join(tids)}"
        if len(by_args) > 1 and budget and total > 0:
            share = max(5, int(_seconds(budget) / 60 * sum(mins) / total))
            args = [a for a in args if not a.startswith("-Djmh.budget=")] + [f"-Djmh.budget={share}m"]
        out.append((name, "gate", ids, [against, "-Djmh.gate", f"-Djmh.claims={','.join(ids)}", *args]))
    return out


def plan(suite, base: str | None = None, scope: scoping.Scope | None = None, head: str | None = None,
         minutes: Minutes | None = None, notes: list | None = None) -> list:
    """[(pass, kind, [ids], [mvn args])] for a pull request; notes collects what each judges and why."""
    ci, passes = ci_settings(suite), suite.ci_passes
    notes = notes if notes is not None else []
    gate = next(p for p in passes.values() if p.get("gate"))
    against = f"-Djmh.against={base or baseline_commit()}"
    everything = scope is not None and scope.covers(scoping.EVERY)
    new = set() if scope is None else set(scope.new)
    out = []

    def instrument(why: str) -> None:
        """The instrument's A/A pass (this commit on both sides), first among the passes."""
        ids = list(ci["instrument"]["claims"])
        out.insert(0, ("instrument", "instrument", ids,
                       [f"-Djmh.against={head or _git('rev-parse', 'HEAD').strip()}", "-Djmh.gate",
                        f"-Djmh.claims={','.join(ids)}", *gate["args"]]))
        notes.append(f"instrument: {why}: an A/A pass of this tree's instrument on {', '.join(ids)} "
                     "(this commit on both sides)")

    if everything or (scope is not None and scope.instrument):
        instrument(f"{scope.instrument or scope.why.get(scoping.EVERY, '')} differs")
    if everything:
        notes.append(f"every technique: {scope.why.get(scoping.EVERY) or scope.error} reaches all of them; their "
                     "figures are left to the scheduled run (python3 scripts/ci_plan.py --scheduled)")
    pr = ci["pr"]
    trials, each, cap = int(pr["trials"]), float(pr["minutes_per_technique"]), float(pr["total_minutes"])
    gated = [t for t in suite.techniques
             if not everything and (scope is None or scope.covers(t.id)) and t.id not in new]
    est = {t.id: minutes.minutes(t, all_ids(t), trials) if minutes else None for t in gated}
    # each technique whole where it fits its minutes, else its headline and gated claims
    near = {t.id: scoping.variants_reached(t.package_dir, scope.paths.get(t.id, ()), members=scope.members)
            if scope is not None else None for t in gated}
    bodies = {t.id: scope is not None and bool(scope.paths.get(t.id)) and all(p in scope.members for p in scope.paths[t.id])
              for t in gated}
    first = {t.id: first_ids(t, minutes, near[t.id], bodies[t.id]) for t in gated}
    chosen = {t.id: all_ids(t) if est[t.id] is not None and est[t.id] <= each
              else filled(t, first[t.id], minutes, trials, each, near[t.id]) for t in gated}
    part = lambda t: minutes.minutes(t, chosen[t.id], trials) if minutes else None  # noqa: E731
    total = sum(m for m in map(part, gated) if m is not None)
    if scope is not None and total > cap and any(chosen[t.id] != first[t.id] for t in gated):
        # together over the pull request's minutes: every technique's headline and gated claims first
        notes.append(f"the whole of the techniques reached needs about {total:.0f} min at {trials} trials, over the pull "
                     f"request's {cap:.0f}: each is judged on its headline and gated claims (those the change reaches)")
        chosen = dict(first)
        total = sum(m for m in map(part, gated) if m is not None)
    for t in gated:
        ids = chosen[t.id]
        left = [i for i in all_ids(t) if i not in ids]
        if first[t.id] != headline_ids(t):
            notes.append(f"{t.id}: the change reaches none of the configurations behind "
                         f"{', '.join(i for i in headline_ids(t) if i not in first[t.id])} (the methods it changes: "
                         f"{', '.join(sorted(m for p in scope.paths.get(t.id, ()) for m in scope.members.get(p, ())))}): "
                         "the figures it reaches come first")
        elif ids not in (headline_ids(t), all_ids(t)) and ids != filled(t, headline_ids(t), minutes, trials, each):
            nearest = min(near[t.id].values())
            notes.append(f"{t.id}: the change comes nearest to "
                         f"{', '.join(sorted(v for v, k in near[t.id].items() if k == nearest and v != '*')) or 'every configuration'}"
                         ": the figures that run it are filled in first")
        notes.append(f"{t.id} ({(scope.why if scope else {}).get(t.id, 'all')}): the gate judges {', '.join(ids)}"
                     + (f" (about {fmt_min(part(t))} at {trials} trials)" if minutes else "")
                     + (f"; left to the scheduled run, the whole technique needing {fmt_min(est[t.id])} at "
                        f"{trials} trials: {', '.join(left)}" if left else ""))
    if gated and scope is not None and total > cap:
        # Gating every technique it reaches would not fit CI: treated as a change reaching every one.
        notes.append(f"every technique: the gate's checks for {len(gated)} techniques need about {total:.0f} min "
                     f"at {trials} trials, over the pull request's {cap:.0f}: treated as a change reaching "
                     "every technique, their figures left to the scheduled run (python3 scripts/ci_plan.py --scheduled)")
        gated = []
        if not any(o[0] == "instrument" for o in out):
            instrument("a change reaching every technique")
    out += gate_passes(gated, chosen, gate, against, minutes, trials)
    for name, p in passes.items():
        kept = [c["id"] for t in suite.techniques for c in t.claims
                if c["ci"] == name and (scope is None or scope.covers(t.id)) and t.id not in new
                ] if not p.get("gate") and name != "new" else []
        if kept:
            out.append((name, "claims", kept, [f"-Djmh.claims={','.join(kept)}", *p["args"]]))
    for t in (t for t in suite.techniques if t.id in new):
        claims = [c["id"] for c in t.claims]
        if claims:
            out.append(("new", "new", claims, [f"-Djmh.claims={','.join(claims)}", *passes["new"]["args"]]))
            notes.append(f"{t.id}: new (the baseline lacks it): its claims' bars on this commit's forks: {', '.join(claims)}")
        else:
            notes.append(f"{t.id}: new, with no claim to judge on this commit alone")
    if not out:
        ids = [c["id"] for t in suite.techniques for c in t.claims if c.get("ci") == "gate"]
        out.append(("gate", "unchanged", ids, [against, *gate["unchanged"]]))
        notes.append("no technique's code, benchmark, claims or build differs from the baseline's commit: "
                     "a short two-commit run shows the comparison still works, judging nothing")
    return out


# ---------------------------------------------------------------- the scheduled rotation

def rotation(suite, minutes: Minutes) -> tuple:
    """(nights, unplaced): nights = [[(jdk, technique, ids, minutes)]], each JDK's minutes of a night (its own
    runner's, timed from its own forks where it has any) at most ci.scheduled.night_minutes."""
    sc = ci_settings(suite)["scheduled"]
    cap, trials = float(sc["night_minutes"]), int(sc["trials"])
    items, unplaced = [], []
    for jdk in sc["jdks"]:
        if jdk != minutes.jdk:
            minutes = Minutes(suite, minutes.gate_args, jdk)
        for t in suite.techniques:
            chunk, chunk_min = [], 0.0
            for i in all_ids(t):
                m = minutes.minutes(t, [i], trials)
                if m is None:
                    unplaced.append((jdk, t.id, i, "no full run measured its configurations"))
                    continue
                whole = minutes.minutes(t, chunk + [i], trials)
                if chunk and whole > cap:
                    items.append((jdk, t.id, chunk, chunk_min))
                    chunk, whole = [], m
                if whole > cap:  # (the chunk is empty)
                    # alone over a night at its trials: a night of its own, where the budget brings the
                    # rule's look forward to the trials that fit (the first look's at least), else unplaced
                    first = minutes.minutes(t, [i], LOOKS[0])
                    if first <= cap:
                        items.append((jdk, t.id, [i], cap))
                    else:
                        unplaced.append((jdk, t.id, i, f"{first:.0f} min alone at {LOOKS[0]} trials, over a night's {cap:g}"))
                    continue
                chunk, chunk_min = chunk if i in chunk else chunk + [i], whole  # a cited id may be a claim's too
            if chunk:
                items.append((jdk, t.id, chunk, chunk_min))
    nights: list = []
    for jdk in sc["jdks"]:  # first fit, longest first, within each JDK's runner
        own: list = []
        for item in sorted((x for x in items if x[0] == jdk), key=lambda x: -x[3]):
            fit = next((n for n in own if sum(x[3] for x in n) + item[3] <= cap), None)
            if fit is None:
                own.append([item])
            else:
                fit.append(item)
        nights += [[] for _ in range(len(own) - len(nights))]
        for k, n in enumerate(own):
            nights[k] += n
    return nights, unplaced


def jdk_minutes(items: list, jdk) -> float:
    """One JDK's minutes of a night (its runner's)."""
    return sum(x[3] for x in items if x[0] == jdk)


def night_lines(suite, nights: list, night: int, base: str) -> list:
    """One night's passes as plan lines: each a two-commit gate pass with its share of the night as its cap."""
    sc = ci_settings(suite)["scheduled"]
    gate = next(p for p in suite.ci_passes.values() if p.get("gate"))
    if not 1 <= night <= len(nights):
        raise InputError(f"--night {night}: the rotation has nights 1 to {len(nights)}")
    out = []
    for jdk, tid, ids, mins in nights[night - 1]:
        share = max(5, int(float(sc["night_minutes"]) * mins / jdk_minutes(nights[night - 1], jdk)))
        args = [a for a in window_args(suite.by_id(tid), gate["args"]) if not a.startswith("-Djmh.budget=")]
        jdk_arg = [] if jdk == sc["jdks"][0] else [f"-Djmh.jdk={jdk}"]  # the first is the JDK Maven runs on
        out.append((f"night{night}-{tid}-jdk{jdk}", "gate", ids, [f"-Djmh.against={base}", "-Djmh.gate",
                    f"-Djmh.claims={','.join(ids)}", *jdk_arg, *args, f"-Djmh.budget={share}m"]))
    return out


# ---------------------------------------------------------------- the claims log

def _claims_at(ref: str) -> dict:
    """id -> claim of every technique file at commit ref."""
    out = {}
    for name in (_git("ls-tree", "--name-only", f"{ref}:scripts/techniques") or "").split():
        try:
            d = json.loads(_git("show", f"{ref}:scripts/techniques/{name}") or "{}") if name.endswith(".json") else {}
        except ValueError:
            continue
        out.update({c["id"]: c for c in d.get("claims") or [] if isinstance(c, dict) and "id" in c})
    return out


def _bar(c: dict | None):
    k = next((k for k in BARS if k in c), None) if c is not None else None
    return {k: c[k]} if k else None


def loosened(before: dict, after: dict) -> list:
    """[(claim id, old bar, new bar, what)] for every claim removed, loosened or otherwise redefined
    between two sets of claims (id -> claim); a bar only tightened needs no entry."""
    def rest(c):
        return {k: v for k, v in c.items() if k not in BARS and k not in ("why", "point_score", "ci")}
    out = []
    for cid, old in sorted(before.items()):
        new = after.get(cid)
        if new is None:
            out.append((cid, _bar(old), None, "removed"))
            continue
        ob, nb = _bar(old), _bar(new)
        if ob != nb:
            (ok, ov), = ob.items()
            (nk, nv), = nb.items()
            if ok != nk or (nv - ov) * LOOSER[ok] > 0:
                out.append((cid, ob, nb, "loosened"))
                continue
        ro, rn = rest(old), rest(new)
        if ro != rn:
            differ = sorted(k for k in set(ro) | set(rn) if ro.get(k) != rn.get(k))
            out.append((cid, ob, nb, f"redefined ({', '.join(differ)})"))
    return out


def claims_log_check(base: str) -> tuple:
    """(lines to print, failed?): every removed or loosened claim and a moved baseline since `base`,
    each with the claims log's entry that says so, or a failure."""
    try:
        log = json.loads(CLAIMS_LOG.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"{CLAIMS_LOG}: cannot read the claims log ({e.__class__.__name__})")
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and {"claim", "old", "new", "reason"} <= set(e)
                                                 and isinstance(e["reason"], str) and e["reason"].strip() for e in entries):
        raise InputError(f"{CLAIMS_LOG}: entries must each have claim, old, new and a reason")
    changes = loosened(_claims_at(base), {c["id"]: c for t in config.load_suite().techniques for c in t.claims})
    try:
        moved_from = json.loads(_git("show", f"{base}:results/baseline.provenance.json") or "{}")["git"]["commit"]
    except (ValueError, KeyError, TypeError):
        moved_from = None
    now = baseline_commit()
    if moved_from != now:
        changes.append(("baseline", moved_from, now, "moved"))
    lines, failed = [], False
    for cid, old, new, what in changes:
        hit = next((e for e in entries if e["claim"] == cid and e["old"] == old and e["new"] == new), None)
        failed = failed or hit is None
        lines.append(f"claims log: {cid} {what} ({json.dumps(old)} -> {json.dumps(new)})"
                     + (f": {hit['reason']}" if hit else " with no entry in scripts/claims-log.json saying why "
                                                          "(claim, old, new, reason)"))
    if not changes:
        lines.append(f"claims log: no claim removed or loosened and the baseline unmoved since {base[:12]}")
    return lines, failed


# ---------------------------------------------------------------- the command

@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="ci_plan.py", description=__doc__.splitlines()[0])
    ap.add_argument("--judge", action="store_true", help="print gate.py's options for a gate pass, one a line "
                                                         "(after --, that pass's mvn arguments: its fork figure)")
    ap.add_argument("pass_args", nargs="*", help=argparse.SUPPRESS)
    ap.add_argument("--all", action="store_true", help="gate every technique, whatever the change reaches")
    ap.add_argument("--minutes", action="store_true", help="print the estimated minutes per technique")
    ap.add_argument("--scheduled", action="store_true", help="print the nightly rotation")
    ap.add_argument("--night", type=int, help="with --scheduled: print that night's passes as plan lines")
    ap.add_argument("--jdk", help="with --night: only that JDK's passes")
    ap.add_argument("--claims-log", action="store_true", help="check removed or loosened claims against the claims log")
    ap.add_argument("--base", help="with --claims-log: the commit to compare with (default: the baseline's commit)")
    a = ap.parse_args(argv)
    if os.environ.get("HPB_NIGHT") and not (a.judge or a.claims_log or a.minutes or a.scheduled):
        try:  # .ci/run and the nightly workflow: one night of the rotation in place of a pull request's passes
            a.scheduled, a.night, a.jdk = True, int(os.environ["HPB_NIGHT"]), os.environ.get("HPB_JDK") or None
        except ValueError:
            raise InputError(f"HPB_NIGHT={os.environ['HPB_NIGHT']!r} is not a night's number")
        if a.jdk is None:
            raise InputError("HPB_NIGHT needs HPB_JDK (17 or 25): each JDK's share of a night fills one runner's minutes")
    suite = config.load_suite()
    ci = ci_settings(suite)
    gate_args = next(p for p in suite.ci_passes.values() if p.get("gate"))["args"]
    if a.pass_args and not a.judge:
        raise InputError(f"unexpected arguments {' '.join(a.pass_args)} (only --judge -- ARGS takes a pass's arguments)")
    if a.judge:
        for o in judge_options(suite, a.pass_args):
            print(o)
        return 0
    if a.claims_log:
        base = a.base or os.environ.get("HPB_CLAIMS_BASE") or baseline_commit()
        if _git("cat-file", "-e", f"{base}^{{commit}}") is None:
            raise InputError(f"--claims-log: this clone lacks commit {base}")
        lines, failed = claims_log_check(base)
        print("\n".join(lines))
        return 1 if failed else 0
    minutes = Minutes(suite, gate_args)
    if a.minutes:
        trials = (5, int(ci["pr"]["trials"]), 20)
        print(f"minutes of gate forks (both sides) per technique at {', '.join(map(str, trials))} trials, from real "
              f"gate passes (results/ci/) where they timed a configuration, else the newest full runs in results/:")
        for t in suite.techniques:
            whole = [fmt_min(minutes.minutes(t, all_ids(t), n)) for n in trials]
            head = [fmt_min(minutes.minutes(t, headline_ids(t), n)) for n in trials]
            window, keys = gate_window(t, gate_args), minutes.configurations(t, all_ids(t))
            seen = sum((k, window) in minutes.observed for k in keys)  # timed by real gate passes at its window
            print(f"  {t.id}: every cited figure and claim ({len(all_ids(t))}): {' / '.join(whole)}; "
                  f"headline and gated ({', '.join(headline_ids(t))}): {' / '.join(head)}; "
                  f"{f'{window[0]} x {window[1]:g} s' if window else 'the classes own iterations'} a fork"
                  f"{' (its own gate_window)' if t.raw.get('gate_window') else ''}, "
                  f"{seen} of {len(keys)} configurations timed by real gate passes")
        return 0
    if a.scheduled:
        nights, unplaced = rotation(suite, minutes)
        base = baseline_commit()
        if a.night is not None:
            for name, kind, ids, args in night_lines(suite, nights, a.night, base):
                if not a.jdk or name.endswith(f"-jdk{a.jdk}"):
                    print("\t".join([name, kind, ",".join(ids), *args]))
            return 0
        sc = ci["scheduled"]
        a_day = int(sc.get("runs_a_day", 1))
        days = -(-len(nights) // a_day)
        print(f"scheduled rotation: {len(nights)} night(s) of at most {sc['night_minutes']} minutes at "
              f"{sc['trials']} trials, {a_day} scheduled run(s) a day: "
              + (f"every cited figure on JDK {' and '.join(sc['jdks'])} within {days} day(s), weekly"
                 if days <= int(sc["nights"]) else f"{days} days, MORE than a week: not every figure weekly"))
        for n, items in enumerate(nights, 1):
            print(f"  night {n} ({', '.join(f'JDK {j}: {jdk_minutes(items, j):.0f} min' for j in sc['jdks'])}):")
            for jdk, tid, ids, mins in items:
                print(f"    JDK {jdk} {tid} ({mins:.0f} min): {', '.join(ids)}")
        for jdk, tid, i, why in unplaced:
            print(f"  not placed: JDK {jdk} {tid} {i}: {why}")
        return 0
    notes, base = [], baseline_commit()
    scope = None if a.all or os.environ.get("HPB_GATE") == "all" else scoping.of_change(base, suite)
    lines = plan(suite, base, scope, minutes=minutes, notes=notes)
    for n in [describe(scope, suite, base), *notes]:
        print("ci_plan: " + n, file=sys.stderr)
    for name, kind, ids, args in lines:
        if any("\t" in x or "\n" in x for x in args):
            raise InputError(f"pass {name}: an argument holds a tab or a newline")
        print("\t".join([name, kind, ",".join(ids), *args]))
    return 0


def describe(scope, suite, base: str) -> str:
    """One line on what the change reaches and why."""
    if scope is None:
        return "gate scope: every technique (--all)"
    if scope.error:
        return f"gate scope: every technique ({scope.error})"
    if scope.covers(scoping.EVERY):
        return f"gate scope: every technique ({scope.why[scoping.EVERY]} differs from {base[:12]})"
    taken = [f"{t.id} ({scope.why[t.id]})" for t in suite.techniques if scope.covers(t.id)]
    if not taken:
        return f"gate scope: no technique differs from {base[:12]}" + (" but the instrument does" if scope.instrument else "")
    return f"gate scope: {', '.join(taken)}; the other techniques are identical to {base[:12]}'s"


if __name__ == "__main__":
    sys.exit(main())
