"""Figures across machines: each machine's own figure side by side, and, once three or more
machines have measured the same code, a prediction for a machine not yet seen.

Machines of this kind differ 2x in speed and up to 30% in some ratios, so the spread between
machines is a fact about the fleet, not measurement error, and is kept apart from it:

- a machine's figure is its geometric-mean ratio with its own fork-level 95% interval (from its
  trials; see forks.py), on the log scale an estimate y_i with standard error s_i;
- across k machines, a random-effects model (DerSimonian and Laird 1986) treats each machine's
  true log ratio as drawn from N(mu, tau^2): tau^2, the between-machine variance, is estimated by the
  method of moments from Cochran's Q; mu is the inverse-variance weighted mean with weights
  1 / (s_i^2 + tau^2);
- the 95% prediction interval for a new machine is mu +/- t(0.975, k - 1) * sqrt(tau^2 + se(mu)^2),
  a t-based interval over k - 1 degrees of freedom. With three machines t is 4.30, so the interval is
  wide, as it should be: three machines say little about the fleet. (Higgins, Thompson and
  Spiegelhalter 2009 use k - 2 degrees of freedom, wider still; k - 1 is the issue's choice and is
  named here so a reader can tell.)
- With fewer than three machines there is no prediction: the figure says how many machines it rests
  on and the range of their figures.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .forks import t_quantile

MIN_MACHINES_FOR_PREDICTION = 3
LEVEL = 0.95


@dataclass(frozen=True)
class MachineFigure:
    """One machine's figure for a pair: ratio with its 95% interval, from n trials."""
    machine: str
    ratio: float
    lo: float
    hi: float
    n: int
    label: str = ""

    @property
    def log(self) -> float:
        return math.log(self.ratio)

    @property
    def se(self) -> float:
        """The standard error of the log ratio, recovered from the interval's half-width."""
        if self.n < 2 or not (self.lo > 0 and self.hi > 0):
            return math.nan
        return (math.log(self.hi) - math.log(self.lo)) / 2 / t_quantile(1 - (1 - LEVEL) / 2, self.n - 1)


@dataclass(frozen=True)
class AcrossMachines:
    """What k machines' figures say together."""
    k: int
    low: float           # the lowest machine figure seen
    high: float          # the highest machine figure seen
    mean: float = math.nan        # exp(mu) of the random-effects model (k >= 3)
    tau: float = math.nan         # between-machine standard deviation of the log ratio (k >= 3)
    pred_lo: float = math.nan     # 95% prediction interval for a new machine (k >= 3)
    pred_hi: float = math.nan

    @property
    def predicts(self) -> bool:
        return not math.isnan(self.pred_lo)

    def describe(self) -> str:
        if self.k == 1:
            return "1 machine"
        s = f"{self.k} machines, {_g(self.low)}x to {_g(self.high)}x"
        if self.predicts:
            s += f"; a new machine: [{_g(self.pred_lo)}, {_g(self.pred_hi)}] (95% prediction)"
        return s


def _g(x: float) -> str:
    return f"{x:.3g}"


def dersimonian_laird(ys: list, ses: list) -> tuple:
    """(mu, se(mu), tau^2) of the DerSimonian-Laird random-effects model. A machine whose standard
    error is unknown or zero is weighted as if its error were negligible next to tau."""
    k = len(ys)
    v = [s * s if s == s and s > 0 else 0.0 for s in ses]
    floor = 1e-12
    w = [1.0 / max(x, floor) for x in v]
    sw = sum(w)
    fixed = sum(wi * y for wi, y in zip(w, ys)) / sw
    q = sum(wi * (y - fixed) ** 2 for wi, y in zip(w, ys))
    c = sw - sum(wi * wi for wi in w) / sw
    tau2 = max(0.0, (q - (k - 1)) / c) if c > 0 else 0.0
    ws = [1.0 / (x + tau2) if x + tau2 > floor else 1.0 / floor for x in v]
    mu = sum(wi * y for wi, y in zip(ws, ys)) / sum(ws)
    se_mu = math.sqrt(1.0 / sum(ws))
    return mu, se_mu, tau2


def across(figures: list) -> AcrossMachines | None:
    """Side-by-side summary of machine figures for one pair; None without any."""
    figs = [f for f in figures if f.ratio > 0 and math.isfinite(f.ratio)]
    if not figs:
        return None
    lo = min(f.ratio for f in figs)
    hi = max(f.ratio for f in figs)
    k = len(figs)
    if k < MIN_MACHINES_FOR_PREDICTION:
        return AcrossMachines(k, lo, hi)
    mu, se_mu, tau2 = dersimonian_laird([f.log for f in figs], [f.se for f in figs])
    half = t_quantile(1 - (1 - LEVEL) / 2, k - 1) * math.sqrt(tau2 + se_mu * se_mu)
    return AcrossMachines(k, lo, hi, math.exp(mu), math.sqrt(tau2), math.exp(mu - half), math.exp(mu + half))
