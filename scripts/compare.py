#!/usr/bin/env python3
"""Compare two runs of the suite: per benchmark, the change with its interval, the allocation
change, and how each pair's in-run gain moved.

    python3 scripts/compare.py OLD.json NEW.json [--out FILE.md]

"change" is how many times better NEW is than OLD (higher is better whatever the unit), with the
conservative interval from both scores' 99.9% confidence intervals. The verdicts are the gate's
(hpb.verdicts.judge_regressions); this file only formats them as Markdown.
"""
from __future__ import annotations

import sys

from hpb import cli, config, verdicts
from hpb.markdown import fmt_metric, fmt_ratio, table
from hpb.model import load

WORDS = {"ok": "", "warn": "warn", "regression": "regression", "missing": "missing"}


def compare(old, new, suite) -> str:
    vs = verdicts.judge_regressions(old, new, suite, time_warn_only=False, allow_missing=True)
    alloc = {v.subject: v for v in vs if v.check == "alloc"}
    rows = [[v.subject, fmt_metric(v.before), fmt_metric(v.after), fmt_ratio(*v.figure),
             f"{alloc[v.subject].before.score:,.1f} -> {alloc[v.subject].after.score:,.1f}" if v.subject in alloc else "",
             v.reason] for v in vs if v.check == "time"]
    ratios = [[v.subject, fmt_ratio(*v.extra["then"]), fmt_ratio(*v.extra["now"]), fmt_ratio(*v.figure),
               WORDS.get(v.outcome, v.outcome)] for v in vs if v.check == "ratio"]
    lines = [f"# {new.name} vs {old.name}", ""]
    lines += table(["benchmark [params]", "old", "new", "change (x better) [interval]", "B/op old -> new", "note"], rows)
    lines += ["", "## Each pair's gain, old and new", ""]
    lines += table(["pair [params]", "old gain", "new gain", "new / old [interval]", "verdict"], ratios)
    rest = [f"- {v.subject}: {v.reason}" for v in vs if v.check in ("only", "missing")]
    diffs = sorted({v.extra["env"] for v in vs if v.check == "time" and v.extra.get("env")})
    rest += [f"- environments differ: {d}" for d in diffs]
    return "\n".join(lines + ([""] + rest if rest else [])).rstrip() + "\n"


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="compare.py", description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--out", help="write Markdown here (atomically) instead of stdout")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    cli.emit(compare(load(a.old), load(a.new), suite), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
