#!/usr/bin/env python3
"""The two-commit gate rule's error rates, estimated by resampling real trials: how often it would
fail a commit that changed nothing (false alarm), and how often it would catch a loss of 10%, 20%
and 30% of a claimed pair's gain.

    python3 scripts/gate_power.py [RUN.json ...] [--trials 6,10,16,24] [--margin 20] [--alpha 0.01]
                                  [--draws 2000] [--seed 1] [--out FILE.md]

Without runs it reads every committed run of the trial protocol in results/ (docs/protocol.md) made
by the current trial engine.

The rule studied (a non-inferiority test, fixed sample size): both commits run in the same n trials
on one machine, so each trial t gives the change of a pair's gain d_t = ln(gain_head,t / gain_base,t)
(the four forks of a trial ran back to back). A check passes when the lower end of the one-sided
Student t bound on mean(d), at level 1 - alpha / m (Bonferroni over the m checks of a CI run), lies
above ln(1 - margin): the data show the gain fell by less than the margin. Otherwise it fails: a
loss shown, or a run that could not show there was none (INCONCLUSIVE, which fails too). The number
of trials is fixed before the run, so the rule looks once and needs no alpha spending.

How the passes are made: each real run's per-trial log gains of a claimed pair are centred on that
run's mean (a two-commit run compares like with like on one machine; the machine's own level
cancels), pooled, and drawn with replacement, once for the base side and once for the head side of
every synthetic trial; a loss L is injected as ln(1 - L) added to the head side. Drawing the two
sides independently leaves out the positive correlation two forks of one trial share, so the spread
of d is, if anything, overstated: the false-alarm figures are upper estimates. Real passes through
the whole gate (results/ci/) are the other half of the evidence; this script does not make them.
"""
from __future__ import annotations

import math
import random
import sys

from hpb import cli, config, evidence, forks, verdicts
from hpb.markdown import table
from hpb.model import InputError, load
from report import result_files

LOSSES = (0.10, 0.20, 0.30)


def claimed_pairs(suite) -> list:
    """(technique, claim) for every gated claim on a time or throughput gain."""
    return [(t, c) for t in suite.techniques for c in t.claims
            if c.get("metric", "primary") == "primary" and "min_speedup" in c]


def trial_logs(runs, suite) -> dict:
    """claim id -> [(run name, [per-trial log gains])] from every run that measured the pair in trials."""
    out = {}
    for t, c in claimed_pairs(suite):
        for run in runs:
            if run.protocol != "trials":
                continue
            groups, _, _, _ = verdicts._claim_groups(run.results, c, t, suite)
            for g in groups:
                logs = verdicts.paired_logs(g.result(c["variant"]), g.result(c["baseline"]), t, "primary", "speedup")
                if logs and len(logs) >= 3:
                    label = f"{run.name} {g.params}" if len(groups) > 1 else run.name
                    out.setdefault(c["id"], []).append((label, logs))
    return out


def centred(per_run) -> list:
    pool = []
    for _, logs in per_run:
        m = sum(logs) / len(logs)
        pool += [x - m for x in logs]
    return pool


def passes(pool, n, loss, margin, level, rng) -> bool:
    """One synthetic two-commit check of n trials: does the rule pass it?"""
    shift = math.log(1 - loss) if loss else 0.0
    d = [rng.choice(pool) + shift - rng.choice(pool) for _ in range(n)]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    lower = mean - forks.t_quantile(level, n - 1) * sd / math.sqrt(n)
    return lower > math.log(1 - margin)


def estimate(pools: dict, trials, margin, alpha, draws, seed) -> dict:
    """(claim, n, loss) -> share of synthetic passes that failed; (None, n, 0) the per-run false-alarm
    rate: a CI run fails when any of its m checks fails."""
    rng = random.Random(seed)
    m = len(pools)
    level = 1 - alpha / m
    out = {}
    for n in trials:
        any_fail = 0
        fails = {(cid, loss): 0 for cid in pools for loss in (0.0,) + LOSSES}
        for _ in range(draws):
            run_failed = False
            for cid, pool in pools.items():
                for loss in (0.0,) + LOSSES:
                    if not passes(pool, n, loss, margin, level, rng):
                        fails[(cid, loss)] += 1
                        if loss == 0.0:
                            run_failed = True
            any_fail += run_failed
        for (cid, loss), k in fails.items():
            out[(cid, n, loss)] = k / draws
        out[(None, n, 0.0)] = any_fail / draws
    return out


def report(per_claim, rates, trials, margin, alpha, draws) -> str:
    m = len(per_claim)
    lines = ["# The two-commit gate rule's error rates, by resampling real trials", "",
             f"Rule: non-inferiority at a margin of {margin:.0%} of a pair's gain, one-sided Student t bound at level "
             f"1 - {alpha:g}/{m} per check (Bonferroni over the {m} claimed pairs), a fixed number of trials. "
             f"{draws} synthetic passes per cell; see the script's docstring for how they are drawn.", "",
             "## What the passes are drawn from", ""]
    rows = [[cid, len(runs), sum(len(l) for _, l in runs),
             f"{math.exp(math.sqrt(sum(x * x for x in centred(runs)) / max(1, len(centred(runs)) - 1))) - 1:.1%}"]
            for cid, runs in per_claim.items()]
    lines += table(["claim", "runs", "trials", "spread of one trial's gain (sd of log, as %)"], rows)
    lines += ["", "## Rates", ""]
    head = ["claim", "trials per side"] + ["false alarm"] + [f"caught: {x:.0%} loss" for x in LOSSES]
    rows = []
    for n in trials:
        for cid in per_claim:
            rows.append([cid, n, f"{rates[(cid, n, 0.0)]:.2%}"] + [f"{rates[(cid, n, x)]:.1%}" for x in LOSSES])
        rows.append([f"**any of the {m} (one CI run)**", n, f"**{rates[(None, n, 0.0)]:.2%}**", "", "", ""])
    lines += table(head, rows)
    return "\n".join(lines).rstrip() + "\n"


def parse_trials(text: str) -> list:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"--trials: expected comma-separated integers, got {text!r}")
    if not out or min(out) < 2:
        raise InputError(f"--trials: every count must be at least 2 (a t bound needs two trials), got {text!r}")
    return out


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="gate_power.py", description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", help="runs of the trial protocol (default: every committed one in results/)")
    ap.add_argument("--trials", default="6,10,16,24", help="trials per side to study, comma-separated")
    ap.add_argument("--margin", type=float, default=20.0, help="non-inferiority margin, %% of the gain (default 20)")
    ap.add_argument("--alpha", type=float, default=0.01, help="false-alarm rate allowed per CI run (default 0.01)")
    ap.add_argument("--draws", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write Markdown here (atomically) instead of stdout")
    a = ap.parse_args(argv)
    if not 0 < a.margin < 100:
        raise InputError(f"--margin: expected a percentage between 0 and 100, got {a.margin:g}")
    if not 0 < a.alpha < 1:
        raise InputError(f"--alpha: expected a rate between 0 and 1, got {a.alpha:g}")
    if a.draws < 1:
        raise InputError(f"--draws: expected a positive count, got {a.draws}")
    trials = parse_trials(a.trials)
    suite = config.load_suite()
    runs = [load(p) for p in (a.runs or result_files())]
    if not a.runs:  # the committed runs figures may rest on: engine 1's regex-polluted forks stay out
        runs = [r for r in runs if r.trials_engine >= evidence.TRIALS_ENGINE]
    per_claim = trial_logs(runs, suite)
    if not per_claim:
        raise InputError("no run of the trial protocol measured a claimed pair in 3 or more trials")
    pools = {cid: centred(r) for cid, r in per_claim.items()}
    rates = estimate(pools, trials, a.margin / 100, a.alpha, a.draws, a.seed)
    cli.emit(report(per_claim, rates, trials, a.margin / 100, a.alpha, a.draws), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
