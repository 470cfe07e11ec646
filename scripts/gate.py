#!/usr/bin/env python3
"""CI gate: the two commits of one run side by side, or the claims of one run.

    python3 scripts/gate.py AB.json [--undecided warn] [--strict CLAIMS] [--fork-figure best]   # made with -Djmh.against=REF (CI: -Djmh.gate)
    python3 scripts/gate.py RUN.json [MORE.json ...] [--claim-ids ID,ID] [--allow-missing]        # one commit's claims

A two-commit run is judged on its own by docs/gate.md's rules (hpb.twocommit, hpb.breadth); one commit's run
on its claims alone (hpb.verdicts), where INCONCLUSIVE and NOT RUN fail too (--allow-missing: NOT RUN warns).
Two runs made apart are not compared. Exit 0 pass, 1 a regression or a broken claim, 2 bad input (one line
on stderr). This file only formats the verdicts.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter

from hpb import cli, config, twocommit, verdicts
from hpb.markdown import fmt_metric, fmt_params, fmt_ratio, text_table
from hpb.model import load_many

WORDS = {"pass": "PASS", "fail": "FAIL", "inconclusive": "INCONCLUSIVE", "not_run": "NOT RUN", "warn": "WARN",
         "ok": "OK", "regression": "REGRESSION", "missing": "MISSING"}
CHECKS = {"alloc": "B/op"}  # a check shows as its own name otherwise


def row(v: verdicts.Verdict) -> list:
    what = v.subject + (f" [{fmt_params(v.params)}]" if v.params and v.check in ("claim", "gain") else "")
    if v.check == "gain":
        sides = ["", f"{v.extra.get('n', 0)} trials"]
    elif v.check == "alloc" and v.before is None:
        sides = ["", ""]
    else:
        sides = [fmt_metric(v.before), fmt_metric(v.after)]
    change = f"{v.figure.value:+.1f} B/op" if v.check == "alloc" else fmt_ratio(*v.figure) if v.figure else ""
    return [CHECKS.get(v.check, v.check), what, *sides, change, WORDS[v.outcome], v.reason]


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="gate.py", description=__doc__.splitlines()[0])
    ap.add_argument("current", nargs="+", help="JMH JSON of the run to check (several files of one pass are merged)")
    ap.add_argument("--baseline", help=argparse.SUPPRESS)  # gone: says where to look instead
    ap.add_argument("--suite", help="suite settings (default scripts/suite.json)")
    ap.add_argument("--techniques", help="folder of technique files (default scripts/techniques)")
    ap.add_argument("--allow-missing", action="store_true",
                    help="claims and metrics this run lacks warn instead of failing")
    ap.add_argument("--claim-ids", help="check only these claims (comma-separated ids)")
    ap.add_argument("--undecided", choices=config.JUDGING["--undecided"][1], default="fail",
                    help="two-commit runs: a gain check the run could not decide fails (the rule) or warns (CI on a noisy machine)")
    ap.add_argument("--strict", metavar="CLAIMS",
                    help="two-commit runs: comma-separated gain claims judged by the rule even with --undecided warn "
                         "(undecided, they fail)")
    ap.add_argument("--fork-figure", choices=config.JUDGING["--fork-figure"][1], default="mean",
                    help="two-commit runs: each fork's figure, the mean of its iterations or the best of them "
                         "(the fast state; needs forks of 50+ short iterations, docs/gate.md)")
    a = ap.parse_args(argv)
    if a.baseline is not None:
        raise cli.InputError("two runs made apart are not compared: measure both commits in one run "
                             "(mvn jmh:run -Djmh.against=REF) and gate that run")
    suite = config.load_suite(a.suite, a.techniques)
    ids = cli.ids_list(a.claim_ids, "--claim-ids") if a.claim_ids is not None else None
    cur = load_many(a.current)
    if twocommit.is_two_commit(cur):
        if ids is not None or a.allow_missing:
            raise cli.InputError("a two-commit run is judged on its own: give it alone, without claim options")
        verdicts.check_units(cur.results, suite)
        if a.fork_figure == "best":
            cur = twocommit.fast_state(cur)
        return report(twocommit.judge(cur, suite, a.undecided, strict_claims(a.strict, suite)))
    if a.fork_figure != "mean" or a.strict is not None:
        what = "--strict" if a.strict is not None else "--fork-figure best"
        raise cli.InputError(f"{what} judges a two-commit run (-Djmh.against); this is not one")
    verdicts.check_units(cur.results, suite)
    return report(verdicts.judge_claims(cur.results, suite, ids, a.allow_missing))


def strict_claims(text, suite) -> frozenset:
    """--strict's claim ids, each one a gain claim of the suite."""
    ids = cli.ids_list(text, "--strict") if text is not None else []
    gains = {c["id"] for _, c in twocommit.gained_pairs(suite)}
    if unknown := [i for i in ids if i not in gains]:
        raise cli.InputError(f"--strict: {', '.join(unknown)} is not a gain claim (known: {', '.join(sorted(gains))})")
    return frozenset(ids)


def report(out: list) -> int:
    heads = ["check", "what", "baseline", "current", "change [interval]", "verdict", "note"]
    print("\n".join(text_table(heads, [row(v) for v in out])))
    failed = any(v.failing for v in out)
    counts = Counter(WORDS[v.outcome] for v in out)
    summary = ", ".join(f"{n} {w.lower()}" for w, n in sorted(counts.items()))
    print(("GATE FAILED: " if failed else "GATE PASSED: ") + (summary or "nothing checked")
          + (f" (see {counts['WARN']} WARN row(s))" if counts["WARN"] else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
