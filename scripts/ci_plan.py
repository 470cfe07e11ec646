#!/usr/bin/env python3
"""The JMH passes CI makes and the claims each one gates, derived from the technique files.

    python3 scripts/ci_plan.py

Prints one line per `mvn jmh:run` CI must make, tab-separated: the pass name, its kind (`gate`: the
checked-out commit against the baseline's commit side by side, judged on its own by gate.py;
`claims`: this commit alone, judged on the claims listed next), the claim ids (comma-separated),
then the `mvn jmh:run` arguments. With --judge it prints instead gate.py's options for the gate pass
(ci.passes.<gate>.judge in scripts/suite.json), one a line. Every claim in scripts/techniques/*.json names its pass (`ci`).
The gate pass runs against the commit results/baseline.provenance.json records; every other pass
measures just the configurations its claims name (-Djmh.claims). .ci/run reads this, so a claim
added to a technique file is gated without touching .ci/run.

The gate pass measures only the techniques the change reaches (hpb.scope: the paths that differ
between the baseline's commit and this tree), with -Djmh.claims naming their gain claims; where it
reaches none, the line's kind is `unchanged` and its arguments are the pass's `unchanged` run, a
short two-commit run that shows the comparison still works and judges nothing. The other passes
are scoped the same way: they keep the claims of the techniques the change reaches, and a pass left
with none is not made. What was left out and why goes to stderr. --all, or HPB_GATE=all in the environment, gates every technique.
"""
from __future__ import annotations

import json
import os
import sys

from hpb import cli, config, scope as scoping
from hpb.model import RESULTS_DIR, InputError

BASELINE_PROVENANCE = RESULTS_DIR / "baseline.provenance.json"


def baseline_commit(path=BASELINE_PROVENANCE) -> str:
    """The commit the committed baseline run measured: the gate's other side."""
    try:
        commit = json.loads(path.read_text(encoding="utf-8"))["git"]["commit"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"{path}: cannot read the baseline's commit ({e})")
    if not isinstance(commit, str) or len(commit) < 7:
        raise InputError(f"{path}: git.commit is not a commit id: {commit!r}")
    return commit


def plan(suite: config.Suite, base: str | None = None, scope: scoping.Scope | None = None) -> list:
    """[(pass, kind, [claim ids], [mvn args])] in the order of the suite's passes; passes no claim names
    are left out. With a scope every pass takes only the claims of the techniques in it: a claims
    pass none of whose techniques the change reaches is left out too (their code, benchmark and
    claims are the baseline's commit's, whose CI judged them), and the gate pass becomes the
    `unchanged` run."""
    out = []
    for name, p in suite.ci_passes.items():
        ids = [c["id"] for t in suite.techniques for c in t.claims if c["ci"] == name]
        if not ids:
            continue
        if p.get("gate"):
            against = f"-Djmh.against={base or baseline_commit()}"
            kept = ids if scope is None else [c["id"] for t in suite.techniques for c in t.claims
                                             if c["ci"] == name and scope.covers(t.id)]
            if not kept:
                out.append((name, "unchanged", ids, [against, *p["unchanged"]]))
            elif kept == ids:
                out.append((name, "gate", ids, [against, "-Djmh.gate", *p["args"]]))
            else:
                out.append((name, "gate", kept, [against, "-Djmh.gate", f"-Djmh.claims={','.join(kept)}", *p["args"]]))
        else:
            kept = ids if scope is None else [c["id"] for t in suite.techniques for c in t.claims
                                             if c["ci"] == name and scope.covers(t.id)]
            if kept:
                out.append((name, "claims", kept, [f"-Djmh.claims={','.join(kept)}", *p["args"]]))
    return out


def describe(scope: scoping.Scope, suite: config.Suite, base: str) -> str:
    """One line on what the gate pass takes and why."""
    if scope.error:
        return f"gate scope: every technique ({scope.error})"
    if scope.covers(scoping.EVERY):
        return f"gate scope: every technique ({scope.why[scoping.EVERY]} differs from {base[:12]})"
    taken = [f"{t.id} ({scope.why[t.id]})" for t in suite.techniques if scope.covers(t.id)]
    if not taken:
        return (f"gate scope: no technique's code, benchmark, claims or build differs from {base[:12]}: "
                "the gate pass has nothing to compare and no claims pass is made; a short two-commit run "
                "checks the comparison works")
    return (f"gate scope: {', '.join(taken)}; the other techniques are identical to {base[:12]}'s "
            "and no pass measures them")


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="ci_plan.py", description=__doc__.splitlines()[0])
    ap.add_argument("--judge", action="store_true", help="print gate.py's options for the gate pass, one a line")
    ap.add_argument("--all", action="store_true", help="gate every technique, whatever the change reaches")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    if a.judge:
        for o in suite.gate_judge():
            print(o)
        return 0
    scope = None
    if not (a.all or os.environ.get("HPB_GATE") == "all"):
        base = baseline_commit()
        scope = scoping.of_change(base, suite)
        print("ci_plan: " + describe(scope, suite, base), file=sys.stderr)
    for name, kind, ids, args in plan(suite, scope=scope):
        if any("\t" in x or "\n" in x for x in args):
            raise InputError(f"pass {name}: an argument holds a tab or a newline")
        print("\t".join([name, kind, ",".join(ids), *args]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
