"""Fork-level statistics (hpb/forks.py) and figures across machines (hpb/machines.py), on
hand-checkable cases and on real committed runs."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from hpb import figures, forks, machines, model, stats, twocommit, verdicts
from hpb.config import load_suite

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "results"
PILOT_VALIDATOR = RESULTS / "pilot" / "20261123T233104Z-973136b-dirty.json"
NOISY_HOUR = RESULTS / "20261123T175712Z-ab8d12e.json"
SAMPLE = REPO / "scripts" / "tests" / "fixtures" / "real" / "sample-time.json"


@pytest.mark.parametrize("p, df, t", [(0.975, 1, 12.7062), (0.975, 4, 2.7764), (0.975, 30, 2.0423),
                                      (0.995, 10, 3.1693), (0.95, 2, 2.9200), (0.975, 1000, 1.9623)])
def test_t_quantiles_match_the_tables(p, df, t):
    assert forks.t_quantile(p, df) == pytest.approx(t, abs=1e-3)
    assert forks.t_quantile(1 - p, df) == pytest.approx(-t, abs=1e-3)


def test_a_paired_figure_is_the_geometric_mean_with_a_t_interval_on_the_logs():
    # Per-trial ratios 2, 2.5, 3, 2.5.
    p = forks.paired([2.0, 5.0, 3.0, 10.0], (1, 2, 3, 4), [1.0, 2.0, 1.0, 4.0], (1, 2, 3, 4))
    logs = [math.log(x) for x in (2, 2.5, 3, 2.5)]
    mean = sum(logs) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / 3)
    half = 3.1824 * sd / 2
    assert p.n == 4
    assert p.value == pytest.approx(math.exp(mean))
    assert p.lo == pytest.approx(math.exp(mean - half), rel=1e-4)
    assert p.hi == pytest.approx(math.exp(mean + half), rel=1e-4)


def test_pairing_follows_the_trial_not_the_fork_index():
    # b missed trial 3 (a technique skipped mid-run, or a group that got extra trials): its third
    # fork is trial 4's and must meet a's fourth.
    p = forks.paired([3.0, 3.0, 99.0, 1.5], (1, 2, 3, 4), [1.0, 1.0, 0.5], (1, 2, 4))
    assert p.n == 3
    assert p.value == pytest.approx(3.0)
    assert p.hi / p.lo == pytest.approx(1.0)


def test_one_trial_has_no_interval_and_a_zero_is_left_out():
    p = forks.paired([2.0, 0.0], (1, 2), [1.0, 1.0], (1, 2))
    assert p.n == 1 and math.isnan(p.lo)


def test_fork_means_read_raw_data_and_sample_histograms():
    assert forks.fork_means([[1.0, 3.0], [5.0]]) == [2.0, 5.0]
    assert forks.fork_means([[[[10.0, 1], [20.0, 3]]]]) == [17.5]


def test_disturbed_forks_are_flagged_by_the_fixed_threshold():
    assert forks.disturbed({"noise.steal": [0.0, 6.0, 1.0], "noise.other": [2.0, 5.0, float("nan")]}) == \
        [False, True, False]


def machine(name, ratio, lo, hi, n):
    """A machine's figure with this 95% interval from n trials in one boot."""
    se = (math.log(hi) - math.log(lo)) / 2 / forks.t_quantile(0.975, n - 1)
    return machines.MachineFigure(name, name, stats.Estimate(math.log(ratio), se, n - 1, n), n, 1, se * math.sqrt(n))


def test_the_random_effects_prediction_reproduces_the_issues_validator_example():
    # Three machines at 94.5x, 128x and 129x, each precise: about [48x, 280x] for a new machine.
    figs = [machine(f"m{i}", r, r * 0.99, r / 0.99, 10) for i, r in enumerate((94.5, 128, 129))]
    a = machines.across(figs)
    assert a.k == 3 and a.predicts
    assert a.pred_lo == pytest.approx(48, rel=0.05)
    assert a.pred_hi == pytest.approx(280, rel=0.05)
    assert (a.low, a.high) == pytest.approx((94.5, 129))


def test_fewer_than_three_machines_give_a_range_and_no_prediction():
    figs = [machine("a", 2.9, 2.7, 3.1, 8), machine("b", 3.5, 3.3, 3.7, 8)]
    a = machines.across(figs)
    assert not a.predicts
    assert a.describe() == "2 machines, 2.9x to 3.5x"
    assert machines.across(figs[:1]).describe() == "1 machine"
    assert machines.rests_on(figs) == "2 machines, 2 boots, 16 trials"


def test_the_boots_of_one_machine_are_units_not_pooled_trials():
    """Two boots that each agree closely inside but differ from each other: pooling their trials as
    independent would claim a tight interval; each boot's mean as one unit gives t over 1 degree of
    freedom, as wide as two draws of the boot-to-boot spread deserve."""
    one, other = [math.log(x) for x in (3.0, 3.02, 2.98, 3.01)], [math.log(x) for x in (3.5, 3.52, 3.48, 3.49)]
    m = machines.machine_figure("amd", "AMD EPYC x2", {"boot1": one, "boot2": other})
    assert (m.trials, m.boots, m.estimate.df) == (8, 2, 1)
    means = [sum(one) / 4, sum(other) / 4]
    half = 12.7062 * abs(means[0] - means[1]) / 2  # sd of two means / sqrt(2)
    assert (math.log(m.lo), math.log(m.hi)) == pytest.approx((sum(means) / 2 - half, sum(means) / 2 + half), rel=1e-4)
    pooled = stats.of_logs(one + other).figure()
    assert math.log(m.hi / m.lo) > 10 * math.log(pooled.hi / pooled.lo)
    single = machines.machine_figure("amd", "AMD EPYC x2", {"boot1": one})
    assert (single.boots, single.estimate.df) == (1, 3) and single.figure == stats.of_logs(one).figure()


def test_the_scripts_and_the_plugin_compute_the_same_paired_figure_on_a_real_run():
    """The plugin wrote, per cited pair, the ratio it sampled on (variant / baseline, raw units);
    the scripts' figure from the same forks is that ratio, or its inverse for a time."""
    suite = load_suite()
    run = model.load(PILOT_VALIDATOR)
    prov = json.loads(PILOT_VALIDATOR.with_name(PILOT_VALIDATOR.stem + ".provenance.json").read_text())
    t = suite.by_id("validation")
    checked = 0
    for g in prov["trials"]["groups"]:
        for cid, pr in g["precision"].items():
            spec = next(c for c in t.cited if c["id"] == cid)
            a, b = figures.pair_of(run.results, t, spec, suite)
            fig = verdicts.paired_figure(a, b, t, "primary", "speedup")[0]
            assert a.paired and b.paired
            assert 1 / fig.value == pytest.approx(pr["ratio"], rel=1e-9)  # times: the scripts invert
            assert 1 / fig.hi == pytest.approx(pr["low"], rel=1e-6)
            checked += 1
    assert checked == 4


def test_on_real_runs_the_old_interval_claimed_more_than_its_forks_support():
    """The conservative interval built from JMH's iteration-level intervals, and the fork-level one,
    on the same real data. In the noisy hour (two forks per variant, run in JMH's order), the old
    interval [81, 215] holds both forks' ratios (154x and 108x), but it came from ten iterations and
    said nothing about a third fork: the fork-level interval from those two forks is [13.6, 1231]. In
    the pilot's paired trials, the fork-level interval is what the run can support."""
    suite = load_suite()
    t = suite.by_id("validation")
    spec = next(c for c in t.cited if c["id"] == "validator-shared")
    a, b = figures.pair_of(model.load(NOISY_HOUR).results, t, spec, suite)
    assert verdicts.paired_figure(a, b, t, "primary", "speedup") is None  # JMH's own fork order: nothing to pair
    old = stats.speedup(a.primary, b.primary)
    assert (old.lo, old.hi) == pytest.approx((81.2, 215.4), rel=1e-3)
    per_fork = [y / x for x, y in zip(a.forks_of("primary"), b.forks_of("primary"))]
    assert per_fork == pytest.approx([154.5, 108.4], rel=1e-3)
    by_fork = forks.paired(b.forks_of("primary"), (1, 2), a.forks_of("primary"), (1, 2))
    assert (by_fork.lo, by_fork.hi) == pytest.approx((13.6, 1231), rel=1e-2)
    assert by_fork.lo < old.lo / 5 and by_fork.hi > old.hi * 5

    pilot = model.load(PILOT_VALIDATOR)
    a, b = figures.pair_of(pilot.results, t, spec, suite)
    new = verdicts.paired_figure(a, b, t, "primary", "speedup")[0]
    legacy = stats.speedup(a.primary, b.primary, False)
    assert new.known and legacy.known
    assert new.contains(legacy.value)
    trial_ratios = [y / x for x, y in zip(a.forks_of("primary"), b.forks_of("primary"))]
    assert all(new.lo <= r <= new.hi for r in trial_ratios)


def _zero_percentile_copy(tmp_path: Path) -> Path:
    """The real SampleTime file with its fastest sample at 0 ns, as JMH writes it when the timer's
    granularity rounds it down (this machine's granularity gave 50 ns): derived here, not committed."""
    data = json.loads(SAMPLE.read_text())
    for r in data:
        m = r["secondaryMetrics"]["p0.00"]
        m["score"] = 0.0
        m["rawData"] = [[0.0] for _ in m["rawData"]]
        m["scorePercentiles"] = {k: 0.0 for k in m["scorePercentiles"]}
        r["primaryMetric"]["scorePercentiles"]["0.0"] = 0.0
    out = tmp_path / "sample-zero.json"
    out.write_text(json.dumps(data))
    return out


@pytest.mark.parametrize("zero", [False, True])
def test_a_real_sample_time_file_is_charted_reported_and_compared(tmp_path, zero):
    f = _zero_percentile_copy(tmp_path) if zero else SAMPLE
    run = model.load(f)
    assert run.results[0].secondary["p0.00"].score == (0.0 if zero else 50.0)
    scripts = REPO / "scripts"
    for cmd in (["report.py", str(f), "--out", str(tmp_path / "R.md"), "--charts", str(tmp_path / "c")],
                ["chart.py", str(f), "--out", str(tmp_path / "c2")],
                ["compare.py", str(f), str(f)]):
        p = subprocess.run([sys.executable, str(scripts / cmd[0]), *cmd[1:]], capture_output=True, text=True)
        assert p.returncode == 0, (cmd[0], p.stderr)
        assert "not positive" not in p.stderr


def test_a_zero_primary_score_is_still_refused(tmp_path):
    data = json.loads(SAMPLE.read_text())
    data[0]["primaryMetric"]["score"] = 0.0
    f = tmp_path / "zero-primary.json"
    f.write_text(json.dumps(data))
    with pytest.raises(model.InputError, match="not positive"):
        model.load(f)


def test_two_runs_agree_when_the_change_between_them_holds_1():
    """Two trials runs of one boot (d81400f and 5ee6d28, AMD): the change between their figures, with
    a 95% interval from both runs' estimates, holds 1 for split at "||" (0.975x [0.898, 1.06]) and
    not for the long-key lookup (1.23x [1.1, 1.37]); a run of another boot is no pair."""
    suite = load_suite()
    runs = [model.load(RESULTS / f) for f in ("20261125T004028Z-d81400f.json", "20261125T030920Z-5ee6d28.json")]
    pool = {p.technique.id: p for p in figures.pools(runs, suite, require_full=False)}
    spec = lambda tid, cid: next(c for c in suite.by_id(tid).cited if c["id"] == cid)  # noqa: E731
    same = figures.run_agreement(pool["split"], spec("split", "split-2char"), suite)
    assert same["holds_1"] and same["runs"] == tuple(r.name for r in runs)
    assert (same["change"], same["lo"], same["hi"]) == pytest.approx((0.975, 0.898, 1.06), abs=1e-3)
    moved = figures.run_agreement(pool["keys"], spec("keys", "keys-lookup"), suite)
    assert not moved["holds_1"] and moved["lo"] > 1
    intel = model.load(RESULTS / "20261127T170939Z-d22d712.json")
    other = {p.technique.id: p for p in figures.pools([runs[1], intel], suite, require_full=False)}
    assert figures.run_agreement(other["split"], spec("split", "split-2char"), suite) is None


AB_QUICK = REPO / "scripts" / "tests" / "fixtures" / "real" / "20261124T222738Z-811280e-dirty.json"


def test_compare_reads_a_real_two_commit_run_paired_by_trial(tmp_path):
    """The issue's command (mvn jmh:run -Djmh.against=HEAD~1 -Djmh.include='SplitBenchmark.split$'
    -Djmh.p.delimiter=:: -Djmh.p.fields=16 -Djmh.quick), made here: README-only commits on both
    sides, three trials, so every change has an interval and none is called a change."""
    import compare
    out = tmp_path / "ab.md"
    assert compare.main([str(AB_QUICK), "--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# head (811280eb7f80) vs base (f52c1dadeed3)")
    rows = [line for line in text.splitlines() if line.startswith("| SplitBenchmark.split (thrpt) [")]
    assert len(rows) == 5 and all("(3 trials)" in r and "no change shown" in r for r in rows)
    gain = [line for line in text.splitlines() if "INDEX_OF vs JDK_SPLIT" in line]
    assert len(gain) == 1 and "0.959x [0.634, 1.45] (3 trials)" in gain[0]
    # by hand from the forks: head/base per trial, geometric mean
    run = model.load(AB_QUICK)
    by = twocommit.sides(run)
    h = [r for r in by["head"] if r.params["variant"] == "INDEX_OF"][0]
    b = [r for r in by["base"] if r.params["variant"] == "INDEX_OF"][0]
    logs = [math.log(x / y) for x, y in zip(h.forks_of("primary"), b.forks_of("primary"))]
    assert h.trials == b.trials
    assert math.exp(sum(logs) / 3) == pytest.approx(0.978, abs=5e-4)


def test_compare_refuses_one_run_that_is_not_a_two_commit_run():
    p = subprocess.run([sys.executable, str(REPO / "scripts" / "compare.py"), str(NOISY_HOUR)], capture_output=True, text=True)
    assert p.returncode == 2 and "not a two-commit run" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_the_exact_rank_sum_test_and_the_fork_counts_it_needs():
    from hpb.forks import forks_for_p, rank_sum_p_greater, smallest_p
    assert rank_sum_p_greater([1, 2, 3], [4, 5, 6]) == pytest.approx(1 / 20)
    assert rank_sum_p_greater([4, 5, 6], [1, 2, 3]) == 1.0
    assert smallest_p(3, 3) == pytest.approx(0.05) and smallest_p(5, 5) == pytest.approx(1 / 252)
    assert forks_for_p(0.05) == 3 and forks_for_p(0.01) == 5
    # ties share mid-ranks: all equal is no evidence at all
    assert rank_sum_p_greater([24.0] * 5, [24.0] * 5) == 1.0


def test_an_escape_analysis_flip_in_one_fork_is_not_an_allocation_regression():
    # LatencyBenchmark.body CONSUME: 24 B/op, once 56 in one fork (the breadth rule, hpb.breadth.alloc_row)
    outcome, words = twocommit.alloc_verdict([24.0] * 5, [24.0, 56.0, 24.0, 24.0, 24.0])
    assert outcome == "ok" and "grew by less than 16 bytes" in words
    outcome, words = twocommit.alloc_verdict([24.0] * 5, [56.0, 56.0, 24.0, 56.0, 24.0])
    assert outcome == "ok" and "growth not shown" in words
    # one object more per call in every fork
    outcome, words = twocommit.alloc_verdict([24.0] * 5, [40.0] * 5)
    assert outcome == "regression" and "rank-sum p = 0.00397" in words
    # three forks a side can never show it at 0.01
    outcome, words = twocommit.alloc_verdict([24.0] * 3, [40.0] * 3)
    assert outcome == "inconclusive" and "3 and 3 forks cannot show growth at p <= 0.01" in words
