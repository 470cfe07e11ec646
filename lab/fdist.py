"""Fisher's F distribution, for one question of the lab: are two spreads told apart (sd_ratio)?

Built on the product's incomplete beta function and root finder (hpb/forks.py, which gives Student's
t from them), so that both distributions rest on one implementation of each.
"""
from __future__ import annotations

import math

import labpath  # noqa: F401  puts scripts/ on the path
from hpb.stats import LEVEL, _betai, _invert


def f_cdf(x: float, d1: float, d2: float) -> float:
    """P(F <= x) for Fisher's F with d1 and d2 degrees of freedom."""
    if x <= 0:
        return 0.0
    return _betai(d1 / 2, d2 / 2, d1 * x / (d1 * x + d2))


def f_quantile(p: float, d1: float, d2: float) -> float:
    """The p quantile of Fisher's F with d1 and d2 degrees of freedom."""
    if not 0 < p < 1 or d1 <= 0 or d2 <= 0:
        raise ValueError(f"F quantile needs 0 < p < 1 and positive degrees of freedom, got p={p}, d1={d1}, d2={d2}")
    return _invert(lambda x: f_cdf(x, d1, d2), p)


def sd_ratio(sd_a: float, df_a: float, sd_b: float, df_b: float, level: float = LEVEL) -> tuple:
    """sd_a / sd_b with its two-sided interval at `level` from the F distribution of the ratio of two
    independent normal samples' variances (df_a and df_b their degrees of freedom): an interval that
    covers 1 cannot tell the two spreads apart."""
    v = (sd_a / sd_b) ** 2
    tail = (1 - level) / 2
    return (math.sqrt(v), math.sqrt(v / f_quantile(1 - tail, df_a, df_b)),
            math.sqrt(v / f_quantile(tail, df_a, df_b)))
