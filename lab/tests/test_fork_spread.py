"""fork_spread.py: the within- and between-fork spreads on forks whose answers can be checked by hand."""
import math
import subprocess
import sys

import pytest

import fork_spread
from labtest import LAB, RESULTS, ci_run


def test_forks_that_differ_only_in_time_spent_slow_agree_on_their_best_iteration():
    # Each fork is at 1.0 or at 0.6 (a slow spell), in different shares: the means spread, the bests do not.
    forks = [[1.0] * 5 + [0.6] * 1, [1.0] * 2 + [0.6] * 4, [1.0] * 4 + [0.6] * 2, [1.0] * 1 + [0.6] * 5]
    s = fork_spread.spread(forks, higher_is_better=True)
    assert s["forks"] == 4 and s["iterations"] == 6
    assert s["betweenBests"] == 0
    assert s["betweenMeans"] > 0.1
    assert s["neverNearBest"] == 0


def test_a_fork_that_stayed_slow_is_counted_and_time_is_judged_lower_is_better():
    s = fork_spread.spread([[10.0, 10.2], [10.1, 10.0], [16.0, 16.5]], higher_is_better=False)
    assert s["neverNearBest"] == 1
    two = lambda a, b: abs(math.log(b / a)) / math.sqrt(2)  # noqa: E731  the sd of two logs
    assert s["within"] == pytest.approx((two(10.0, 10.2) + two(10.1, 10.0) + two(16.0, 16.5)) / 3)


def test_fewer_than_three_forks_are_refused():
    with pytest.raises(ValueError):
        fork_spread.spread([[1.0, 1.1], [1.2, 1.0]], higher_is_better=True)


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{")
    r = subprocess.run([sys.executable, str(LAB / "fork_spread.py"), str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_a_two_commit_pass_gives_each_gain_check_its_spread_with_either_fork_figure():
    import json
    from hpb import config, twocommit
    from runs import load_run
    path = RESULTS / "pilot" / "20261125T080338Z-57b366d.json"  # a -Djmh.gate A/A pass, raw
    run, data = load_run(path), json.loads(path.read_text())
    best = twocommit.fast_state(run, min_iterations=1)
    for res, r in zip(best.results, data):
        pick = max if r["mode"] == "thrpt" else min
        assert res.forks_of("primary") == [pick(f) for f in r["primaryMetric"]["rawData"]]
    gains = fork_spread.gain_spreads(run, config.load_suite())
    assert {g[0] for g in gains} == {"redis-mget-4x", "redis-pooled-1.3x", "split-indexof-2char-2x", "validator-shared-50x"}
    assert all(n >= 5 and m > 0 and b > 0 for _, _, n, m, b in gains)
    # a gate pass kept as its summary gives them too
    gains = fork_spread.gain_spreads(load_run(ci_run("20261125T114920Z")), config.load_suite())
    assert len(gains) == 5 and all(n == 5 and m > 0 and b > 0 for _, _, n, m, b in gains)


def test_a_summary_gives_the_table_its_raw_run_gives(tmp_path):
    """fork_spread.py reads a run's summary (each fork's mean, best, iteration count and spread of
    iterations) to the same table as the raw run it was made from."""
    import shutil
    import summarize
    raw = RESULTS / "pilot" / "fast-state" / "20261125T153526Z-ef43f14.json"
    copy = tmp_path / raw.name
    for p in (raw, raw.with_name(raw.name[:-5] + ".provenance.json")):
        shutil.copy(p, tmp_path / p.name)
    rows, gains = fork_spread.rows_of(str(raw))
    summary = summarize.summarize(copy, "none")
    assert fork_spread.rows_of(str(summary)) == (rows, gains) and len(rows) == 4 and gains
