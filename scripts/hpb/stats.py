"""Ratios with intervals, pooling across runs, equivalence.

Ratio intervals: JMH gives each score a 99.9% confidence interval (scoreConfidence, or score +/-
scoreError). For a ratio a/b of two positive scores we use the conservative interval
[lo_a / hi_b, hi_a / lo_b]: every pair of values inside the two intervals gives a ratio inside it.
It is wider than a propagated-error interval, never narrower, so a claim that clears its bar at the
pessimistic end holds for any values the two intervals allow. A lower bound at or below zero (JMH
reports those for very noisy scores) makes the ratio unbounded on that side. An unknown error
(NaN, e.g. a single measurement iteration) makes the interval unknown.

Pooling across runs ("run envelope"): a run's interval describes the error within that run only;
a rerun on another machine of the same kind moved the validator's ratio from 129x [118, 142] to 96x.
The figure the suite cites for a pair is pooled over every full run of the same benchmark code on
the same JDK and JVM options: its point is the geometric mean of the runs' ratios, and its interval
the envelope of the runs' intervals, [min of the pessimistic ends, max of the optimistic ends]. It
holds every run's ratio and that run's own error, so it covers the spread between the runs and
machines seen so far; it grows as runs that disagree are added, and with a single run it is that
run's interval (the report says so beside the figure).

Equivalence ("no difference within +/-X%"): shown when the whole ratio interval lies inside
[1/(1+X), 1+X]. Each end of our interval is a 99.9% bound, so this is the interval-inclusion form
of two one-sided tests (TOST), each at the 0.1% level or stricter.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .model import NAN, INF, Metric, higher_is_better


@dataclass(frozen=True)
class Figure:
    """A ratio with its interval: value, pessimistic-or-low end, optimistic-or-high end."""
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


def ratio(a: Metric, b: Metric) -> Figure:
    """a/b with its conservative interval; both in comparable units."""
    a, b = a.base(), b.base()
    if b.score == 0:
        r = NAN if a.score == 0 else INF
    else:
        r = a.score / b.score
    if not (a.known and b.known):
        return Figure(r)
    la, ha, lb, hb = max(a.lo, 0.0), a.hi, max(b.lo, 0.0), b.hi
    if hb <= 0 or ha < 0:
        return Figure(r)
    return Figure(r, la / hb, ha / lb if lb > 0 else INF)


def speedup(after: Metric, before: Metric, higher_better: bool | None = None) -> Figure:
    """How many times better `after` is than `before` (>1 is better), interval included; the
    direction comes from the unit unless given (a technique's own metric declares it)."""
    hb = higher_is_better(after.unit) if higher_better is None else higher_better
    return ratio(after, before) if hb else ratio(before, after)


def geomean_metric(ms: list) -> Metric:
    """Geometric mean of several scores (base units); the interval is the geometric mean of the
    ends, which contains the geometric mean of any values inside the individual intervals."""
    ms = [m.base() for m in ms]

    def gm(xs):
        xs = list(xs)
        if any(not math.isfinite(x) for x in xs):
            return NAN
        if any(x <= 0 for x in xs):
            return 0.0
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    known = all(m.known for m in ms)
    return Metric(gm(m.score for m in ms), gm(max(m.lo, 0) for m in ms) if known else NAN,
                  gm(m.hi for m in ms) if known else NAN, ms[0].unit)


def change(before: Figure, after: Figure) -> Figure:
    """after / before for two ratios, with the conservative interval [lo_a/hi_b, hi_a/lo_b]: how
    the gain moved between two runs or environments (> 1: it grew)."""
    v = after.value / before.value if before.value not in (0, INF) and math.isfinite(before.value) else NAN
    if not (before.known and after.known) or before.hi <= 0:
        return Figure(v)
    lo = after.lo / before.hi if math.isfinite(before.hi) else 0.0
    hi = after.hi / before.lo if before.lo > 0 else INF
    return Figure(v, lo, hi)


def envelope(figures: list) -> Figure:
    """The pooled figure over runs (see the module docstring): geometric mean of the points, the
    envelope of the intervals; unknown if any run's interval is unknown."""
    if len(figures) == 1:
        return figures[0]
    pts = [f.value for f in figures]
    if not pts or any(not (math.isfinite(p) and p > 0) for p in pts):
        return Figure(NAN)
    point = math.exp(sum(math.log(p) for p in pts) / len(pts))
    if not all(f.known for f in figures):
        return Figure(point)
    return Figure(point, min(f.lo for f in figures), max(f.hi for f in figures))


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
    if speedup_ <= 0:
        return 0.0
    return 1 / ((1 - share) + share / speedup_)
