"""The gate's rule and the schedule's counts, read from scripts/suite.json (`rule` and `schedule`), which
says beside each number why. They live there only: twocommit.py judges with them, and scripts/plan.py hands
them to the plugin, which schedules a -Djmh.gate run's looks and a default run's trials by them.
"""
from __future__ import annotations

import json

from .model import SCRIPTS_DIR, InputError

SUITE_FILE = SCRIPTS_DIR / "suite.json"

RULE_KEYS = ("looks", "spend", "margin_pct", "alpha", "time_alpha", "fast_state_min_iterations")
SCHEDULE_KEYS = ("cited_trials", "min_trials")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _share(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1


def check_keys(d, section: str, keys: tuple, where: str, why_text=False, each=lambda k: None) -> None:
    """A suite.json section's keys: each of `keys` with its `_why` (a text, if why_text), each(key) called
    after its own, then no key but those and `_` notes. InputError otherwise."""
    if not isinstance(d, dict):
        raise InputError(f"{where}: {section}: expected an object")
    for k in keys:
        why = d.get(f"{k}_why")
        if k not in d or f"{k}_why" not in d or why_text and not (isinstance(why, str) and why.strip()):
            raise InputError(f"{where}: {section}: needs {k!r} and {k + '_why'!r} (the number and why)")
        each(k)
    unknown = sorted(k for k in d if not k.startswith("_") and k not in keys and k[:-4] not in keys)
    if unknown:
        raise InputError(f"{where}: {section}: unknown key {unknown[0]!r} (known: {', '.join(keys)}, each with _why)")


def check_rule(d, where: str) -> dict:
    """The `rule` section, checked: rising looks of at least 2 trials, one share of alpha per look
    summing to at most alpha, a margin in percent, shares of 1 for the alphas. InputError otherwise."""
    check_keys(d, "rule", RULE_KEYS, where)
    looks, spend = d["looks"], d["spend"]
    if (not isinstance(looks, list) or not looks or not all(_whole(x) and x >= 2 for x in looks)
            or any(b <= a for a, b in zip(looks, looks[1:]))):
        raise InputError(f"{where}: rule.looks: expected rising trial counts of at least 2, got {looks!r}")
    for k in ("alpha", "time_alpha"):
        if not _share(d[k]):
            raise InputError(f"{where}: rule.{k}: expected a share between 0 and 1, got {d[k]!r}")
    if (not isinstance(spend, list) or len(spend) != len(looks) or not all(_share(x) for x in spend)
            or sum(spend) > d["alpha"] + 1e-12):
        raise InputError(f"{where}: rule.spend: expected one share of alpha per look, summing to at most "
                         f"alpha ({d['alpha']!r}), got {spend!r}")
    margin = d["margin_pct"]
    if not isinstance(margin, (int, float)) or isinstance(margin, bool) or not 0 < margin < 100:
        raise InputError(f"{where}: rule.margin_pct: expected a percentage between 0 and 100, got {margin!r}")
    if not _whole(d["fast_state_min_iterations"]) or d["fast_state_min_iterations"] < 1:
        raise InputError(f"{where}: rule.fast_state_min_iterations: expected a positive whole number")
    return d


def check_schedule(d, where: str) -> dict:
    """The `schedule` section, checked: whole numbers of trials, each with its why."""
    def each(k):
        if not _whole(d[k]) or d[k] < 1:
            raise InputError(f"{where}: schedule.{k}: expected a positive whole number of trials, got {d[k]!r}")
    check_keys(d, "schedule", SCHEDULE_KEYS, where, each=each)
    return d


try:
    SUITE_JSON = json.loads(SUITE_FILE.read_text(encoding="utf-8"))
except (OSError, UnicodeDecodeError, ValueError) as e:
    raise InputError(f"{SUITE_FILE}: cannot read the gate's rule ({e.__class__.__name__})")
if not isinstance(SUITE_JSON, dict):
    raise InputError(f"{SUITE_FILE}: expected a JSON object")
RULE = check_rule(SUITE_JSON.get("rule"), str(SUITE_FILE))
SCHEDULE = check_schedule(SUITE_JSON.get("schedule"), str(SUITE_FILE))

LOOKS = tuple(RULE["looks"])
SPEND = tuple(float(x) for x in RULE["spend"])
MARGIN_PCT = float(RULE["margin_pct"])
ALPHA = float(RULE["alpha"])
TIME_ALPHA = float(RULE["time_alpha"])
FAST_STATE_MIN_ITERATIONS = int(RULE["fast_state_min_iterations"])
# Allocation is judged by the breadth rule (hpb/breadth.py, suite.json breadth) for every row.
CITED_TRIALS = int(SCHEDULE["cited_trials"])
MIN_TRIALS = int(SCHEDULE["min_trials"])
