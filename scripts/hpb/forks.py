"""Forks, the unit of replication (docs/protocol.md): each fork's figure, forks paired by trial, and
disturbed forks.

A fork's figure is the mean of its measured iterations, or, for the gate's fast state (docs/gate.md),
its best iteration: the highest throughput or the lowest time. In a trials run a configuration's k-th
fork ran in its group's trial `trials[k]`, back to back with the other members of its group, so two
configurations pair by trial; the interval over the pairs is stats.py's.

A fork is "disturbed" when the CPU time the hypervisor stole plus the CPU time other processes used
during its iterations (noise.steal + noise.other, each a share of the machine's CPU time, written by
the plugin's NoiseProfiler) averages above DISTURBED_PCT. The policy, fixed before any run: disturbed
forks are kept, flagged and counted beside every figure they enter; never dropped.
"""
from __future__ import annotations

import math

# One implementation of each statistic lives in stats.py; these names stay importable from here.
from .stats import (LEVEL, METHOD, Paired, f_cdf, f_quantile, forks_for_p, interval_of_logs,  # noqa: F401
                    mean_interval, rank_sum_p_greater, sd_ratio, smallest_p, t_cdf, t_quantile)

# Two cores: a neighbour using a tenth of the machine's CPU time takes a fifth of the second core,
# where the JIT and GC threads of the benchmark run. Below that, the pilot's quiet forks (1-4%).
DISTURBED_PCT = 10.0
NOISE_METRICS = ("noise.steal", "noise.other")


def fork_iterations(raw) -> list:
    """Each fork's measured iteration values, from JMH's rawData (a list of forks, each a list of
    iteration values) or rawDataHistogram (each iteration a list of [value, count], taken as its mean)."""
    out = []
    for fork in raw or []:
        vals = []
        for it in fork if isinstance(fork, list) else []:
            if isinstance(it, list):  # histogram: [[value, count], ...]
                n = sum(c for _, c in it)
                if n:
                    vals.append(sum(v * c for v, c in it) / n)
            elif isinstance(it, (int, float)) and not isinstance(it, bool):
                vals.append(float(it))
        out.append(vals)
    return out


def fork_means(raw) -> list:
    """Each fork's mean of its measured iterations (NaN for a fork without any)."""
    return [sum(v) / len(v) if v else math.nan for v in fork_iterations(raw)]


def fork_bests(raw, higher_is_better: bool) -> list:
    """Each fork's best measured iteration: the highest throughput or the lowest time (NaN for a fork
    without any). On cores that switch between a fast and a slow state (docs/gate.md), the best of many
    short iterations estimates the fast state's speed, which the share of time spent slow does not move."""
    pick = max if higher_is_better else min
    return [pick(v) if v else math.nan for v in fork_iterations(raw)]


def paired_logs(a: list, a_trials, b: list, b_trials) -> list:
    """ln(a_t / b_t) for every trial t in which both configurations ran a fork with positive scores."""
    bt = dict(zip(b_trials, b))
    out = []
    for t, v in zip(a_trials, a):
        w = bt.get(t)
        if w is not None and v > 0 and w > 0 and math.isfinite(v) and math.isfinite(w):
            out.append(math.log(v / w))
    return out


def paired(a: list, a_trials, b: list, b_trials) -> Paired:
    """a against b, paired by trial."""
    return interval_of_logs(paired_logs(a, a_trials, b, b_trials))


def disturbed(noise: dict) -> list:
    """Per fork, whether its mean steal + other share exceeds DISTURBED_PCT (False when unrecorded)."""
    steal = noise.get("noise.steal") or []
    other = noise.get("noise.other") or []
    out = []
    for k in range(max(len(steal), len(other))):
        s = steal[k] if k < len(steal) and math.isfinite(steal[k]) else 0.0
        o = other[k] if k < len(other) and math.isfinite(other[k]) else 0.0
        out.append(s + o > DISTURBED_PCT)
    return out
