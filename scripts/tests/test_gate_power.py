"""gate_power.py: the two-commit rule on hand-checkable pools, and its report on the committed runs."""
import math
import random
import subprocess
import sys
from pathlib import Path

import gate_power

SCRIPTS = Path(__file__).resolve().parents[1]


def test_the_rule_passes_no_change_and_fails_a_loss_beyond_the_margin_when_trials_agree():
    rng = random.Random(0)
    still = [0.0] * 8  # every trial's gain the same: the bound is the mean itself
    assert gate_power.passes(still, 4, 0.0, 0.10, 0.995, rng)
    assert gate_power.passes(still, 4, 0.05, 0.10, 0.995, rng)  # a 5% loss is inside a 10% margin
    assert not gate_power.passes(still, 4, 0.20, 0.10, 0.995, rng)


def test_a_wide_pool_cannot_show_non_inferiority_with_few_trials():
    rng = random.Random(0)
    wide = [-0.5, 0.5, -0.4, 0.4, 0.0]  # one trial's gain moves by +/-50%
    fails = sum(not gate_power.passes(wide, 3, 0.0, 0.10, 0.995, rng) for _ in range(200))
    assert fails > 150  # inconclusive, and so failed, nearly every time: the rule never guesses


def test_rates_on_the_committed_runs_grow_with_the_loss_and_the_report_says_what_they_rest_on(tmp_path):
    out = tmp_path / "power.md"
    p = subprocess.run([sys.executable, str(SCRIPTS / "gate_power.py"), "--trials", "8", "--draws", "300",
                        "--out", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert "## What the passes are drawn from" in text and "one CI run" in text
    rows = [line.split("|")[1:-1] for line in text.splitlines() if line.startswith("| ") and "%" in line and "**" not in line
            and "caught" not in line]
    rates = [[float(c.strip().rstrip("%")) for c in r[2:6]] for r in rows if len(r) >= 6 and r[1].strip() == "8"]
    assert rates, text
    for false_alarm, c10, c20, c30 in rates:
        assert 0 <= false_alarm <= 100 and c10 <= c20 + 5 and c20 <= c30 + 5


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    for args in (["--trials", "1"], ["--margin", "150"], ["--trials", "x"]):
        p = subprocess.run([sys.executable, str(SCRIPTS / "gate_power.py"), *args], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (args, p.stderr)
