#!/usr/bin/env python3
"""Does a rerun reproduce the figures the README cites?

    python3 scripts/reproduce.py RUN.json [MORE.json ...] [--cited results/cited.json]

For every figure the README cites (results/cited.json, which report.py writes) that the runs measured in
the same environment (JDK feature release, VM and JVM options): the cited figure, yours (forks paired by
trial) and whether it reproduces, by hpb/figures.py's reproduce; then a summary line.
Exit 0 when every figure found reproduces, 1 when some do not (or none was found), 2 on bad input.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from hpb import cli, config, figures, verdicts
from hpb.markdown import fmt_ratio, text_table
from hpb.model import RESULTS_DIR, InputError

DEFAULT_CITED = RESULTS_DIR / "cited.json"
KEYS = {"id", "technique", "label", "env", "value", "lo", "hi"}


def load_cited(path: Path) -> list:
    if not path.is_file():
        raise InputError(f"{path}: no such file (python3 scripts/report.py writes it)")
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: not valid JSON ({e.__class__.__name__})")
    if not isinstance(d, list) or not all(isinstance(c, dict) and KEYS <= set(c) for c in d):
        raise InputError(f"{path}: not a list of cited figures ({', '.join(sorted(KEYS))})")
    for c in d:
        for k in ("value", "lo", "hi"):
            c[k] = float("nan") if c[k] is None else float("inf") if c[k] == "inf" else c[k]
            if isinstance(c[k], bool) or not isinstance(c[k], (int, float)):
                raise InputError(f"{path}: {c['id']}: {k} is not a number")
        if not isinstance(c["env"], dict):
            raise InputError(f"{path}: {c['id']}: env is not an object")
    return d


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="reproduce.py", description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="JMH JSON of your run(s)")
    ap.add_argument("--cited", default=str(DEFAULT_CITED), help="the cited figures (default results/cited.json)")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    cited = load_cited(Path(a.cited))
    runs = cli.load_runs(a.runs)
    for run in runs:
        verdicts.check_units(run.results, suite)
    out = figures.reproduce(cited, runs, suite)
    rows = [[v.subject, v.extra["env"].get("jdk", ""), fmt_ratio(*v.extra["cited"]), fmt_ratio(*v.figure),
             v.outcome.upper(), v.reason] for v in out]
    for line in text_table(["figure", "cited on JDK", "cited [interval]", "yours [interval]", "verdict", "note"], rows):
        print(line)
    if not out:
        print("REPRODUCE: none of the cited figures is in these runs (same benchmark, params, JDK and JVM options)")
        return 1
    bad = sum(v.outcome != "reproduces" for v in out)
    print(f"REPRODUCE: {len(out) - bad} of {len(out)} cited figures reproduce" + (f"; {bad} do not" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
