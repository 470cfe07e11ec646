"""core_states.py: how a series of per-window counts is judged (slow windows, spells, the CPUs
moving together), on series whose answers can be checked by hand; and its refusals."""
import subprocess
import sys
from pathlib import Path

import pytest

import core_states

LAB = Path(__file__).resolve().parents[1]


def test_spells_are_the_runs_of_slow_windows():
    assert core_states.spells([False, True, True, False, True, False, False, True, True, True]) == [2, 1, 3]
    assert core_states.spells([False, False]) == []


def test_a_series_with_two_levels_is_judged_against_its_fast_level():
    # 70 windows at 100, then 30 at 65: a third slower for 3 s at the end.
    s = core_states.summarize([100] * 70 + [65] * 30)
    assert s["fastLevel"] == 100
    assert s["slowShare"] == pytest.approx(0.3)
    assert s["slowLevel"] == pytest.approx(0.65)
    assert s["slowSpellSeconds"] == {"median": pytest.approx(3.0), "max": pytest.approx(3.0)}


def test_a_steady_series_has_no_slow_windows():
    s = core_states.summarize([100, 98, 101, 99, 100, 102, 97, 100, 100, 99])
    assert s["slowShare"] == 0
    assert s["slowLevel"] is None and s["slowSpellSeconds"] is None
    assert s["sdPercent"] < 2


def test_two_cpus_slow_at_different_times_are_told_from_cpus_slow_together():
    a = [100] * 50 + [60] * 50
    apart = core_states.together(a, [60] * 50 + [100] * 50)
    assert apart["correlation"] == pytest.approx(-1)
    assert apart["bothSlowShare"] == 0 and apart["bothSlowIfIndependent"] == pytest.approx(0.25)
    same = core_states.together(a, list(a))
    assert same["correlation"] == pytest.approx(1) and same["bothSlowShare"] == pytest.approx(0.5)


@pytest.mark.parametrize("args, says", [
    (["--seconds", "1"], "--seconds must be between 2 and 600"),
    (["--seconds", "x"], "invalid float value"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    r = subprocess.run([sys.executable, str(LAB / "core_states.py"), *args], capture_output=True, text=True)
    assert r.returncode == 2
    assert says in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_an_existing_directory_is_not_overwritten(tmp_path):
    r = subprocess.run([sys.executable, str(LAB / "core_states.py"), "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "exists" in r.stderr and len(r.stderr.strip().splitlines()) == 1
