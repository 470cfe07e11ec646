"""gate_power.py and the two-commit rule it studies: the rule on hand-checkable trials, the
resampled rates on the committed runs, and the bound beside a count of real passes."""
import math
import random
import signal
import subprocess
import sys
import time

import pytest

import gate_power
from labtest import LAB, SCRIPTS, ci_run
from fdist import sd_ratio
from hpb import twocommit
from hpb.model import InputError
from runs import load_run
RULE = twocommit.Rule(looks=(5, 10), margin_pct=20, alpha=0.05)


def test_the_rule_passes_no_change_fails_a_shown_loss_and_calls_the_rest_undecided():
    assert twocommit.decide([0.0, 0.01, -0.01, 0.02, -0.02], RULE)[0] == "pass"
    assert twocommit.decide([math.log(0.5) + x for x in (0.0, 0.01, -0.01, 0.02, -0.02)], RULE)[0] == "regression"
    assert twocommit.decide([-0.5, 0.5, -0.4, 0.4, 0.0], RULE)[0] == "inconclusive"  # the rule never guesses
    assert twocommit.decide([0.0], RULE)[0] == "inconclusive"
    # each look at one side of a 95% two-sided interval: alpha 0.05 over two looks
    assert RULE.levels == pytest.approx((0.975, 0.975)) and RULE.bar == pytest.approx(0.8)


def test_the_gates_own_looks_spend_a_quarter_a_quarter_and_half_of_alpha_and_judge_each_at_its_level():
    rule = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    assert rule.looks == (5, 10, 20) and sum(rule.spend) == pytest.approx(0.05)
    assert [rule.level_at(n) for n in (5, 9, 10, 19, 20)] == pytest.approx([0.9875, 0.9875, 0.9875, 0.9875, 0.975])
    assert rule.levels_words() == "0.9875, 0.9875 and 0.975"
    # 20 trials whose mean change is 0.9x and whose spread leaves the bound near the bar: at 0.975
    # (the last look) it clears 0.8x, at 0.9875 (even shares over four looks) it does not
    rng = random.Random(5)
    logs = [math.log(0.9) + rng.gauss(0, 0.2) for _ in range(20)]
    mean = sum(logs) / 20
    logs = [x - mean + math.log(0.9) for x in logs]
    assert twocommit.decide(logs, rule)[0] == "pass"
    assert twocommit.decide(logs, twocommit.Rule((5, 10, 15, 20), 20, 0.05))[0] == "inconclusive"
    with pytest.raises(InputError):
        twocommit.Rule((5, 10), 20, 0.05, (0.03, 0.03))  # more than alpha


def test_a_loss_at_the_margin_passes_at_most_alpha_of_the_time_whatever_the_looks():
    rng = random.Random(3)
    pool = [rng.gauss(0, 0.08) for _ in range(400)]
    passed = sum(not gate_power.one_check(pool, 0.20, RULE, rng)[0] for _ in range(2000))
    assert passed / 2000 <= 0.05 + 0.015
    unchanged = sum(gate_power.one_check(pool, 0.0, RULE, rng)[0] for _ in range(500))
    assert unchanged / 500 < 0.05, "quiet trials decide an unchanged commit at the first look"


def test_cis_mode_fails_a_strict_claims_undecided_check_and_counts_every_configuration():
    one = twocommit.Rule(looks=(5,), margin_pct=20, alpha=0.05)
    wide = [-0.5, 0.5, -0.4, 0.4, 0.0, 0.3, -0.3]  # never decides at 5 trials
    rng = random.Random(1)
    warned = sum(gate_power.ci_mode(wide, 0.0, one, rng) for _ in range(500))
    strict = sum(gate_power.ci_mode(wide, 0.0, one, rng, strict=True) for _ in range(500))
    assert warned < 25 and strict > 300, (warned, strict)  # undecided mostly: a warning, or a failure
    from hpb import config
    checks = gate_power.checks_per_claim(config.load_suite())
    assert checks["split-indexof-2char-2x"] == 2 and checks["validator-shared-50x"] == 1
    rng = random.Random(5)
    pool = [rng.gauss(0, 0.12) for _ in range(200)]
    one_cfg = gate_power.estimate_ci({"c": pool}, one, 3000, 7, strict={"c"})[("c", 0.0)]
    two_cfg = gate_power.estimate_ci({"c": pool}, one, 3000, 7, strict={"c"}, checks={"c": 2})[("c", 0.0)]
    assert two_cfg > one_cfg > 0, "two checks of a claim fail more often than one"


def test_the_time_rows_catch_a_slowed_variant_the_gain_check_leaves_undecided():
    # a time row: shown slower than 10% only when its upper bound, Bonferroni over m, lies below 0.90x
    assert twocommit.time_verdict([math.log(0.7) + x for x in (0.0, 0.01, -0.01, 0.02, -0.02)], 2, 10)[0]
    assert not twocommit.time_verdict([math.log(0.95) + x for x in (0.0, 0.01, -0.01, 0.02, -0.02)], 2, 10)[0]
    assert not twocommit.time_verdict([math.log(0.7), 0.0, 0.3, -0.4, 0.1], 2, 10)[0]  # too wide to show it
    # the rows of a gate run spend TIME_ALPHA over its looks in the gain's shares (a quarter, a quarter, half)
    rule = gate_power.rule_for((5, 10, 20), 20.0, 0.05)
    assert twocommit.time_level(5, 4, rule) == pytest.approx(1 - 0.05 / 4 / 4)
    assert twocommit.time_level(10, 4, rule) == pytest.approx(1 - 0.05 / 4 / 4)
    assert twocommit.time_level(20, 4, rule) == pytest.approx(1 - 0.05 / 2 / 4)
    assert twocommit.time_level(7, 4) == pytest.approx(1 - 0.05 / 4), "no looks: all of TIME_ALPHA"
    near = [math.log(0.85) + x for x in (0.05, -0.05, 0.04, -0.04, 0.0)]
    five, twenty = twocommit.time_verdict(near, 4, 10, rule), twocommit.time_verdict(near * 4, 4, 10, rule)
    assert not five[0] and twenty[0] and twenty[1].hi < 0.9 < five[1].hi, "20 trials at the last look's share show it"
    one = twocommit.Rule(looks=(5,), margin_pct=20, alpha=0.05)
    rng = random.Random(2)
    # a quiet variant, a noisy baseline: the gain moves too much to decide, the variant's own time does not
    pool = [(rng.gauss(0, 0.02), rng.gauss(0, 0.25)) for _ in range(300)]
    gain_only = sum(gate_power.ci_mode(pool, 0.25, one, random.Random(k)) for k in range(300))
    with_time = sum(gate_power.ci_mode(pool, 0.25, one, random.Random(k), timing=(2, 10)) for k in range(300))
    assert gain_only < 60 and with_time > 270, (gain_only, with_time)
    unchanged = sum(gate_power.ci_mode(pool, 0.0, one, random.Random(k), timing=(2, 10)) for k in range(300))
    assert unchanged <= 3, unchanged
    # a pool of bare log gains has no time rows to judge
    gains = [v - b for v, b in pool]
    assert sum(gate_power.ci_mode(gains, 0.25, one, random.Random(k), timing=(2, 10)) for k in range(300)) < 60


def test_the_pairs_drawn_are_the_trials_gains_and_each_technique_counts_its_configurations():
    from hpb import config, verdicts
    suite = config.load_suite()
    assert gate_power.time_configs(suite) == {"redis-mget-4x": 4, "redis-pooled-1.3x": 4,
                                              "split-indexof-2char-2x": 4, "validator-shared-50x": 2}
    run = load_run(ci_run("Z-03bc700"))
    figures = gate_power.trial_figures([run], suite)
    assert set(figures) == set(gate_power.checks_per_claim(suite))
    by = twocommit.sides(run)
    for t, c in twocommit.gained_pairs(suite):
        groups, _, _, _ = verdicts._claim_groups(by["head"], c, t, suite)
        logs = verdicts.paired_logs(groups[0].result(c["variant"]), groups[0].result(c["baseline"]), t, "primary", "speedup")
        label, pairs = next((lab, p) for lab, p in figures[c["id"]] if lab.startswith(run.name + " head"))
        assert [v - b for v, b in pairs] == pytest.approx(logs, abs=1e-12), label
    pool = gate_power.centred_pairs(figures["validator-shared-50x"])
    assert sum(v for v, _ in pool) == pytest.approx(0, abs=1e-9) and sum(b for _, b in pool) == pytest.approx(0, abs=1e-9)


def test_a_pairs_trials_count_only_from_runs_that_placed_its_forks_as_ci_does():
    import dataclasses
    from hpb import config
    suite = config.load_suite()
    run = load_run(ci_run("Z-03bc700"))
    pinned = dataclasses.replace(run, provenance={**run.provenance, "oneCpu": {"benchmarks": "Redis", "cpu": 0}})
    assert gate_power.one_cpu(run) is None and gate_power.one_cpu(pinned) == "Redis"
    assert gate_power.on_one_cpu("Redis", "io.hotpathbench.redis.RedisBenchmark.batched")
    assert not gate_power.on_one_cpu("Redis", "io.hotpathbench.split.SplitBenchmark.split")
    assert not gate_power.on_one_cpu(None, "io.hotpathbench.redis.RedisBenchmark.batched")
    redis = {"redis-mget-4x", "redis-pooled-1.3x"}
    # CI places Redis on one CPU: the unplaced run gives every pair but Redis's, the placed run Redis's too
    by_ci = gate_power.trial_figures([run], suite, "Redis", by_placement=True)
    assert set(by_ci) == set(gate_power.checks_per_claim(suite)) - redis
    assert set(gate_power.trial_figures([pinned], suite, "Redis", by_placement=True)) == set(gate_power.checks_per_claim(suite))
    # CI places nothing: a run that placed Redis gives no Redis trials; without by_placement every run counts
    assert set(gate_power.trial_figures([pinned], suite, None, by_placement=True)) == set(gate_power.checks_per_claim(suite)) - redis
    assert set(gate_power.trial_figures([pinned], suite)) == set(gate_power.checks_per_claim(suite))
    # a pass is at CI's placement when every benchmark it measured was placed as CI places it
    assert gate_power.placed_as(pinned, "Redis") and not gate_power.placed_as(run, "Redis")
    assert gate_power.placed_as(run, None) and not gate_power.placed_as(pinned, None)
    assert gate_power.placement(pinned) == "one CPU: Redis" and gate_power.placement(run) == "the kernel's"
    # the spreads by placement: only pairs measured both ways, each placement its own pooled figures
    spreads = gate_power.placement_spreads([run, pinned], suite)
    assert {cid for cid, _ in spreads} == redis
    for cid in redis:
        kernel, one = spreads[(cid, "the kernel's")], spreads[(cid, "one CPU")]
        assert kernel == one and kernel[0] == 1 and kernel[1] >= 5 and 0 < kernel[2] < kernel[3] < 1
    assert gate_power.placement_spreads([run], suite) == {}


def test_a_pooled_sd_centres_each_group_on_its_own_mean():
    sd, dof = gate_power.pooled_sd([[1.0, 3.0], [10.0, 12.0, 14.0]])  # squares 2 + 8 over 1 + 2 degrees
    assert dof == 3 and sd == pytest.approx(math.sqrt(10 / 3))


def test_the_placement_table_gives_one_cpus_spread_against_the_kernels_with_an_f_interval():
    spreads = {("redis-mget-4x", "one CPU"): (3, 25, 0.076, 0.160, 22),
               ("redis-mget-4x", "the kernel's"): (9, 70, 0.113, 0.211, 61)}
    lines = gate_power.placement_lines({"placements": spreads})
    one = next(line for line in lines if "| one CPU |" in line)
    kernel = next(line for line in lines if "| the kernel's |" in line)
    ratio, lo, hi = sd_ratio(0.160, 22, 0.211, 61)
    assert f"{ratio:.2f}x [{lo:.2f}, {hi:.2f}]" in one and lo < 1 < hi
    assert "x [" not in kernel  # the kernel's own row is the reference
    assert gate_power.placement_lines({"placements": {}}) == []


def test_zero_false_alarms_in_n_passes_bound_the_rate_only_so_far():
    assert gate_power.upper_bound(0, 10) == pytest.approx(1 - 0.05 ** (1 / 10), abs=1e-6)  # 26%
    assert gate_power.upper_bound(0, 1) == pytest.approx(0.95, abs=1e-6)
    assert gate_power.upper_bound(3, 10) > gate_power.upper_bound(0, 10)


def test_rates_on_the_committed_runs_grow_with_the_loss_and_the_report_says_what_they_rest_on(tmp_path):
    out = tmp_path / "power.md"
    p = subprocess.run([sys.executable, str(LAB / "gate_power.py"), "--draws", "200", "--out", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert "## Real passes (results/ci/)" in text and "one CI run (any check)" in text
    sections = dict(part.split("\n", 1) for part in text.split("## Resampled passes: ")[1:])
    assert "fork means" in sections and "fast state" in sections
    for name, body in sections.items():
        rows = [line.split("|")[1:-1] for line in body.splitlines() if line.startswith(("| redis-", "| split-", "| validator-"))]
        rule = [[float(c.strip().split("%")[0]) for c in r[1:5]] for r in rows if len(r) == 5 and "% (" in r[1]]
        ci = [[r[1].strip()] + [float(c.strip().split("%")[0]) for c in r[2:8]] for r in rows
              if len(r) == 8 and r[1].strip() in ("the rule", "shown loss")]
        assert rule and len(rule) == len(ci), body
        for *_, c20, c30, g20, g30 in ci:  # the same draws: the time rows only add to what the gain check catches
            assert c20 >= g20 and c30 >= g30
        if name == "fork means":
            assert len(rule) == 4, body  # every gain claim, from the committed runs and passes
        for false_alarm, c10, c20, c30 in rule:  # the rule catches a loss at the margin at least 1 - alpha of the time
            assert 0 <= false_alarm <= 100 and c10 <= c20 + 5 and c20 <= c30 + 5 and c20 >= 90
        for (rule_fa, *_), (fails_on, ci_fa, c10, c20, c30, _, _) in zip(rule, ci):
            assert fails_on in ("the rule", "shown loss") and c10 <= c20 + 5 and c20 <= c30 + 5
            if fails_on == "shown loss":  # CI's retreat fails less often than the rule, and catches less
                assert ci_fa <= rule_fa
        assert "CI's mode: looks at 5, 10 and 20 trials" in body
        assert "drawn in two stages: each synthetic check first draws one whole pass" in body
        # suite.json's gate.py options leave no --undecided warn: CI judges every claim by the rule
        assert all(fails_on == "the rule" for fails_on, *_ in ci), body
    assert "Out of sample: CI's mode, resampled the same way from the" in sections["fast state"]
    assert "Out of sample" not in sections["fork means"]
    assert "| out (after the rule) |" in text and "| in (chose the rule) |" in text


def test_a_pass_made_at_earlier_looks_keeps_the_options_ci_judged_it_with_then():
    """CI's looks now reach 20; a pass measured when they stopped at 10 is judged in CI's mode with the
    options its record kept (then --undecided warn), not today's, which would fail every undecided check."""
    from hpb import config
    suite = config.load_suite()
    passes = {run.name: (rec, failed, ci_mode) for rec, run, failed, _, ci_mode in gate_power.real_passes(suite)}
    rec, failed, ci_mode = passes["20261126T015030Z-0a6e11c-dirty.json"]  # A/A at looks 5,10: Redis pooled undecided
    assert rec["judge"][:2] == ["--undecided", "warn"] and gate_power.ci_looks(suite) != (5, 10)
    assert failed and not ci_mode
    for name, (rec, failed, ci_mode) in passes.items():
        assert ci_mode <= failed, name  # CI's mode, strict or not, fails only on checks the rule fails on


def test_each_pass_says_what_its_gain_checks_measured_and_the_readme_how_large_each_patch_was():
    """The indexof-slower-10pct pass of 2026-11-26 01:21 cost the gain 12-14%: inside the 20% margin, so the
    rule passed it, and the row and the README say so with the figures the rule judged."""
    from hpb import config
    suite = config.load_suite()
    passes = gate_power.real_passes(suite)
    rec = next(rec for rec, run, *_ in passes if run.name == "20261126T012150Z-0a6e11c-dirty.json")
    assert {(cid, where, n) for cid, where, _, n in rec["gains"]} == {
        ("split-indexof-2char-2x", "||", 10), ("split-indexof-2char-2x", "::", 10)}
    for *_, fig, _ in rec["gains"]:
        assert 0.80 < fig.lo < fig.value < fig.hi < 1  # a loss, shown to be under the margin
    assert gate_power.gain_words(rec["gains"]) == ("`split-indexof-2char-2x` `::` 0.875x [0.824, 0.929] (10); "
                                                   "`split-indexof-2char-2x` `||` 0.865x [0.809, 0.924] (10)")
    assert gate_power.ratio_span([0.9011, 0.8651]) == "0.865x-0.901x"
    assert gate_power.ratio_span([0.9, 0.90001]) == "0.9x"
    # the README gives the range of the gains the patch reaches (split's), not those of the other techniques
    # that the passes before 2026-11-25 19:00 gated alongside
    mine = [p for p in passes if p[0].get("patch") == "indexof-slower-10pct"]
    assert all(rec["reached"] == {"split-indexof-2char-2x"} for rec, *_ in mine)
    assert any(cid != "split-indexof-2char-2x" for rec, *_ in mine for cid, *_ in rec["gains"])
    split = [fig.value for rec, *_ in mine for cid, _, fig, _ in rec["gains"] if cid == "split-indexof-2char-2x"]
    block = gate_power.readme_block([], 100, mine)
    caught, by_rule = sum(ci for *_, ci in mine), sum(failed for _, _, failed, _, _ in mine)
    assert f"`indexof-slower-10pct` {caught} of {len(mine)} ({by_rule}; " in block
    assert f"; {gate_power.ratio_span(split)})" in block
    aa = [p for p in passes if p[0].get("expect") == "pass"][:3]
    assert all(rec["reached"] is None for rec, *_ in aa)


def test_the_plan_needs_more_trials_for_noisier_trials_and_five_at_the_spread_it_names():
    def pool(sd):  # a run's per-trial log gains with exactly this sample sd (n - 1 degrees of freedom)
        x = sd * math.sqrt(19 / 20)
        return [("run", [x, -x] * 10)]
    rows, k, per_check, five = gate_power.plan({"quiet": pool(0.03), "noisy": pool(0.17)}, [], RULE)
    assert k == 2 and per_check == pytest.approx(1 - 0.99 ** 0.5)
    n = {cid: trials for cid, _, _, trials, _ in rows}
    assert n["quiet"] <= 5 < n["noisy"]
    assert all(mins is None for *_, mins in rows)  # no real pass: no seconds to price the trials at
    # at the spread it names, one look of 5 trials meets the targets (and a little more spread does not)
    assert gate_power.plan({"a": pool(five), "b": pool(five)}, [], RULE)[0][0][3] == 5
    assert gate_power.plan({"a": pool(five * 1.05), "b": pool(five * 1.05)}, [], RULE)[0][0][3] > 5


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    for args in (["--looks", "1"], ["--margin", "150"], ["--looks", "x"], ["--looks", "10,5"]):
        p = subprocess.run([sys.executable, str(LAB / "gate_power.py"), *args], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (args, p.stderr)


def test_gate_pass_lists_its_patches_and_refuses_an_unknown_one_in_one_line():
    p = subprocess.run([sys.executable, str(LAB / "gate_pass.py"), "--list"], capture_output=True, text=True)
    assert p.returncode == 0 and "indexof-slower-10pct" in p.stdout.split()
    p = subprocess.run([sys.executable, str(LAB / "gate_pass.py"), "--patch", "nope"], capture_output=True, text=True)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "no patch 'nope'" in p.stderr


def test_an_aa_pass_can_be_scoped_to_some_claims_as_ci_scopes_a_change_and_refuses_others_in_one_line():
    import gate_pass
    args = ["-Djmh.against=abc", "-Djmh.gate", "-Djmh.claims=split-indexof-2char-2x"]
    assert gate_pass.scoped(args, None) == args
    assert gate_pass.scoped(args, ["redis-mget-4x", " redis-pooled-1.3x"]) == [
        "-Djmh.against=abc", "-Djmh.gate", "-Djmh.claims=redis-mget-4x,redis-pooled-1.3x"]
    for argv, says in ((["--claims", "nope"], "--claims: nope is not a gated gain claim"),
                       (["--claims", ""], "--claims: none given"),
                       (["--claims", "redis-mget-4x", "--patch", "indexof-slower-10pct"], "--claims scopes an A/A pass")):
        p = subprocess.run([sys.executable, str(LAB / "gate_pass.py"), *argv], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and says in p.stderr, (argv, p.stderr)


def test_an_interrupted_gate_pass_lets_its_jmh_run_clean_up_before_it_ends(tmp_path):
    """Ctrl-C or a kill of gate_pass.py: the JMH run gets SIGTERM and time to run its shutdown hook (which
    removes the -Djmh.against worktree and the fork files); subprocess.run would have killed it at once."""
    child = ("import signal, sys, time, pathlib\n"
             "def stop(*_):\n"
             "    time.sleep(1.0)\n"  # a clean-up that takes a while
             "    pathlib.Path('cleaned').write_text('yes')\n"
             "    sys.exit(130)\n"
             "signal.signal(signal.SIGTERM, stop)\n"
             "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"  # as a JVM started in the background
             "pathlib.Path('started').write_text('yes')\n"
             "time.sleep(60)\n")
    # gate_pass.interruptible(): a shell that starts a job in the background (nohup ... &) hands
    # SIGINT down ignored, to gate_pass and to the JVM it starts; a kill -INT or -TERM must still clean up
    driver = (f"import sys; sys.path.insert(0, {str(LAB)!r}); import gate_pass; gate_pass.interruptible()\n"
              f"try:\n    gate_pass.run_to_end([sys.executable, '-c', {child!r}], '.')\n"
              "except KeyboardInterrupt:\n    print('interrupted after', 'cleaned' if __import__('os').path.exists('cleaned') else 'no clean-up')\n")
    for sig in (signal.SIGINT, signal.SIGTERM):  # a kill -INT or -TERM of gate_pass alone
        where = tmp_path / sig.name
        where.mkdir()
        p = subprocess.Popen([sys.executable, "-c", driver], cwd=where, stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not (where / "started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (where / "started").exists()
        p.send_signal(sig)
        out, _ = p.communicate(timeout=60)
        assert out.strip() == "interrupted after cleaned", (sig.name, out)


def test_the_cap_brings_forward_the_look_its_open_groups_cannot_reach_within_it():
    looks = (5, 10, 20)
    # two groups of 100 s a trial: one decided at 5, one at 20; after look 5 (1000 s) the open one
    # needs 500 s to look 10, after look 10 (1500 s) 1000 s more to look 20
    used = [(5, 100.0), (20, 100.0)]
    assert gate_power.cap_cut(used, looks, None) is None
    assert gate_power.cap_cut(used, looks, 2500) is None
    assert gate_power.cap_cut(used, looks, 2499) == (10, 19), "1000 s to go do not fit in 2499, 9 rounds of 100 s do"
    assert gate_power.cap_cut(used, looks, 1799) == (10, 12), "299 s left at look 10: two whole rounds"
    assert gate_power.cap_cut(used, looks, 1499) == (5, 9), "nor 500 s after the first look's 1000 in 1499: 4 rounds"
    assert gate_power.cap_cut(used, looks, 1050) == (5, 5), "no round fits: ended at the look it reached"
    assert gate_power.cap_cut([(5, 100.0), (5, 100.0)], looks, 1) is None, "every group decided at 5: nothing is cut"


def test_a_check_the_cap_ended_is_judged_on_the_trials_it_reached():
    rule = gate_power.rule_for((5, 10, 20), 20.0, 0.05)
    steady = ([0.01, -0.01] * 10, ([], []))
    assert not gate_power.cut_short(steady, 15, rule, strict=True), "15 steady trials clear the margin"
    wide = ([0.4, -0.4] * 10, ([], []))
    assert gate_power.cut_short(wide, 15, rule, strict=True), "undecided at 15, judged strictly: fails"
    assert not gate_power.cut_short(wide, 15, rule, strict=False), "undecided, not strict: only a shown loss fails"
    slower = ([0.0] * 20, ([-0.3, -0.31] * 10, [0.0] * 20))
    assert gate_power.cut_short(slower, 15, rule, strict=True, timing=(2, 10.0)), "a time row shown 26% slower fails"
    # judged at the stricter of the two looks' levels, 0.9875 between 10 and 20: a change whose bound at
    # 0.975 (the last look's) would clear the bar, but not at 0.9875
    d = [math.log(0.9) + 0.21 * (-1) ** i for i in range(15)]
    assert twocommit.one_sided(d, 0.975).lo > 0.8 > twocommit.one_sided(d, 0.9875).lo
    assert rule.level_at(15) == 0.9875 and twocommit.decide(d, rule)[0] == "inconclusive"
    assert gate_power.cut_short((d, ([], [])), 15, rule, strict=True)


def test_the_report_names_the_checks_the_cap_ended_failing(monkeypatch):
    rule = gate_power.rule_for((5, 10, 20), 20.0, 0.05)
    # each synthetic check is decided after the trials its pool names: 'quiet' at 5, the others only at
    # 20; with 100 s a trial each, a cap of 2000 s brings the look at 10 forward (1500 s spent at the
    # first look, 1000 to go): 'noisy' and 'steady' end at 7 trials (2 rounds of 200 s fit in 500),
    # where noisy's trials are undecided and steady's clear the margin
    trials = {5: [0.0] * 20, 20: [0.4, -0.4] * 10, 21: [0.01, -0.01] * 10}
    monkeypatch.setattr(gate_power, "ci_checks",
                        lambda pool, *_: (False, False, min(pool[0], 20), (trials[pool[0]], ([], []))))
    pools = {"quiet": [5], "noisy": [20], "steady": [21]}
    every = frozenset(pools)
    secs = dict.fromkeys(pools, 100.0)
    r = gate_power.estimate_ci(pools, rule, 200, 3, strict=every, seconds=secs, cap_seconds=2000.0)
    assert r[("capped", 0.0)] == 1.0 and r[("cap failed", 0.0)] == 1.0 and r[("run capped", 0.0)] == 1.0
    assert r[("cut open", "noisy")] == 1.0 and r[("cut open", "steady")] == 0.0 and r[("cut open", "quiet")] == 0.0
    assert gate_power.cut_open(r) == [(1.0, "noisy")]
    words = gate_power.cap_lines({"ci_rates": r, "cap": 2000.0})[1]
    assert "`noisy`'s in 100.0% of the runs" in words and "`quiet`" not in words and "`steady`" not in words, words
    calm = gate_power.estimate_ci({"quiet": [5], "steady": [21]}, rule, 200, 3, strict=every,
                                  seconds=secs, cap_seconds=1600.0)
    assert calm[("capped", 0.0)] == 1.0 and calm[("cap failed", 0.0)] == 0.0, "steady passes at the look brought forward"
    assert calm[("run capped", 0.0)] == 0.0 and gate_power.cut_open(calm) == []
    uncapped = gate_power.estimate_ci(pools, rule, 200, 3, strict=every, seconds=secs, cap_seconds=4500.0)
    assert uncapped[("capped", 0.0)] == 0.0 and gate_power.cut_open(uncapped) == []
    assert "ended failing" not in gate_power.cap_lines({"ci_rates": uncapped, "cap": 4500.0})[1]


def test_a_configuration_with_its_own_warm_up_is_priced_at_the_forks_that_ran_it():
    from types import SimpleNamespace
    bench = "x.V.validate"
    suite = SimpleNamespace(techniques=[SimpleNamespace(benchmark="x.V", raw={"warmup": [
        {"method": "validate", "params": {"variant": ["SHARED"]}, "iterations": 5, "time": "2s", "why": "w"}]})])

    def a_pass(shared_warmup, shared_s, per_call_s=40.0, trials=2):
        results = [SimpleNamespace(benchmark=bench, params={"variant": v, "side": side}, warmup=(w, "2 s"))
                   for v, w in (("SHARED", shared_warmup), ("PER_CALL", 15)) for side in ("base", "head")]
        sched = [{"group": "g1", "trial": t, "benchmark": bench, "params": {"variant": v}, "side": side, "seconds": sec}
                 for t in range(1, trials + 1) for v, sec in (("SHARED", shared_s), ("PER_CALL", per_call_s))
                 for side in ("base", "head")]
        prov = {"trials": {"schedule": sched}, "gate": {"checks": [{"claim": "c", "group": "g1", "params": {}}]}}
        return ({}, SimpleNamespace(provenance=prov, results=results))

    old, new = a_pass(15, 40.0), a_pass(5, 20.0, trials=3)
    assert gate_power.check_seconds([old])[("c", ())] == 160, "four forks of 40 s a trial"
    assert gate_power.check_seconds([old, new])[("c", ())] == 140, "without the suite, every pass alike: SHARED 30 s a fork"
    assert gate_power.check_seconds([old, new], suite)[("c", ())] == 120, "SHARED's forks at its own warm-up only: 2 x 20 + 2 x 40"
    assert gate_power.check_seconds([old], suite)[("c", ())] == 160, "until a pass ran it, at the forks there are"


def test_cis_cap_is_read_from_its_gate_args():
    from hpb import config
    cap = gate_power.ci_cap(config.load_suite())
    assert cap is None or cap > 0
    args = next(p["args"] for p in config.load_suite().ci_passes.values() if p.get("gate"))
    assert (cap is None) == (not any(a.startswith("-Djmh.budget=") for a in args))


def test_a_narrower_margin_catches_a_ten_percent_loss_for_more_trials_and_more_false_alarms():
    rule = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    rng = random.Random(4)
    pool = [(rng.gauss(0, 0.05), rng.gauss(0, 0.05)) for _ in range(300)]
    t = gate_power.margin_tradeoff({"c": pool}, rule, 400, 3, strict={"c"}, checks={"c": 2},
                                   seconds={"c": 60.0}, margins=(10.0,))
    assert set(t) == {("c", 10.0), ("c", 20.0)}, "CI's own margin is priced beside the narrower one"
    fa20, n20, min20, caught20 = t[("c", 20.0)]
    fa10, n10, min10, caught10 = t[("c", 10.0)]
    assert caught20 < 0.2 < 0.9 < caught10, (caught20, caught10)  # a 10% loss is inside a 20% margin
    assert n10 > n20 >= 5 and min10 == pytest.approx(n10 * 2 * 60 / 60), "two checks of 60 s a trial"
    assert fa10 >= fa20
    assert t[("c", 20.0)] == gate_power.margin_tradeoff({"c": pool}, rule, 400, 3, strict={"c"}, checks={"c": 2},
                                                        seconds={"c": 60.0}, margins=())[("c", 20.0)], "seeded"
    lines = gate_power.tradeoff_lines({"tradeoff": t, "ci_rule": rule})
    assert any(l.startswith("| c | 10% |") for l in lines) and any("20% (CI's)" in l for l in lines)


def test_the_best_of_two_forks_leaves_out_a_slow_jit_outcome_and_is_priced_at_two_trials():
    rng = random.Random(5)
    # one fork in ten lands in a JIT outcome 20% slower for its whole run
    pairs = [(rng.gauss(0, 0.03) - (0.2 if rng.random() < 0.1 else 0.0), rng.gauss(0, 0.03)) for _ in range(200)]
    figures = {"c": [("run", pairs), ("short", pairs[:5])]}
    units = gate_power.best_of(figures, 2)
    assert [label for label, _ in units["c"]] == ["run"], "5 trials make 2 units: too few, as trial_figures drops them"
    assert len(units["c"][0][1]) == 100
    assert units["c"][0][1][0] == (max(pairs[0][0], pairs[1][0]), max(pairs[0][1], pairs[1][1]))
    rule = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    b = gate_power.best_of_tradeoff(figures, rule, 300, 3, strict={"c"}, checks={"c": 1}, seconds={"c": 60.0})
    one, best = b["sd"]["c"]
    assert best < one / math.sqrt(2), "leaving the slow forks out steadies a unit more than averaging two forks would"
    fa, n, mins, caught = b["tradeoff"][("c", 10.0)]
    assert n >= 5 and mins == pytest.approx(n * 2 * 60 / 60), "a unit costs two trials"
    lines = gate_power.best_of_lines({"best_of": b, "ci_rule": rule})
    assert any(l.startswith("| c | 10% |") for l in lines) and any("20% (CI's)" in l for l in lines)


def test_a_time_row_settles_when_shown_slower_than_the_threshold_or_slower_by_less_than_the_settle_line():
    rule = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    steady = [math.log(0.9) + x for x in (0.001, -0.001, 0.002, -0.002, 0.0)]
    assert gate_power.time_settled(steady, rule, 4, 5.0, 10.0), "10% slower, tightly: shown slower than 5%"
    same = [x for x in (0.001, -0.001, 0.002, -0.002, 0.0)]
    assert gate_power.time_settled(same, rule, 4, 5.0, 10.0), "unchanged, tightly: shown slower by less than 10%"
    noisy = [math.log(0.93) + x for x in (0.08, -0.08, 0.05, -0.05, 0.0)]
    assert not gate_power.time_settled(noisy, rule, 4, 5.0, 10.0), "7% slower, loosely: neither"
    assert not gate_power.time_settled(steady[:1], rule, 4, 5.0, 10.0), "one trial gives no bound"


def test_a_check_held_open_keeps_the_gain_decided_at_its_first_look_and_runs_until_its_time_rows_settle():
    rule = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    # the two configurations move together (the gain is steady: decided at 5) but each moves 8% a trial
    rng = random.Random(2)
    pool = []
    for _ in range(400):
        common = rng.gauss(0, 0.08)
        pool.append((common + rng.gauss(0, 0.005), common + rng.gauss(0, 0.005)))
    plain = gate_power.sequential(pool, 0.0, rule, random.Random(1))
    held = gate_power.sequential(pool, 0.0, rule, random.Random(1), hold=(4, 5.0, 10.0))
    assert plain[:2] == ("pass", 5), "the gain alone stops at the first look"
    assert held[0] == "pass" and held[1] > 5, "its time rows, 8% a trial, are not settled at 5"
    assert held[3][:5] == plain[3], "the same draws: the held check's first five trials are the plain one's"
    rates = gate_power.hold_tradeoff({"c": pool}, rule, 200, 3, strict={"c"}, checks={"c": 1},
                                     timing={"c": (4, 10.0)}, seconds={"c": 60.0}, rules=((5.0, None), (5.0, 10.0)))
    plain_rates = gate_power.estimate_ci({"c": pool}, rule, 200, 3, {"c"}, {"c": 1}, {"c": (4, 10.0)}, {"c": 60.0})
    assert rates[(5.0, 10.0)][("trials", "c")] > plain_rates[("trials", "c")]
    assert rates[(5.0, 10.0)][("c", 0.1)] > plain_rates[("c", 0.1)], "a 10% slower variant: caught more often held open"
    lines = gate_power.hold_lines({"hold": rates, "threshold": 10.0, "ci_rates": plain_rates, "per_claim": {"c": []},
                                   "checks": {"c": 1}, "seconds": {"c": 60.0}})
    assert any(l.startswith("| c | fail > 10% (CI's) |") for l in lines)
    assert any(l.startswith("| c | fail > 5%, settle < 10% |") for l in lines)
    assert any(l.startswith("| c | fail > 5%, no hold |") for l in lines)
    assert rates[(5.0, None)][("trials", "c")] == plain_rates[("trials", "c")], "no hold: stops where the gain decides"
    assert any(l.startswith("A run reaching every technique: fail > 10% (CI's): ") for l in lines)
    line = gate_power.hold_summary({"hold": rates, "threshold": 10.0, "ci_rates": plain_rates, "per_claim": {"c": []},
                                    "checks": {"c": 1}, "seconds": {"c": 60.0}})
    r = rates[(5.0, 10.0)]
    assert f"CI's 10% catches {plain_rates[('c', 0.1)]:.0%} (" in line
    assert f"5% held open to a settle line of 10% catches {r[('c', 0.1)]:.0%} (false alarms {r[('c', 0.0)]:.1%}" in line
    assert f"5% alone catches {rates[(5.0, None)][('c', 0.1)]:.0%} (" in line
    assert "re-judged" not in line, "no real passes replayed here"
    assert f"{r[('trials', 'c')]:.0f}-{r[('trials', 'c')]:.0f} minutes" in line, "a trial of one check costs a minute here"


def _today(suite):
    """The real passes made as CI makes them today, with CI's rule and strict set, for the replay tests."""
    from hpb import config
    rule = gate_power.rule_for(gate_power.ci_looks(suite), twocommit.MARGIN_PCT, twocommit.ALPHA)
    sec = {"figure": config.judging(suite.gate_judge())["fork_figure"], "ci_rule": rule,
           "one_cpu": gate_power.gate_arg(suite, "oneCpu")}
    strict = frozenset(c["id"] for _, c in twocommit.gained_pairs(suite))
    return gate_power.passes_today(gate_power.real_passes(suite), sec), rule, strict


def test_replayed_at_cis_own_threshold_every_pass_fails_exactly_where_its_gain_or_time_checks_fail():
    """The threshold alone moves no stop, so the replay of a pass at CI's threshold is the gate's own
    judgement of its gains and time rows, pass by pass: each group is judged at the trials its gains' pairs
    ran together, where the pass judged them. A group's own count can be larger: once its gains are decided
    a member can run on for another row (an allocation row that 5 forks a side cannot decide)."""
    from hpb import config
    suite = config.load_suite()
    passes, rule, strict = _today(suite)
    assert len(passes) >= 20
    threshold = twocommit.time_threshold(suite)
    for rec, run, *_ in passes:
        selected = twocommit.selected_claims(run)
        if selected is not None and not selected & strict:
            continue  # a pass of the breadth rule alone (no gated claim): the replay is the gated claims' rule
        verdict, failing, stops = gate_power.replay_hold(run, suite, rule, threshold, None, strict)
        judged = twocommit.judge(run, suite, strict=strict)
        real = [v for v in judged if v.check in ("gain", "time") and v.failing]
        assert (verdict == "FAILED") == bool(real), run.name
        assert verdict != "undetermined", run.name
        group_of = {(c.get("claim"), tuple(sorted((c.get("params") or {}).items()))): c.get("group")
                    for c in run.provenance.get("gate", {}).get("checks") or []}
        judged_at = {group_of.get((v.id, tuple(sorted(v.params.items())))) or f"{v.id} {v.params}": v.extra["n"]
                     for v in judged if v.check == "gain" and "n" in (v.extra or {})}
        groups = {g["id"]: g["trials"] for g in run.provenance["trials"]["groups"]}
        assert all(stops[g] == judged_at[g] <= groups.get(g, stops[g]) for g in stops), \
            f"{run.name}: each group judged where the pass judged its gains"


def test_the_10pct_pass_that_passed_at_10_percent_fails_at_2_5_percent_and_held_open_at_its_tenth_trial():
    """2026-11-26 16:50: indexof-slower-10pct cost INDEX_OF 10% (`::` 0.896x [0.826, 0.972] at 10 trials):
    not shown slower than 10%, shown slower than 2.5%. Held open to a 10% settle line its groups stop
    at 10 trials as they did (the rows settle there), so that replay is exact too."""
    from hpb import config
    suite = config.load_suite()
    passes, rule, strict = _today(suite)
    run = next(run for rec, run, *_ in passes if run.name.startswith("20261126T165058Z"))
    assert gate_power.replay_hold(run, suite, rule, 10.0, None, strict)[0] == "passed"
    verdict, failing, stops = gate_power.replay_hold(run, suite, rule, 2.5, None, strict)
    assert verdict == "FAILED" and "split-indexof-2char-2x :: time" in failing
    assert not any(f.endswith(" gain") for f in failing), "its gains fell by less than the margin"
    verdict, failing, stops = gate_power.replay_hold(run, suite, rule, 2.5, 10.0, strict)
    assert verdict == "FAILED" and set(stops.values()) == {10}


@pytest.mark.xfail(strict=True, reason="the replay judges allocation one row at a time (no Bonferroni over the pass's m "
                   "rows, as hpb.breadth does since the 5% leg went), so an A/A pass fails on a +16 B drift here; "
                   "the replay must pass m before this holds again")
def test_a_held_group_that_the_pass_stopped_before_its_rows_settle_is_undetermined_unless_another_failed():
    from hpb import config
    suite = config.load_suite()
    passes, rule, strict = _today(suite)
    replayed = gate_power.replay_passes(passes, suite, rule, strict, ((2.5, None), (2.5, 10.0)))
    held = replayed[(2.5, 10.0)]
    assert any(v == "undetermined" for _, v, _ in held[None]), "A/A passes that stopped at 5 with unsettled rows"
    for name, v, stops in held[None]:
        assert v != "FAILED" or stops, name
    # the allocation patch fails on allocation under every rule: the hold moves only where a group stops
    assert all(v == "FAILED" for rule_ in replayed.values() for _, v, _ in rule_["indexof-alloc-one-object"])
    words = gate_power.replay_words([("a", "FAILED", {}), ("b", "undetermined", {}), ("c", "passed", {})], True)
    assert words == "caught 1 of 3 (1 undetermined: the hold would have run past the trials the pass made)"
    assert gate_power.replay_words([("a", "passed", {})], False) == "failed 0 of 1"


def test_a_check_draws_one_whole_pass_then_all_its_trials_from_it():
    quiet = ((0.001, 0.0), (-0.001, 0.0))
    noisy = ((0.5, 0.0), (-0.5, 0.0))
    units = gate_power.Units((quiet, noisy), ("quiet", "noisy"))
    rule = twocommit.Rule(twocommit.LOOKS, 20, 0.05, twocommit.SPEND)
    rng = random.Random(1)
    seen = set()
    for _ in range(200):
        d = gate_power.sequential(units, 0.0, rule, rng)[3]
        small = all(abs(x) <= 0.002 + 1e-12 for x in d)
        assert small or all(abs(x) in (0.0, 1.0) for x in d), d
        seen.add(small)
    assert seen == {True, False}, "either pass is drawn, never a mix"


def test_trials_are_centred_on_their_runs_mean_and_keep_its_sample_variance():
    import statistics
    pairs = [(1.0, 0.5), (3.0, 0.5), (2.0, 2.0)]
    out = gate_power.centred_pairs([("run", pairs)])
    assert sum(v for v, _ in out) == pytest.approx(0) and sum(b for _, b in out) == pytest.approx(0)
    # drawn with replacement, the centred trials spread as the run's sample variance says (n - 1), not less
    assert statistics.pvariance([v for v, _ in out]) == pytest.approx(statistics.variance([v for v, _ in pairs]))
    assert statistics.pvariance([b for _, b in out]) == pytest.approx(statistics.variance([b for _, b in pairs]))
    assert gate_power.trial_sd([("a", [1.0, 3.0]), ("b", [10.0, 14.0])]) == pytest.approx(math.sqrt((2 + 8) / 2))


def test_a_noisy_pass_among_quiet_ones_makes_noisy_checks_not_every_check_a_little_noisy():
    """Drawn whole, a pass that was noisy makes a tenth of the synthetic checks as noisy as it was, as a CI
    run on such a boot would be: the false-alarm rate is the mix of the passes' own rates. Pooled, its
    trials spread over every check, and the rate is another one (here more than three times as high)."""
    rng = random.Random(7)
    quiet = [[(rng.gauss(0, 0.01), rng.gauss(0, 0.01)) for _ in range(10)] for _ in range(9)]
    noisy = [(rng.gauss(0, 0.35), rng.gauss(0, 0.35)) for _ in range(10)]
    runs = [(f"q{i}.json side", p) for i, p in enumerate(quiet)] + [("n.json side", noisy)]
    one = twocommit.Rule(looks=(5,), margin_pct=20, alpha=0.05)

    def rate(pool):
        return gate_power.estimate_ci({"c": pool}, one, 500, 3, strict={"c"})[("c", 0.0)]
    units = gate_power.units_of(runs)
    assert units.names == ("n.json", *(f"q{i}.json" for i in range(9)))
    quiet_rate, noisy_rate = rate(gate_power.units_of(runs[:9])), rate(gate_power.units_of(runs[9:]))
    two_stage, pooled = rate(units), rate(gate_power.centred_pairs(runs))
    assert quiet_rate < 0.01 < 0.5 < noisy_rate, (quiet_rate, noisy_rate)
    assert two_stage == pytest.approx(0.9 * quiet_rate + 0.1 * noisy_rate, abs=0.04), (two_stage, noisy_rate)
    assert pooled > 3 * two_stage, (pooled, two_stage)


def test_passes_made_after_the_rule_was_fixed_are_out_of_sample_and_boots_group_passes():
    from types import SimpleNamespace
    commit, when = gate_power.RULE_FIXED

    def run(name, started, boot="b1"):
        return SimpleNamespace(name=name, provenance={"startedUtc": started, "host": {"id": "h", "bootId": boot}})
    before, after = run("a.json", "2026-11-27T13:33:10.5Z"), run("b.json", when + ".1Z", "b2")
    assert not gate_power.out_of_sample(before) and gate_power.out_of_sample(after)
    assert not gate_power.out_of_sample(SimpleNamespace(name="c.json", provenance={})), "no start time: not known to be after"
    assert gate_power.sample_words(after) == "out (after the rule)"
    by_boot = gate_power.unit_by([before, after, run("c.json", when, "b1")], "boot")
    assert by_boot("a.json head {}") == by_boot("c.json base") == "h/b1" != by_boot("b.json head")
    assert gate_power.unit_by([], "pass")("a.json head") == "a.json"
    assert gate_power.boot_of(SimpleNamespace(name="old.json", provenance={"host": {"cpuModel": "x"}})) == "unknown boot (old.json)"
    git = subprocess.run(["git", "show", "-s", "--format=%cI", commit], cwd=SCRIPTS.parent, capture_output=True, text=True)
    if git.returncode == 0:  # the commit the rule was fixed at, and its time, agree with the history
        assert git.stdout.strip().startswith(when)
