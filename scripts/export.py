#!/usr/bin/env python3
"""Export a run for the benchmark trackers teams already use.

    python3 scripts/export.py RUN.json [MORE.json ...] --format bencher [--out FILE]
    python3 scripts/export.py RUN.json [MORE.json ...] --format github-action-benchmark --out DIR

bencher: Bencher Metric Format, one JSON object: benchmark -> measure -> {value, lower_value, upper_value}.
Throughputs go to its `throughput` measure in ops/s, times to `latency` in ns, allocation to
`alloc-bytes-per-op`, a technique's own metrics to a measure named after them. Intervals: over forks (95%,
Student t) for a trials run, whose forks are its unit of replication; JMH's own 99.9% for older runs; none
where there is none (one fork or one measurement iteration), so a quick run loads too.

github-action-benchmark: one file per direction, since that action takes one per file:
DIR/bigger-is-better.json (customBiggerIsBetter) and DIR/smaller-is-better.json (customSmallerIsBetter),
each a JSON array of {name, unit, value, range, extra}. Names carry params, mode and threads, so none
repeats; the run's environment goes into `extra`.
"""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

from hpb import cli, config
from hpb.markdown import fmt_num, write_atomic
from hpb.model import ALLOC, InputError, convert, load_many, unit_kind

BENCHER_THROUGHPUT, BENCHER_LATENCY, BENCHER_ALLOC = "throughput", "latency", "alloc-bytes-per-op"


def bench_name(r) -> str:
    params = ",".join(f"{k}={v}" for k, v in sorted(r.params.items()))
    threads = f",threads={r.threads}" if r.threads != 1 else ""
    return f"{r.simple_class}.{r.method}({r.mode}{threads})" + (f"[{params}]" if params else "")


def kebab(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", name).lower()).strip("-")[:64]


def metrics_of(r, suite) -> list:
    """[(metric name, Metric over forks, higher is better)]: the primary score, B/op and the technique's own metrics."""
    t = suite.technique(r.cls)
    out = [("primary", unit_kind(r.primary.unit)[0] == "rate")]
    out += [(ALLOC, False)] if r.metric(ALLOC) is not None else []
    out += [(name, info["better"] == "higher") for name, info in (t.metrics.items() if t else [])
            if r.secondary.get(name) is not None]
    return [(name, r.over_forks(name), higher) for name, higher in out]


def _ends(m, factor=1.0):
    return {"lower_value": max(m.lo, 0.0) * factor, "upper_value": m.hi * factor} if m.known else {}


def bencher(results, suite) -> dict:
    out: dict = {}
    for r in results:
        name = bench_name(r)
        if name in out:
            raise InputError(f"{r.source}: two results are named {name}")
        measures = out[name] = {}
        for metric, m, higher in metrics_of(r, suite):
            if metric == "primary":
                slug, target = (BENCHER_THROUGHPUT, "ops/s") if higher else (BENCHER_LATENCY, "ns/op")
                f = convert(1.0, m.unit, target)
                measures[slug] = {"value": m.score * f, **_ends(m, f)}
            else:
                measures[BENCHER_ALLOC if metric == ALLOC else kebab(metric)] = {"value": m.score, **_ends(m)}
    return out


def github(results, suite) -> tuple[list, list]:
    bigger, smaller, names = [], [], set()
    for r in results:
        base = bench_name(r)
        env = f"JDK {r.env.jdk} ({r.env.vm}); JVM options {' '.join(r.env.jvm_args) or 'none'}"
        interval = f"95% interval over {len(r.trials)} forks" if r.paired else "99.9% interval (JMH, iterations)"
        t = suite.technique(r.cls)
        for metric, m, higher in metrics_of(r, suite):
            unit = m.unit if metric == "primary" or m.unit != "#" else (t.metrics[metric]["unit"] if t else m.unit)
            name = base if metric == "primary" else f"{base} {metric}"
            if name in names:
                raise InputError(f"{r.source}: two results are named {name}")
            names.add(name)
            known = {"range": f"± {fmt_num(m.error)}"} if m.known else {}
            extra = (f"{interval} [{fmt_num(max(m.lo, 0.0))}, {fmt_num(m.hi)}] {unit}" if m.known
                     else "no interval (one fork or one measurement iteration)")
            (bigger if higher else smaller).append({"name": name, "unit": unit, "value": m.score, **known,
                                                    "extra": f"{extra}; {env}"})
    return bigger, smaller


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="export.py", description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="JMH JSON result files of one run (merged)")
    ap.add_argument("--format", required=True, choices=["bencher", "github-action-benchmark"])
    ap.add_argument("--out", help="bencher: the file (default stdout); github-action-benchmark: the folder for its two files")
    a = ap.parse_args(argv)
    suite = config.load_suite()
    results = load_many(a.files).results
    for r in results:
        if not math.isfinite(r.primary.score):
            raise InputError(f"{r.source}: {bench_name(r)}: score is not finite")
    if a.format == "bencher":
        cli.emit(json.dumps(bencher(results, suite), indent=1, allow_nan=False) + "\n", a.out)
        return 0
    if not a.out:
        raise InputError("--format github-action-benchmark needs --out DIR: it writes two files, one per direction")
    out = Path(a.out)
    for fname, rows in zip(("bigger-is-better.json", "smaller-is-better.json"), github(results, suite)):
        write_atomic(out / fname, json.dumps(rows, indent=1, allow_nan=False) + "\n")
        print(out / fname)
    return 0


if __name__ == "__main__":
    sys.exit(main())
