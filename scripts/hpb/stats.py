"""The statistics of a figure, each written once (docs/protocol.md, "A figure and its interval"): Student's t, the
interval method (an Estimate is a log ratio's mean, standard error and degrees of freedom), the trials a figure would
need, equivalence, and the conservative fallback for results without forks to count (ratio).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

NAN, INF = float("nan"), float("inf")
LEVEL = 0.95


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(ln) * _betacf(a, b, x) / a
    return 1.0 - math.exp(ln) * _betacf(b, a, 1 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df (real) degrees of freedom."""
    tail = 0.5 * _betai(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def _invert(cdf, p: float) -> float:
    """The x >= 0 at which the increasing cdf reaches p (cdf(0) <= p): doubling, then bisection."""
    lo, hi = 0.0, 1.0
    while cdf(hi) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


@lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """The p quantile of Student's t with df degrees of freedom (df need not be whole)."""
    if not 0 < p < 1 or not df > 0:
        raise ValueError(f"t quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    return _invert(lambda x: t_cdf(x, df), p)


@dataclass(frozen=True)
class Figure:
    """A ratio with its interval (NaN ends when unknown)."""
    value: float
    lo: float = NAN
    hi: float = NAN

    @property
    def known(self) -> bool:
        return not (math.isnan(self.lo) or math.isnan(self.hi))

    def __iter__(self):
        return iter((self.value, self.lo, self.hi))

    def contains(self, x: float) -> bool:
        """x inside the interval; the ends are widened by 1e-9 of themselves for floating-point rounding."""
        return self.known and self.lo * (1 - 1e-9) <= x <= self.hi * (1 + 1e-9)


@dataclass(frozen=True)
class Estimate:
    """A log ratio: mean, standard error (NaN when unknown), degrees of freedom and trials (or units)."""
    mean: float
    se: float = NAN
    df: float = NAN
    n: int = 0

    def figure(self, level: float = LEVEL) -> Figure:
        if self.n == 0 or math.isnan(self.mean):
            return Figure(NAN)
        if math.isnan(self.se) or not self.df > 0:
            return Figure(math.exp(self.mean))
        half = t_quantile(1 - (1 - level) / 2, self.df) * self.se
        return Figure(math.exp(self.mean), math.exp(self.mean - half), math.exp(self.mean + half))


def sd(xs: list) -> float:
    n = len(xs)
    if n < 2:
        return NAN
    m = sum(xs) / n
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))


def of_logs(logs: list) -> Estimate:
    """The estimate from values on the log scale, each one independent unit (a trial, a boot)."""
    xs = [x for x in logs if math.isfinite(x)]
    n = len(xs)
    return Estimate(sum(xs) / n, sd(xs) / math.sqrt(n), n - 1.0, n) if n else Estimate(NAN)


def _combine(ests: list, signs: list, n: int) -> Estimate:
    """sum(sign * mean) with Welch-Satterthwaite degrees of freedom."""
    mean = sum(s * e.mean for s, e in zip(signs, ests))
    var = [(s * e.se) ** 2 for s, e in zip(signs, ests)]
    if any(math.isnan(v) or not e.df > 0 for v, e in zip(var, ests)):
        return Estimate(mean, NAN, NAN, n)
    den = sum(v * v / e.df for v, e in zip(var, ests))
    df = sum(var) ** 2 / den if den > 0 else sum(e.df for e in ests)
    return Estimate(mean, math.sqrt(sum(var)), df, n)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """a - b for two independent estimates (two runs, two environments, two sides' forks)."""
    return _combine([a, b], [1.0, -1.0], min(a.n, b.n))


def average(ests: list) -> Estimate:
    """The mean of several independent estimates (a figure over several configurations)."""
    k = len(ests)
    return ests[0] if k == 1 else _combine(ests, [1.0 / k] * k, min(e.n for e in ests))


def welch(a_logs: list, b_logs: list) -> Estimate:
    """mean(a) - mean(b) for two unpaired samples on the log scale (Welch)."""
    return difference(of_logs(a_logs), of_logs(b_logs))


@dataclass(frozen=True)
class Paired:
    """A ratio from n paired trials: exp(mean log ratio) with its 95% t interval (NaN ends when n < 2)."""
    value: float
    lo: float
    hi: float
    n: int
    logs: tuple = ()


def interval_of_logs(logs: list) -> Paired:
    """The figure and 95% t interval of a list of per-trial log ratios."""
    xs = tuple(x for x in logs if math.isfinite(x))
    f = of_logs(list(xs)).figure()
    return Paired(f.value, f.lo, f.hi, len(xs), xs)


def mean_interval(values: list) -> tuple:
    """A configuration's own score over its forks: (mean of fork means, 95% t interval low, high)."""
    vals = [v for v in values if math.isfinite(v)]
    mean = sum(vals) / len(vals) if vals else NAN
    if len(vals) < 2:
        return mean, NAN, NAN
    half = t_quantile(1 - (1 - LEVEL) / 2, len(vals) - 1) * sd(vals) / math.sqrt(len(vals))
    return mean, mean - half, mean + half


def trials_needed(spread: float, distance: float, level: float = LEVEL, cap: int = 1000) -> int | None:
    """The fewest trials n whose interval, at this spread of the per-trial log ratios, has a half-width below
    `distance` (on the log scale): what deciding a figure would take. None beyond the cap."""
    def narrow(n):
        return t_quantile(1 - (1 - level) / 2, n - 1) * spread / math.sqrt(n) < distance
    if not (spread >= 0 and distance > 0) or not narrow(cap):
        return None
    lo, hi = 1, cap  # the half-width falls as n grows: narrow(hi) holds, narrow(lo) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if narrow(mid) else (mid, hi)
    return hi


def equivalent(fig: Figure, pct: float) -> bool:
    """True when the whole interval lies inside [1/(1+X), 1+X] for X = pct/100."""
    x = 1 + pct / 100
    return fig.known and 1 / x <= fig.lo and fig.hi <= x


def amdahl(speedup_: float, share: float) -> float:
    """The whole-program speed-up when a part taking `share` of the time speeds up `speedup_` times."""
    if math.isnan(speedup_):
        return NAN
    if math.isinf(speedup_):
        return 1 / (1 - share)
    return 0.0 if speedup_ <= 0 else 1 / ((1 - share) + share / speedup_)


def ratio(a, b) -> Figure:
    """a/b (two model.Metric in comparable units) with the conservative interval."""
    a, b = a.base(), b.base()
    r = (NAN if a.score == 0 else INF) if b.score == 0 else a.score / b.score
    if not (a.known and b.known):
        return Figure(r)
    la, ha, lb, hb = max(a.lo, 0.0), a.hi, max(b.lo, 0.0), b.hi
    if hb <= 0 or ha < 0:
        return Figure(r)
    return Figure(r, la / hb, ha / lb if lb > 0 else INF)


def widen(fig: Figure, floor: Figure | None) -> Figure:
    """fig with its interval widened to hold floor's (a measurement's resolution), where floor has one."""
    if floor is None or not floor.known:
        return fig
    lo, hi = (min(fig.lo, floor.lo), max(fig.hi, floor.hi)) if fig.known else (floor.lo, floor.hi)
    return Figure(fig.value, lo, hi)


def speedup(after, before, higher_better: bool | None = None) -> Figure:
    """How many times better `after` is than `before` (>1 is better); the direction comes from the unit unless
    given (a technique's own metric declares it)."""
    if higher_better is None:
        from .model import higher_is_better
        higher_better = higher_is_better(after.unit)
    return ratio(after, before) if higher_better else ratio(before, after)


def change(before: Figure, after: Figure) -> Figure:
    """after / before for two ratios with the conservative interval: how a gain moved (> 1: it grew)."""
    v = after.value / before.value if before.value not in (0, INF) and math.isfinite(before.value) else NAN
    if not (before.known and after.known) or before.hi <= 0:
        return Figure(v)
    return Figure(v, after.lo / before.hi if math.isfinite(before.hi) else 0.0,
                  after.hi / before.lo if before.lo > 0 else INF)
