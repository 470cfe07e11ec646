#!/usr/bin/env python3
"""CI gate: two commits measured side by side, the claims within one run, or regressions against a baseline run.

    python3 scripts/gate.py AB.json [--undecided warn] [--strict CLAIMS] [--fork-figure best]   # a run made with -Djmh.against=REF (CI: -Djmh.gate)
    python3 scripts/gate.py CURRENT.json [MORE.json ...] [--baseline FILE | --no-baseline] [--allow-missing]
                            [--time-warn-only] [--claim-ids ID,ID] [--no-claims]

A two-commit run is judged on its own (hpb.twocommit; docs/gate.md has the rule): each gated claim's
change of gain, head against base, is a non-inferiority check at the run's margin (PASS, REGRESSION
or INCONCLUSIVE, which fails), the claims' fixed bars are judged on head's forks, a configuration's
time fails only when shown slower than suite.json's two_commit_threshold_pct, and allocation is judged over each side's
forks. Otherwise:

Exit 0 pass, 1 a regression or a broken claim, 2 bad input (one line on stderr). Prints one table
and a summary line; warnings go to stderr. Every verdict comes from hpb.verdicts; this file only
formats them. Defaults resolve from the repository, wherever the command runs: the baseline is
results/baseline.json, the claims are every technique's under scripts/techniques/.

- claim: a ratio inside this run clears its bar at the pessimistic end of its interval (or lies
  within +/-X% for an equivalence claim). INCONCLUSIVE (no interval) and NOT RUN (not in this run,
  or only part of what it names; --allow-missing makes that a warning) fail too.
- time: more than the threshold (suite.json's threshold_pct) worse than the baseline with the two intervals apart; a WARN when
  the JDK, JVM options or CPU differ (absolute times do not travel) or with --time-warn-only.
- B/op: allocation grew by at least 16 bytes and 5%: an extra object per call fails anywhere.
- ratio: a pair's in-run gain fell below the baseline run's by more than the pair's tolerance, even
  at the optimistic end of the change's interval. Both sides ran together, so machine speed cancels:
  this is how CI gates time.
- MISSING: a metric the baseline has and this run lacks (e.g. -Djmh.prof replaced the gc
  profiler); --allow-missing makes it a warning.
"""
from __future__ import annotations

import sys
from pathlib import Path

from hpb import cli, config, twocommit, verdicts
from hpb.markdown import fmt_metric, fmt_num, fmt_params, fmt_ratio, text_table
from hpb.model import RESULTS_DIR, load, load_many

DEFAULT_BASELINE = RESULTS_DIR / "baseline.json"
WORDS = {"pass": "PASS", "fail": "FAIL", "inconclusive": "INCONCLUSIVE", "not_run": "NOT RUN", "warn": "WARN",
         "ok": "OK", "regression": "REGRESSION", "missing": "MISSING"}
CHECKS = {"claim": "claim", "time": "time", "alloc": "B/op", "ratio": "ratio", "missing": "metric",
          "only": "only in one", "gain": "gain"}


def row(v: verdicts.Verdict) -> list:
    if v.check == "claim":
        what = v.subject + (f" [{fmt_params(v.params)}]" if v.params else "")
        change = fmt_ratio(*v.figure) if v.figure else ""
        return [CHECKS[v.check], what, fmt_metric(v.before), fmt_metric(v.after), change, WORDS[v.outcome], v.reason]
    if v.check == "gain":
        what = v.subject + (f" [{fmt_params(v.params)}]" if v.params else "")
        n = v.extra.get("n", 0)
        return ["gain", what, "", f"{n} trials", fmt_ratio(*v.figure) if v.figure else "", WORDS[v.outcome], v.reason]
    if v.check == "alloc" and v.before is None:
        return ["B/op", v.subject, "", "", f"{v.figure.value:+.1f} B/op", WORDS[v.outcome], v.reason]
    if v.check == "alloc":
        return ["B/op", v.subject, fmt_metric(v.before), fmt_metric(v.after), f"{v.figure.value:+.1f} B/op",
                WORDS[v.outcome], v.reason]
    if v.check == "ratio":
        then, now = v.extra["then"], v.extra["now"]
        return ["ratio", v.subject, fmt_ratio(*then), fmt_ratio(*now), fmt_ratio(*v.figure), WORDS[v.outcome], v.reason]
    change = fmt_ratio(*v.figure) if v.figure else ""
    return [CHECKS.get(v.check, v.check), v.subject, fmt_metric(v.before), fmt_metric(v.after), change,
            WORDS[v.outcome], v.reason]


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="gate.py", description=__doc__.splitlines()[0])
    ap.add_argument("current", nargs="+", help="JMH JSON of the run to check (several files of one pass are merged)")
    ap.add_argument("--baseline", help="JMH JSON to compare with (default results/baseline.json)")
    ap.add_argument("--no-baseline", action="store_true", help="judge the claims only, against no baseline run")
    ap.add_argument("--suite", help="suite settings (default scripts/suite.json)")
    ap.add_argument("--techniques", help="folder of technique files (default scripts/techniques)")
    ap.add_argument("--allow-missing", action="store_true",
                    help="claims and metrics this run lacks warn instead of failing")
    ap.add_argument("--time-warn-only", action="store_true",
                    help="absolute-time regressions warn instead of failing (short runs); allocation and ratios still gate")
    ap.add_argument("--no-claims", action="store_true", help="skip the claims")
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
    suite = config.load_suite(a.suite, a.techniques)
    ids = cli.ids_list(a.claim_ids, "--claim-ids") if a.claim_ids is not None else None
    cur = load_many(a.current)
    warnings = []
    base = None
    if twocommit.is_two_commit(cur):
        if a.baseline or a.no_baseline or ids is not None or a.no_claims or a.time_warn_only:
            raise cli.InputError("a two-commit run is judged on its own: give it alone, without baseline or claim options")
        verdicts.check_units(cur.results, suite)
        if a.fork_figure == "best":
            cur = twocommit.fast_state(cur)
        return report(twocommit.judge(cur, suite, a.undecided, strict_claims(a.strict, suite)), warnings)
    if a.fork_figure != "mean" or a.strict is not None:
        what = "--strict" if a.strict is not None else "--fork-figure best"
        raise cli.InputError(f"{what} judges a two-commit run (-Djmh.against); this is not one")
    if a.no_baseline:
        pass
    elif a.baseline:
        base = load(a.baseline)
    elif DEFAULT_BASELINE.is_file():
        base = load(DEFAULT_BASELINE)
    else:
        warnings.append(f"no baseline ({DEFAULT_BASELINE} absent): regressions not checked")
    verdicts.check_units(cur.results, suite)
    if base is not None:
        verdicts.check_units(base.results, suite)
    out = [] if a.no_claims else verdicts.judge_claims(cur.results, suite, ids, a.allow_missing)
    if base is not None:
        out += verdicts.judge_regressions(base, cur, suite, a.time_warn_only, a.allow_missing)
    return report(out, warnings)


def strict_claims(text, suite) -> frozenset:
    """--strict's claim ids, each one a gain claim of the suite."""
    if text is None:
        return frozenset()
    ids = cli.ids_list(text, "--strict")
    gains = {c["id"] for _, c in twocommit.gained_pairs(suite)}
    unknown = [i for i in ids if i not in gains]
    if unknown:
        raise cli.InputError(f"--strict: {', '.join(unknown)} is not a gain claim (known: {', '.join(sorted(gains))})")
    return frozenset(ids)


def report(out: list, warnings: list) -> int:
    heads = ["check", "what", "baseline", "current", "change [interval]", "verdict", "note"]
    for line in text_table(heads, [row(v) for v in out]):
        print(line)
    for w in warnings:
        cli.warn(w)
    failed = [v for v in out if v.failing]
    counts: dict = {}
    for v in out:
        counts[WORDS[v.outcome]] = counts.get(WORDS[v.outcome], 0) + 1
    summary = ", ".join(f"{n} {w.lower()}" for w, n in sorted(counts.items()))
    warned = counts.get("WARN", 0)
    print(("GATE FAILED: " if failed else "GATE PASSED: ") + (summary or "nothing checked")
          + (f"; {len(warnings)} warning(s) on stderr" if warnings else "")
          + (f" (see {warned} WARN row(s))" if warned else ""))
    if not out and not failed:
        return 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
