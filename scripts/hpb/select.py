"""Grouping results into compared pairs, and the selectors claims and published figures use.

A group is one comparison on one param set: the variants of one method (the variant param split off), or a
technique's method pair. Its baseline is the technique's, else the first variant seen (JMH runs enum
constants in declaration order, and the suite lists the "before" first).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .config import Suite


@dataclass
class Group:
    cls: str
    name: str  # method, or the baseline method of a method-style pair
    mode: str
    threads: int
    params: dict  # every param except the variant one
    label_kind: str  # 'variant' or 'method'
    rows: list = field(default_factory=list)  # [(label, Result)]
    baseline: str | None = None

    @property
    def simple_class(self) -> str:
        return self.cls.rsplit(".", 1)[-1]

    def result(self, label):
        return next((r for lbl, r in self.rows if lbl == label), None)

    def base_result(self):
        return self.result(self.baseline) if self.baseline is not None else None

    @property
    def labels(self) -> list:
        return [lbl for lbl, _ in self.rows]


def matched_rows(current, base, suite: Suite | None = None):
    """(group, technique, label, current result, current baseline, base result, base baseline) for each
    member of a group measured in both `current` and `base`, whose groups name the same baseline member."""
    key = lambda g: (g.cls, g.name, g.mode, g.threads, tuple(sorted(g.params.items())), g.label_kind)  # noqa: E731
    bgroups = {key(g): g for g in group_results(base, suite)}
    for g in group_results(current, suite):
        bg = bgroups.get(key(g))
        if bg is None or g.baseline is None or bg.baseline != g.baseline:
            continue
        t = suite.technique(g.cls) if suite else None
        cb, bb = g.base_result(), bg.base_result()
        for label, r in g.rows:
            br = bg.result(label)
            if r is not cb and br is not None:
                yield g, t, label, r, cb, br, bb


def group_results(results, suite: Suite | None = None) -> list:
    """Pair each result with the others it is compared with, keeping file order."""
    groups: dict = {}
    first_variant: dict = {}
    for r in results:
        t = suite.technique(r.cls) if suite else None
        vp = t.variant_param if t else "variant"
        pair = t.method_pair(r.method) if t else None
        if pair is not None:
            gk = (r.cls, "pair:" + pair["baseline"], r.mode, r.threads, tuple(sorted(r.params.items())))
            groups.setdefault(gk, Group(r.cls, pair["baseline"], r.mode, r.threads, dict(r.params), "method",
                                        baseline=pair["baseline"])).rows.append((r.method, r))
            continue
        params = {k: v for k, v in r.params.items() if k != vp}
        label = r.params.get(vp)
        if label is not None:
            first_variant.setdefault((r.cls, r.method), label)
        gk = (r.cls, r.method, r.mode, r.threads, tuple(sorted(params.items())))
        groups.setdefault(gk, Group(r.cls, r.method, r.mode, r.threads, params, "variant")).rows.append(
            (label if label is not None else r.method, r))
    for g in groups.values():
        if g.label_kind == "variant":
            t = suite.technique(g.cls) if suite else None
            g.baseline = (t.baseline_for(g.name) if t else None) or first_variant.get((g.cls, g.name))
            if g.baseline not in g.labels:
                g.baseline = g.rows[0][0] if len(g.rows) > 1 else None
        elif g.baseline not in g.labels:
            g.baseline = None
        g.rows.sort(key=lambda lr: lr[0] != g.baseline)
    return list(groups.values())


def numeric(v: str) -> float:
    try:
        return float(v)
    except ValueError:
        return math.nan


def resolve_params(filt: dict, pool: list) -> dict:
    """The params filter with 'max'/'min' the largest/smallest value among `pool` (param dicts); [] when absent."""
    out = {}
    for k, v in (filt or {}).items():
        vals = [str(x) for x in v] if isinstance(v, list) else [str(v)]
        if vals in (["max"], ["min"]):
            present = [p[k] for p in pool if k in p]
            pick = max if vals == ["max"] else min
            vals = [pick(present, key=lambda x: (numeric(x), x))] if present else []
        out[k] = vals
    return out


def param_matches(params: dict, resolved: dict) -> bool:
    return all(params.get(k) in vals for k, vals in resolved.items())


def missing_values(resolved: dict, pool: list) -> list:
    """The filter's values no param set of the pool has ('delimiter=::' for a claim naming two delimiters
    when the run measured one): a selector matching part of what it names would judge the part silently."""
    missing = []
    for k, vals in resolved.items():
        present = {p.get(k) for p in pool}
        if not vals:
            missing.append(f"{k} (no value in this run)")
        missing += [f"{k}={v}" for v in vals if v not in present]
    return missing


def matches_benchmark(cls: str, benchmark: str, wanted: str | None) -> bool:
    return not wanted or any(x == wanted or x.endswith("." + wanted) for x in (cls, benchmark))


def select(results, spec: dict, metric: str | None = None) -> list:
    """Results matching a selector: benchmark (class or Class.method, suffix allowed), method,
    mode, params {name: value, [values], 'max' or 'min'}; with `metric`, only results that have it."""
    pool = [r for r in results
            if matches_benchmark(r.cls, r.benchmark, spec.get("benchmark"))
            and (not spec.get("method") or r.method == spec["method"])
            and (not spec.get("mode") or r.mode == spec["mode"])
            and (metric is None or r.metric(metric) is not None)]
    resolved = resolve_params(spec.get("params"), [r.params for r in pool])
    return [r for r in pool if param_matches(r.params, resolved)]


def find_group(groups, cls: str, method: str, params: dict) -> list:
    """The groups of `cls` and `method` (or method pair's baseline) having every name=value of `params`."""
    return [g for g in groups if g.cls == cls and g.name == method
            and all(g.params.get(k) == str(v) for k, v in (params or {}).items())]
