"""Forks, the unit of replication (docs/protocol.md): each fork's figure (its mean, or its best iteration for the
gate's fast state, docs/gate.md), forks paired by trial (a configuration's k-th fork ran in trial `trials[k]`; the
interval is stats.py's, its names importable from here), disturbed forks (noise.steal + noise.other above
DISTURBED_PCT: kept, flagged and counted, never dropped) and allocation compared over forks.
"""
from __future__ import annotations

import itertools
import math

from .stats import Paired, interval_of_logs, t_quantile  # noqa: F401

# Two cores: a neighbour using a tenth of the machine's CPU time takes a fifth of the second core,
# where the JIT and GC threads of the benchmark run. Below that, the pilot's quiet forks (1-4%).
DISTURBED_PCT = 10.0
NOISE_METRICS = ("noise.steal", "noise.other")


def fork_iterations(raw) -> list:
    """Each fork's measured iteration values, from JMH's rawData (a list of forks, each a list of iteration values)
    or rawDataHistogram (each iteration a list of [value, count], taken as its mean)."""
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
    """Each fork's best measured iteration (NaN for a fork without any). On cores that switch between a fast
    and a slow state (docs/gate.md), it estimates the fast state's speed, whatever share of time was slow."""
    pick = max if higher_is_better else min
    return [pick(v) if v else math.nan for v in fork_iterations(raw)]


def paired_logs(a: list, a_trials, b: list, b_trials) -> list:
    """ln(a_t / b_t) for every trial t in which both configurations ran a fork with positive scores."""
    bt = dict(zip(b_trials, b))
    return [math.log(v / w) for t, v in zip(a_trials, a)
            if (w := bt.get(t)) is not None and v > 0 and w > 0 and math.isfinite(v) and math.isfinite(w)]


def paired(a: list, a_trials, b: list, b_trials) -> Paired:
    """a against b, paired by trial."""
    return interval_of_logs(paired_logs(a, a_trials, b, b_trials))


def disturbed(noise: dict) -> list:
    """Per fork, whether its mean steal + other share exceeds DISTURBED_PCT (False when unrecorded)."""
    pairs = itertools.zip_longest(noise.get("noise.steal") or [], noise.get("noise.other") or [], fillvalue=0.0)
    return [sum(x if math.isfinite(x) else 0.0 for x in so) > DISTURBED_PCT for so in pairs]


def rank_sum_p_greater(base: list, head: list) -> float:
    """One-sided exact Wilcoxon-Mann-Whitney test: P(head's rank sum >= the one seen) if both sides' forks come from
    one distribution (mid-ranks for ties), counted exactly as a generating function over rank sums (each subset of
    len(head) ranks adds one to its sum's coefficient). NaN with no forks on a side."""
    x = [v for v in base if math.isfinite(v)]
    y = [v for v in head if math.isfinite(v)]
    if not x or not y:
        return math.nan
    pooled = sorted(x + y)
    rank2, i = {}, 0  # twice the mid-rank, a whole number
    for v, tied in itertools.groupby(pooled):
        n_tied = len(list(tied))
        rank2[v] = 2 * i + n_tied + 1
        i += n_tied
    seen = sum(rank2[v] for v in y)
    n = len(y)
    width = math.comb(len(pooled), n).bit_length() + 1  # bits per coefficient: no count overflows its slot
    ways = [1] + [0] * n  # ways[k]: polynomial in x^(rank sum) over subsets of k ranks, packed in one int
    for r in (rank2[v] for v in x + y):
        for k in range(n, 0, -1):
            ways[k] += ways[k - 1] << (r * width)
    mask, at_least = (1 << width) - 1, ways[n] >> (seen * width)
    hits = sum(at_least >> (i * width) & mask for i in range(at_least.bit_length() // width + 1))
    return hits / math.comb(len(pooled), n)


def smallest_p(n_base: int, n_head: int) -> float:
    """The smallest p the exact rank-sum test can give: 1 / C(n+m, m) (3 forks a side: 0.05; 4: 0.0143; 5: 0.00397)."""
    return 1 / math.comb(n_base + n_head, n_head) if n_base and n_head else math.nan


def forks_for_p(alpha: float) -> int:
    """Forks a side the exact rank-sum test needs before it can reach p <= alpha at all."""
    n = 1
    while smallest_p(n, n) > alpha:
        n += 1
    return n
