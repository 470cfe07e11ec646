#!/usr/bin/env python3
"""Where a run's spread lives: within a fork (iteration to iteration) or between forks, and how far
each of two per-fork figures, the mean of the measured iterations (what the suite uses) and the best
iteration, moves from fork to fork.

    python3 lab/fork_spread.py RUN [RUN ...] [--out FILE.md]

Per configuration (benchmark, mode, params; a two-commit run's sides apart): forks, iterations a fork,
the iterations' spread within a fork (sd of their logs, averaged over the forks), the spread of the
fork means and of the forks' best iterations (sd of logs across forks), and how many forks never came
within 85% of the configuration's best iteration (forks that spent all their measured time in a
slow spell of the machine, docs/gate.md). Only the primary score; configurations with fewer than 3
forks are left out. A RUN is a raw JMH result file or its summary (summarize.py), which keeps each
fork's mean, best iteration, iteration count and spread of iterations. Exit 0, or 2 on bad input (one line).
"""
from __future__ import annotations

import math
import statistics
import sys

import labpath  # noqa: F401  puts scripts/ on the path
from hpb import cli, config, twocommit
from hpb.forks import fork_bests, fork_means
from hpb.markdown import table
from hpb.model import BEST, ITERATIONS, InputError, Run, fmt_key_params
from runs import WITHIN, load_run, log_sd as within_sd

NEAR_BEST = 0.85


def log_sd(values: list) -> float:
    logs = [math.log(v) for v in values]
    return statistics.stdev(logs) if len(logs) > 1 else float("nan")


def spread(forks: list, higher_is_better: bool) -> dict:
    """forks: each fork's measured iteration values (positive). The within- and between-fork spreads."""
    forks = [f for f in forks if f]
    if len(forks) < 3 or any(v <= 0 or not math.isfinite(v) for f in forks for v in f):
        raise ValueError("need 3 forks of positive finite values")
    return spread_of(fork_means(forks), fork_bests(forks, higher_is_better), [len(f) for f in forks],
                     [within_sd(f) for f in forks], higher_is_better)


def spread_of(means: list, bests: list, counts: list, withins: list, higher_is_better: bool) -> dict:
    """The spreads from each fork's mean, best iteration, iteration count and sd of its iterations'
    logs (None for a fork of one iteration): what a run's summary keeps of its forks."""
    if len(means) < 3 or any(not (v > 0 and math.isfinite(v)) for v in list(means) + list(bests)):
        raise ValueError("need 3 forks of positive finite values")
    overall = (max if higher_is_better else min)(bests)
    within = [w for w in withins if w is not None]
    never = sum(1 for b in bests if (b / overall if higher_is_better else overall / b) < NEAR_BEST)
    return {"forks": len(means), "iterations": round(statistics.fmean(counts)),
            "within": statistics.fmean(within) if within else float("nan"),
            "betweenMeans": log_sd(means), "betweenBests": log_sd(bests), "neverNearBest": never}


def gain_spreads(run: Run, suite) -> list:
    """[(claim id, params, trials, sd with fork means, sd with forks' best iterations)] for a two-commit run."""
    if not twocommit.is_two_commit(run):
        return []
    by_mean, by_best = twocommit.sides(run), twocommit.sides(twocommit.fast_state(run, min_iterations=1))
    out = []
    for t, c in twocommit.gained_pairs(suite):
        for (params, dm), (_, db) in zip(twocommit.gain_logs(by_mean, t, c, suite),
                                         twocommit.gain_logs(by_best, t, c, suite)):
            if len(dm) >= 3 and len(db) >= 3:
                out.append((c["id"], params, len(dm), statistics.stdev(dm.values()), statistics.stdev(db.values())))
    return out


def rows_of(path: str) -> tuple:
    run = load_run(path, within=True)
    out = []
    for res in run.results:
        if res.mode not in ("thrpt", "avgt") or not res.fork_values.get(BEST):
            continue
        try:
            s = spread_of(res.forks_of("primary"), res.forks_of(BEST), res.forks_of(ITERATIONS),
                          res.forks_of(WITHIN), res.mode == "thrpt")
        except (ValueError, TypeError):
            continue
        name = f"{res.simple_class}.{res.method} {fmt_key_params(res.params)}".strip()
        out.append((name, res.mode, s))
    return out, gain_spreads(run, config.load_suite())


def pct(x: float) -> str:
    return "" if math.isnan(x) else f"{100 * x:.1f}%"


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="fork_spread.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN")
    ap.add_argument("--out", help="write the Markdown here instead of stdout")
    args = ap.parse_args(argv)
    parts = []
    for path in args.runs:
        rows, gains = rows_of(path)
        if not rows:
            raise InputError(f"{path}: no configuration with 3 or more forks of iterations")
        body = [[name, mode, str(s["forks"]), str(s["iterations"]), pct(s["within"]), pct(s["betweenMeans"]),
                 pct(s["betweenBests"]), str(s["neverNearBest"])] for name, mode, s in rows]
        parts.append(f"## {path}\n\n" + "\n".join(table(
            ["configuration", "mode", "forks", "iterations", "within a fork", "fork means",
             "forks' best iterations", f"forks never within {NEAR_BEST:.0%} of the best"], body)) + "\n")
        if gains:
            parts.append("One trial's change of gain, sd of its log over the trials:\n\n" + "\n".join(table(
                ["gain check", "params", "trials", "fork means", "forks' best iterations"],
                [[cid, fmt_key_params(p), str(n), pct(m), pct(b)] for cid, p, n, m, b in gains])) + "\n")
    cli.emit("\n".join(parts), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
