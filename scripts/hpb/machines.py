"""Figures across boots and machines.

A machine is what model.machine_key names; a boot is a level below it. Trials are independent draws within
a boot, but what a boot started with (the VM's placement, the kernel) is shared by its trials, so trials of
different boots are not pooled: one boot gives the estimate over its paired trials (stats.of_logs); several
boots make each boot's mean log ratio one unit, with a t interval over boots - 1 df (two boots: wide,
honestly). Machines are never pooled: they differ 2x in speed and up to 30% in some ratios, a fact about the
fleet, not measurement error; each keeps its own interval, and a figure says how many machines and boots it
rests on. With three or more machines a random-effects model (DerSimonian and Laird 1986) gives a 95%
prediction interval for a machine not yet seen, mu +/- t(0.975, k - 1) * sqrt(tau^2 + se(mu)^2) (Higgins,
Thompson and Spiegelhalter 2009 use k - 2, wider still).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from . import stats

MIN_MACHINES_FOR_PREDICTION = 3


@dataclass(frozen=True)
class MachineFigure:
    """One machine's figure for a pair, from `trials` paired trials in `boots` boots."""
    machine: str
    label: str
    estimate: stats.Estimate
    trials: int
    boots: int
    spread: float  # sd of the per-trial log ratios within a boot: what one more trial buys
    floor: stats.Figure | None = None  # an interval the figure's must hold (a measurement's resolution)

    @property
    def figure(self) -> stats.Figure:
        return stats.widen(self.estimate.figure(), self.floor)

    @property
    def ratio(self) -> float:
        return self.figure.value

    @property
    def lo(self) -> float:
        return self.figure.lo

    @property
    def hi(self) -> float:
        return self.figure.hi

    @property
    def n(self) -> int:
        return self.trials


def machine_figure(machine: str, label: str, logs_by_boot: dict, floor: stats.Figure | None = None) -> MachineFigure:
    """A machine's figure from its per-trial log ratios, by boot; floor: see MachineFigure."""
    boots = [[x for x in logs if math.isfinite(x)] for logs in logs_by_boot.values()]
    boots = [b for b in boots if b]
    n = sum(len(b) for b in boots)
    dev = sum(sum((x - sum(b) / len(b)) ** 2 for x in b) for b in boots)
    spread = math.sqrt(dev / (n - len(boots))) if n > len(boots) else math.nan
    # one boot: its trials are the units; several: each boot's mean is one
    units = stats.of_logs(boots[0] if len(boots) == 1 else [sum(b) / len(b) for b in boots])
    est = stats.Estimate(units.mean, units.se, units.df, n)
    return MachineFigure(machine, label, est, n, len(boots), spread, floor)


def cpu_label(cpu: str) -> str:
    """'Intel(R) Xeon(R) Processor @ 2.50GHz x2' -> 'Intel Xeon @ 2.50GHz x2'."""
    return re.sub(r"\s+", " ", re.sub(r"\((R|TM)\)|\b(Processor|CPU)\b", "", cpu or "")).strip() or "unrecorded CPU"


def rests_on(figs: list) -> str:
    """'2 machines, 3 boots, 24 trials'."""
    k, b, n = len(figs), sum(f.boots for f in figs), sum(f.trials for f in figs)
    return f"{k} machine{'s' * (k != 1)}, {b} boot{'s' * (b != 1)}, {n} trial{'s' * (n != 1)}"


@dataclass(frozen=True)
class AcrossMachines:
    """What k machines' figures say together: the range, and with k >= 3 a prediction."""
    k: int
    low: float
    high: float
    mean: float = math.nan     # exp(mu) of the random-effects model (k >= 3)
    tau: float = math.nan      # between-machine standard deviation of the log ratio (k >= 3)
    pred_lo: float = math.nan  # 95% prediction interval for a new machine (k >= 3)
    pred_hi: float = math.nan

    @property
    def predicts(self) -> bool:
        return not math.isnan(self.pred_lo)

    def describe(self) -> str:
        if self.k == 1:
            return "1 machine"
        s = f"{self.k} machines, {self.low:.3g}x to {self.high:.3g}x"
        new = f"; a new machine: [{self.pred_lo:.3g}, {self.pred_hi:.3g}] (95% prediction)"
        return s + (new if self.predicts else "")


def dersimonian_laird(ys: list, ses: list) -> tuple:
    """(mu, se(mu), tau^2) of the DerSimonian-Laird random-effects model. A machine whose standard
    error is unknown or zero is weighted as if its error were negligible next to tau."""
    k, floor = len(ys), 1e-12
    v = [s * s if s == s and s > 0 else 0.0 for s in ses]
    w = [1.0 / max(x, floor) for x in v]
    fixed = sum(wi * y for wi, y in zip(w, ys)) / sum(w)
    q = sum(wi * (y - fixed) ** 2 for wi, y in zip(w, ys))
    c = sum(w) - sum(wi * wi for wi in w) / sum(w)
    tau2 = max(0.0, (q - (k - 1)) / c) if c > 0 else 0.0
    ws = [1.0 / (x + tau2) if x + tau2 > floor else 1.0 / floor for x in v]
    mu = sum(wi * y for wi, y in zip(ws, ys)) / sum(ws)
    return mu, math.sqrt(1.0 / sum(ws)), tau2


def across(figures: list) -> AcrossMachines | None:
    """Side-by-side summary of machine figures for one pair; None without any."""
    figs = [f for f in figures if f.ratio > 0 and math.isfinite(f.ratio)]
    if not figs:
        return None
    k, lo, hi = len(figs), min(f.ratio for f in figs), max(f.ratio for f in figs)
    if k < MIN_MACHINES_FOR_PREDICTION:
        return AcrossMachines(k, lo, hi)
    mu, se_mu, tau2 = dersimonian_laird([math.log(f.ratio) for f in figs], [f.estimate.se for f in figs])
    half = stats.t_quantile(1 - (1 - stats.LEVEL) / 2, k - 1) * math.sqrt(tau2 + se_mu * se_mu)
    return AcrossMachines(k, lo, hi, math.exp(mu), math.sqrt(tau2), math.exp(mu - half), math.exp(mu + half))
