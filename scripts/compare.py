#!/usr/bin/env python3
"""Compare two runs of the suite: per benchmark, the change with its interval.

    python3 scripts/compare.py OLD.json NEW.json [--out FILE.md]

"change" is how many times better NEW is than OLD (higher is better whatever the unit), with the
conservative interval from both scores' 99.9% confidence intervals (see jmhjson.ratio). B/op is
shown as the difference in bytes. Benchmarks in only one file are listed at the end.
"""
from __future__ import annotations

import argparse
import sys

import jmhjson as J


def compare(old: J.Run, new: J.Run) -> str:
    lines = [f"# {new.path.name} vs {old.path.name}", "",
             "| benchmark [params] | old | new | change (x better) [interval] | B/op old -> new |",
             "|---|---|---|---|---|"]
    omap = {r.key: r for r in old.results}
    nmap = {r.key: r for r in new.results}
    only = []
    for key, n in nmap.items():
        o = omap.get(key)
        if o is None:
            only.append(f"- only in {new.path.name}: {n.benchmark} {n.mode} {n.params}")
            continue
        oa, na = o.metric(J.ALLOC), n.metric(J.ALLOC)
        alloc = f"{J.fmt_num(oa.score)} -> {J.fmt_num(na.score)}" if oa and na else ""
        p = J.md_cell(J.fmt_params(n.params))
        lines.append(f"| {n.simple_class}.{n.method} ({n.mode}) [{p}] | {J.fmt_metric(o.primary)} | "
                     f"{J.fmt_metric(n.primary)} | {J.fmt_ratio(*J.speedup(n.primary, o.primary))} | {alloc} |")
    only += [f"- only in {old.path.name}: {o.benchmark} {o.mode} {o.params}" for k, o in omap.items() if k not in nmap]
    env = []
    if old.jdk != new.jdk:
        env.append(f"JDK differs: {old.jdk} vs {new.jdk}")
    if old.cpu and new.cpu and old.cpu != new.cpu:
        env.append(f"CPU differs: {old.cpu} vs {new.cpu}")
    return "\n".join(lines + [""] + [f"- {e}" for e in env] + only).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--out", help="write Markdown here (atomically) instead of stdout")
    a = ap.parse_args(argv)
    try:
        text = compare(J.load(a.old), J.load(a.new))
    except J.InputError as e:
        J.fail(str(e))
    if a.out:
        J.write_atomic(a.out, text)
        print(a.out)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
