#!/usr/bin/env python3
"""Charts only: per benchmark method and mode, bars normalized to the baseline variant, B/op and
other panels, and a line chart over the size param where there is one (PNG). Default input: the newest run.
"""
from __future__ import annotations

import sys

from hpb import charts, cli, config
from hpb.model import RESULTS_DIR, newest_run


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="chart.py", description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="JMH JSON result files (default: the newest in results/)")
    ap.add_argument("--out", default=str(RESULTS_DIR / "charts"), help="output folder (default results/charts)")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    results = [r for run in cli.load_runs(a.files or [newest_run()]) for r in run.results]
    for made in charts.write_charts(results, a.out, suite):
        print(made[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
