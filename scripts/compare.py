#!/usr/bin/env python3
"""Compare two runs of the suite, or the two commits of one `-Djmh.against` run: per benchmark,
the change with its interval, the allocation change, and how each pair's gain moved.

    python3 scripts/compare.py OLD.json NEW.json [--out FILE.md]
    python3 scripts/compare.py AB.json [--out FILE.md]    # a run made with -Djmh.against=REF

"change" is how many times better NEW is than OLD (higher is better whatever the unit). Between two
runs it carries the conservative interval from both scores' 99.9% confidence intervals and judges
nothing (two runs made apart do not share the machine). Within one two-commit run both commits'
forks ran side by side in every trial, so each change is paired by trial: the geometric mean of
head/base over the trials with a 95% Student t interval on the log ratios (docs/protocol.md), and a
pair's gain moves by the same per-trial arithmetic (the four forks of a trial: head's variant and
baseline against base's). This file only formats the figures as Markdown.
"""
from __future__ import annotations

import math
import statistics
import sys

from hpb import cli, config, forks, stats, twocommit
from hpb.markdown import fmt_metric, fmt_ratio, table
from hpb.model import ALLOC, InputError, Run, fmt_key_params, load
from hpb.select import matched_rows

def compare(old, new, suite) -> str:
    """Two runs made apart: each benchmark's change and each pair's gain then and now, as figures only.
    Nothing is judged: two runs minutes or machines apart do not share the machine, so the gate
    compares two commits inside one run (-Djmh.against) instead."""
    before = {r.key: r for r in old.results}
    rows = []
    for c in new.results:
        b = before.get(c.key)
        if b is None:
            continue
        ba, ca = b.metric(ALLOC), c.metric(ALLOC)
        rows.append([f"{c.simple_class}.{c.method} ({c.mode}) {fmt_key_params(c.params)}", fmt_metric(b.primary),
                     fmt_metric(c.primary), fmt_ratio(*stats.speedup(c.primary, b.primary)),
                     f"{ba.score:,.1f} -> {ca.score:,.1f}" if ba is not None and ca is not None else ""])
    ratios = []
    for g, t, label, r, cb, br, bb in matched_rows(new.results, old.results, suite):
        then, now = stats.speedup(br.primary, bb.primary), stats.speedup(r.primary, cb.primary)
        ratios.append([f"{g.simple_class}.{g.name} ({g.mode}) {label} vs {g.baseline}"
                       + (f" {fmt_key_params(g.params)}" if g.params else ""),
                       fmt_ratio(*then), fmt_ratio(*now), fmt_ratio(*stats.change(then, now))])
    lines = [f"# {new.name} vs {old.name}", "",
             "Two runs made apart: figures only, nothing judged (they do not share the machine's minutes; "
             "for a verdict, measure both commits in one run: mvn jmh:run -Djmh.against=REF).", ""]
    lines += table(["benchmark [params]", "old", "new", "change (x better) [interval]", "B/op old -> new"], rows)
    lines += ["", "## Each pair's gain, old and new", ""]
    lines += table(["pair [params]", "old gain", "new gain", "new / old [interval]"], ratios)
    return "\n".join(lines).rstrip() + "\n"


def _fmt_paired(p) -> str:
    if p.n == 0:
        return "no paired trials"
    if p.n < 2:
        return f"{p.value:.3g}x (1 trial: no interval)"
    return f"{fmt_ratio(p.value, p.lo, p.hi)} ({p.n} trials)"


def _word(p) -> str:
    if p.n < 2:
        return "undecided (fewer than 2 trials)"
    if p.hi < 1:
        return "worse"
    if p.lo > 1:
        return "better"
    return "no change shown"


def _fork_mean(r, metric) -> str:
    lo_hi = forks.mean_interval(r.forks_of(metric))
    return f"{lo_hi[0]:.4g}" if lo_hi and math.isfinite(lo_hi[0]) else ""


def _fork_median(r, metric) -> str:
    vals = [v for v in r.forks_of(metric) if math.isfinite(v)]
    return f"{statistics.median(vals):.4g}" if vals else ""


def compare_sides(run: Run, suite) -> str:
    """Each configuration's change from base to head, paired by trial, and each pair's gain."""
    by = twocommit.sides(run)
    commits = (run.provenance or {}).get("against") or {}
    base = {r.key: r for r in by["base"]}
    rows = []
    for h in by["head"]:
        b = base.get(h.key)
        if b is None:
            continue
        t = suite.technique(h.cls)
        p = forks.interval_of_logs(list(twocommit.trial_logs(h, b, t).values()))
        alloc = alloc_word = ""
        if h.forks_of(ALLOC) and b.forks_of(ALLOC):
            alloc = f"{_fork_median(b, ALLOC)} -> {_fork_median(h, ALLOC)}"
            alloc_word = twocommit.alloc_verdict(b.forks_of(ALLOC), h.forks_of(ALLOC))[1]
        rows.append([f"{h.simple_class}.{h.method} ({h.mode}) {fmt_key_params(h.params)}",
                     _fork_mean(b, "primary"), _fork_mean(h, "primary"), h.primary.unit,
                     _fmt_paired(p), _word(p), alloc, alloc_word])
    gains = []
    for g, t, label, now, then in twocommit.gain_rows(by, suite):
        both = sorted(set(now) & set(then))
        moved = forks.interval_of_logs([now[k] - then[k] for k in both])
        gain = lambda logs: forks.interval_of_logs(list(logs.values()))  # noqa: E731
        gains.append([f"{g.simple_class}.{g.name} ({g.mode}) {label} vs {g.baseline}" + (f" {fmt_key_params(g.params)}" if g.params else ""),
                      _fmt_paired(gain(then)), _fmt_paired(gain(now)), _fmt_paired(moved), _word(moved)])
    if not rows:
        raise InputError(f"{run.name}: no configuration was measured on both sides")
    title = f"# head ({str(commits.get('head', '?'))[:12]}) vs base ({str(commits.get('base', '?'))[:12]}): {run.name}"
    lines = [title, "", "Both commits' forks ran side by side in every trial on one machine; each change is head / base "
             "paired by trial (geometric mean, 95% t interval over trials), higher is better whatever the unit. "
             "Allocation grew by the gate's rule (docs/gate.md): the forks' median B/op grew by at least one "
             "smallest object and an exact rank-sum test over each side's forks shows it. "
             "The CI gate's verdicts on such a run: python3 scripts/gate.py RUN.json.", ""]
    lines += table(["benchmark [params]", "base", "head", "unit", "change (x better) [interval]", "verdict",
                    "B/op base -> head (fork medians)", "allocation"], rows)
    lines += ["", "## Each pair's gain, base and head", ""]
    lines += table(["pair [params]", "base gain", "head gain", "head / base [interval]", "verdict"], gains)
    return "\n".join(lines).rstrip() + "\n"


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="compare.py", description=__doc__.splitlines()[0])
    ap.add_argument("old", help="the older run, or a two-commit run (-Djmh.against) on its own")
    ap.add_argument("new", nargs="?", help="the newer run")
    ap.add_argument("--out", help="write Markdown here (atomically) instead of stdout")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    if a.new is None:
        cli.emit(compare_sides(load(a.old), suite), a.out)
    else:
        cli.emit(compare(load(a.old), load(a.new), suite), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
