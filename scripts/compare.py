#!/usr/bin/env python3
"""Compare two runs of the suite, or the two commits of one `-Djmh.against` run: per benchmark,
the change with its interval, the allocation change, and how each pair's gain moved.

    python3 scripts/compare.py OLD.json NEW.json [--out FILE.md]
    python3 scripts/compare.py AB.json [--out FILE.md]    # a run made with -Djmh.against=REF

"change" is how many times better NEW is than OLD, with a 95% t interval on the log scale (hpb/stats.py):
paired by trial within one two-commit run; between two separate runs unpaired over forks (Welch), else JMH's
own intervals combined conservatively. Two separate runs are shown, not judged (CI judges: gate.py).
"""
from __future__ import annotations

import math
import statistics
import sys

from hpb import cli, config, forks, stats, twocommit, verdicts
from hpb.markdown import fmt_metric, fmt_ratio, table
from hpb.model import ALLOC, Run, fmt_key_params
from hpb.select import matched_rows


def change(old, new, t) -> tuple:
    """(Figure of new / old as 'x better', how it was computed)."""
    sign = 1 if verdicts._direction(t, "primary", new.primary.unit) else -1
    a, b = ([math.log(v) for v in r.forks_of("primary") if v > 0 and math.isfinite(v)] for r in (new, old))
    if len(a) >= 2 and len(b) >= 2:
        e = stats.welch(a, b)
        return stats.Estimate(sign * e.mean, e.se, e.df, e.n).figure(), f"{len(b)} and {len(a)} forks"
    return stats.speedup(new.primary, old.primary), "JMH's intervals"


def gain(r, b, t) -> tuple:
    """(Figure, Estimate or None) of a pair's gain inside one run: paired by trial where it can be."""
    logs = verdicts.paired_logs(r, b, t, "primary", "speedup")
    if logs and len(logs) >= 2:
        e = stats.of_logs(logs)
        return e.figure(), e
    return stats.speedup(r.primary, b.primary), None


def compare(old: Run, new: Run, suite) -> str:
    omap = {r.key: r for r in old.results}
    only = [f"- {x.simple_class}.{x.method} {fmt_key_params(x.params)}: only in {run.name}" for run, other in
            ((new, omap), (old, {r.key for r in new.results})) for x in run.results if x.key not in other]
    matched = [(omap[r.key], r) for r in new.results if r.key in omap]
    rows = []
    for o, r in matched:
        fig, how = change(o, r, suite.technique(r.cls))
        ao, an = o.over_forks(ALLOC), r.over_forks(ALLOC)
        rows.append([f"{r.simple_class}.{r.method} ({r.mode}) {fmt_key_params(r.params)}".rstrip(), fmt_metric(o.over_forks()),
                     fmt_metric(r.over_forks()), fmt_ratio(*fig), how,
                     f"{ao.score:,.1f} -> {an.score:,.1f}" if ao and an else ""])
    gains = []
    for g, t, label, r, cb, br, bb in matched_rows(new.results, old.results, suite):
        (then, e1), (now, e2) = gain(br, bb, t), gain(r, cb, t)
        moved = stats.difference(e2, e1).figure() if e1 and e2 else stats.change(then, now)
        gains.append([f"{g.simple_class}.{g.name} ({g.mode}) {label} vs {g.baseline} {fmt_key_params(g.params)}".rstrip(),
                      fmt_ratio(*then), fmt_ratio(*now), fmt_ratio(*moved), _word(moved)])
    envs = sorted({f"{o.env.label} vs {r.env.label}" for o, r in matched if o.env.label != r.env.label})
    lines = [f"# {new.name} vs {old.name}", ""]
    lines += table(["benchmark [params]", "old", "new", "change (x better) [95% interval]", "from", "B/op old -> new"], rows)
    lines += ["", "## Each pair's gain, old and new", ""]
    lines += table(["pair [params]", "old gain", "new gain", "new / old [interval]", "verdict"], gains)
    rest = only[:20] + ([f"- and {len(only) - 20} more only in one run"] if len(only) > 20 else [])
    rest += [f"- environments differ: {d}" for d in envs]
    return "\n".join(lines + ([""] + rest if rest else [])).rstrip() + "\n"


def _fmt_paired(p) -> str:
    if p.n == 0:
        return "no paired trials"
    if p.n < 2:
        return f"{p.value:.3g}x (1 trial: no interval)"
    return f"{fmt_ratio(p.value, p.lo, p.hi)} ({p.n} trials)"


def _word(p) -> str:
    """A change's words from its interval (a Figure, or forks.Paired)."""
    if math.isnan(p.lo) or math.isnan(p.hi):
        return "undecided (no interval)"
    return "worse" if p.hi < 1 else "better" if p.lo > 1 else "no change shown"


def _fork_median(r, metric) -> str:
    vals = [v for v in r.forks_of(metric) if math.isfinite(v)]
    return f"{statistics.median(vals):.4g}" if vals else ""


def compare_sides(run: Run, suite) -> str:
    """Each configuration's change from base to head, paired by trial, and each pair's gain."""
    by = twocommit.sides(run)
    commits = (run.provenance or {}).get("against") or {}
    base = {r.key: r for r in by["base"]}
    rows = []
    for h, b in [(h, base[h.key]) for h in by["head"] if h.key in base]:
        p = forks.interval_of_logs(list(twocommit.trial_logs(h, b, suite.technique(h.cls)).values()))
        measured = h.forks_of(ALLOC) and b.forks_of(ALLOC)
        alloc = f"{_fork_median(b, ALLOC)} -> {_fork_median(h, ALLOC)}" if measured else ""
        alloc_word = twocommit.alloc_verdict(b.forks_of(ALLOC), h.forks_of(ALLOC))[1] if measured else ""
        means = [stats.mean_interval(x.forks_of("primary"))[0] for x in (b, h)]
        rows.append([f"{h.simple_class}.{h.method} ({h.mode}) {fmt_key_params(h.params)}",
                     *(f"{m:.4g}" if math.isfinite(m) else "" for m in means), h.primary.unit,
                     _fmt_paired(p), _word(p), alloc, alloc_word])
    gains = []
    for g, t, label, now, then in twocommit.gain_rows(by, suite):
        moved = forks.interval_of_logs([now[k] - then[k] for k in sorted(set(now) & set(then))])
        gains.append([f"{g.simple_class}.{g.name} ({g.mode}) {label} vs {g.baseline}" + (f" {fmt_key_params(g.params)}" if g.params else ""),
                      _fmt_paired(forks.interval_of_logs(list(then.values()))),
                      _fmt_paired(forks.interval_of_logs(list(now.values()))), _fmt_paired(moved), _word(moved)])
    if not rows:
        raise cli.InputError(f"{run.name}: no configuration was measured on both sides")
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
    runs = cli.load_runs([a.old] + ([a.new] if a.new else []))
    cli.emit(compare_sides(runs[0], suite) if a.new is None else compare(*runs, suite), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
