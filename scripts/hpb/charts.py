"""PNG charts per benchmark method: bars per variant grouped by @Param set, the baseline at 1.0x with the
report's 95% intervals, then B/op, bytes per entry and GC time over forks; a size @Param gets a line chart (log x).
"""
from __future__ import annotations

import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import stats  # noqa: E402
from .verdicts import paired_figure  # noqa: E402
from .markdown import fmt_num, fmt_params, slug, write_atomic  # noqa: E402
from .model import ALLOC, GC_TIME, convert, higher_is_better  # noqa: E402
from .select import group_results  # noqa: E402

MODE_NAMES = {"thrpt": "throughput", "avgt": "average time", "sample": "sampled time",
              "ss": "single-shot time", "all": "all modes"}
PANELS = [(ALLOC, "allocated per operation (B/op, lower is better)"),  # secondary metric, axis label
          ("bytesPerEntry", "memory per entry (bytes, lower is better)"),
          (GC_TIME, "GC time in the measurement (ms, lower is better)")]


def vs_baseline(r, b, t) -> tuple:
    """(ratio, lo, hi) of r against baseline b: forks paired by trial, else JMH's intervals combined."""
    p = paired_figure(r, b, t, "primary", "speedup")
    return tuple(p[0] if p and p[1].n >= 2 else stats.speedup(r.primary, b.primary))


def _over_forks(g, label, metric="primary"):
    """A value_err for _bars: a label's metric over forks as (score, lo, hi)."""
    r = dict(g.rows).get(label)
    m = None if r is None else r.over_forks(metric)
    return None if m is None else (m.score, m.lo, m.hi)


def _bars(ax, gs, labels, value_err, ylabel, log_if_span=None, annotate=None):
    """Grouped bars: x = param sets, one bar per label. value_err(group, label) -> (v, lo, hi)|None."""
    width = 0.8 / max(len(labels), 1)
    vals = []
    for i, lbl in enumerate(labels):
        pts = []  # (x, value, error below, error above)
        for x, g in enumerate(gs):
            got = value_err(g, lbl)
            if got is None or not math.isfinite(got[0]):
                continue
            v, lo, hi = got
            lo = v if not math.isfinite(lo) else max(min(lo, v), 0)
            hi = v if math.isnan(hi) else (v * 10 if math.isinf(hi) else max(hi, v))
            pts.append((x - 0.4 + width * (i + 0.5), v, v - lo, hi - v))
        if not pts:
            continue
        xs, ys, elo, ehi = (list(c) for c in zip(*pts))
        bars = ax.bar(xs, ys, width * 0.95, yerr=[elo, ehi], capsize=2, label=str(lbl),
                      error_kw={"elinewidth": 0.8})
        vals += [y for y in ys if y > 0]
        if annotate:
            for b, y in zip(bars, ys):
                ax.annotate(annotate(y), (b.get_x() + b.get_width() / 2, y), ha="center", va="bottom",
                            fontsize=7, xytext=(0, 2), textcoords="offset points")
    if log_if_span and vals and max(vals) / min(vals) > log_if_span:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel, fontsize=8)
    ax.grid(axis="y", alpha=0.3)


def render(gs, title: str, t=None) -> plt.Figure:
    """One figure for the groups of one benchmark method and mode."""
    labels = list(dict.fromkeys(lbl for g in gs for lbl, _ in g.rows))
    # the params whose value differs between the groups label the bars; the others go in the title
    varying = [k for k in dict.fromkeys(k for g in gs for k in g.params) if len({g.params.get(k) for g in gs}) > 1]
    present = [(m, lbl) for m, lbl in PANELS
               if any(r.metric(m) is not None and (m != GC_TIME or r.metric(m).score > 0)
                      for g in gs for _, r in g.rows)]
    npan = 1 + len(present)
    width = max(6.0, min(18.0, 1.2 + 0.45 * len(gs) * max(len(labels), 1)))
    fig, axes = plt.subplots(npan, 1, figsize=(width, 2.0 + 2.6 * npan), squeeze=False)
    axes = [a[0] for a in axes]
    unit = gs[0].rows[0][1].primary.unit
    if any(g.baseline is not None for g in gs):
        def primary(g, lbl):
            b, r = g.base_result(), dict(g.rows).get(lbl)
            return None if b is None or r is None else (1.0, 1.0, 1.0) if r is b else vs_baseline(r, b, t)
        base_names = sorted({str(g.baseline) for g in gs if g.baseline is not None})
        ylabel = f"vs {', '.join(base_names)} = 1.0x (higher is better)"
        _bars(axes[0], gs, labels, primary, ylabel, log_if_span=20, annotate=lambda v: f"{fmt_num(v)}x")
        axes[0].axhline(1.0, color="grey", lw=0.8, ls="--")
    else:
        better = "higher" if higher_is_better(unit) else "lower"
        _bars(axes[0], gs, labels, _over_forks, f"score ({unit}, {better} is better)", log_if_span=20)
    for ax, (m, lbl) in zip(axes[1:], present):
        _bars(ax, gs, labels, lambda g, label, m=m: _over_forks(g, label, m), lbl, log_if_span=100)
    ticks = [fmt_params(g.params, skip=[k for k in g.params if k not in varying]) if varying else "" for g in gs]
    many = len(gs) > 4
    for ax in axes:
        ax.set_xticks(range(len(gs)))
        ax.set_xticklabels(ticks, rotation=30 if many else 0, ha="right" if many else "center", fontsize=7)
        ax.set_xlim(-0.6, len(gs) - 0.4)
    axes[0].legend(fontsize=7, loc="best")
    fixed = fmt_params(gs[0].params, skip=varying)
    fig.suptitle(title + (f"\n{fixed}" if fixed else ""), fontsize=10)
    fig.tight_layout()
    return fig


def render_size(gs, size_param: str, title: str) -> plt.Figure | None:
    """Primary score over a size @Param (log x): one line per variant and other-param set."""
    lines: dict = {}
    for g in gs:
        if size_param not in g.params:
            continue
        try:
            x = float(g.params[size_param])
        except ValueError:
            return None
        rest = fmt_params({k: v for k, v in g.params.items() if k not in (size_param, "seed")})
        for lbl, r in g.rows:
            lines.setdefault((str(lbl), rest), []).append((x, r.over_forks()))
    if not lines or max(len(v) for v in lines.values()) < 2:
        return None
    unit = gs[0].rows[0][1].primary.unit
    fig, ax = plt.subplots(figsize=(8, 5))
    every = []
    for (lbl, rest), pts in lines.items():
        pts.sort(key=lambda p: p[0])
        ys = [convert(m.score, m.unit, unit) for _, m in pts]
        err = [convert(m.error, m.unit, unit) if m.known else 0 for _, m in pts]
        ax.errorbar([x for x, _ in pts], ys, yerr=err, marker="o", capsize=2,
                    label=lbl + (f" ({rest})" if rest else ""))
        every += ys
    ax.set_xscale("log")
    if every and min(every) > 0 and max(every) / min(every) > 20:
        ax.set_yscale("log")
    better = "higher" if higher_is_better(unit) else "lower"
    ax.set_xlabel(f"{size_param} (log scale)")
    ax.set_ylabel(f"{unit} ({better} is better)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def save(fig, out_dir: Path, name: str) -> Path:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    write_atomic(out_dir / f"{name}.png", buf.getvalue())
    return out_dir / f"{name}.png"


def write_charts(results, out_dir, suite=None) -> list:
    """Write every chart; returns [(cls, name, mode, kind, png_path)]."""
    out_dir = Path(out_dir)
    made = []
    ser: dict = {}  # the groups of one benchmark method (or method pair) and mode: one chart each
    for g in group_results(results, suite):
        ser.setdefault((g.cls, g.name, g.mode), []).append(g)
    for (cls, name, mode), gs in ser.items():
        modes = {m for (c, n, m) in ser if c == cls and n == name}
        t = suite.technique(cls) if suite else None
        simple = gs[0].simple_class
        what = f"{simple}.{name}" + (" and the methods paired with it" if gs[0].label_kind == "method" else "")
        mode_name = MODE_NAMES.get(mode, mode)
        title = f"{t.title if t else simple}\n{what}: {mode_name} ({gs[0].rows[0][1].primary.unit})"
        fname = slug(f"{simple}-{name}" + (f"-{mode}" if len(modes) > 1 else ""))
        made.append((cls, name, mode, "bars", save(render(gs, title, t), out_dir, fname)))
        size_param = (t.size_param if t else None) or ("size" if any("size" in g.params for g in gs) else None)
        if size_param:
            fig = render_size(gs, size_param, f"{what}: {mode_name} over {size_param}")
            if fig is not None:
                made.append((cls, name, mode, "size", save(fig, out_dir, f"{fname}-by-{slug(size_param)}")))
    return made
