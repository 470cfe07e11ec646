#!/usr/bin/env python3
"""How fast each CPU of this machine is, 10 times a second: the probe behind docs/gate.md's account
of where the fork-to-fork spread comes from.

    python3 lab/core_states.py                     # 30 s a phase, into results/pilot/core-states/
    python3 lab/core_states.py --seconds 60 --out /tmp/probe

Three kinds of phase, each `--seconds` long, with nothing else of ours running (it takes JMH's
machine lock, /tmp/jmh.lock, and refuses while a JMH run holds it):
- `stores`, one CPU at a time (pinned with sched_setaffinity): libc memset over a 256 KiB buffer,
  which stays in the core's L2; store-heavy like String.split and allocation;
- `stores`, every CPU at once: whether the CPUs turn slow together (one cause) or apart (one
  neighbour per core);
- `reads`, one CPU: blake2b over a 64 KiB buffer, reading and computing with few stores, the control.

Each 100 ms window counts the operations done; a series is judged against its own fast level (its
90th percentile). A window is slow below 85% of that level. The summary gives the share of slow
windows, how much slower they are, how long a slow spell lasts, and for the simultaneous phase the
correlation of the CPUs' series. The samples and the summary are written as JSON and Markdown to
--out (a new directory: nothing is overwritten). Exit 0 when the probe ran, 2 on bad input or when a
JMH run holds the lock.
"""
from __future__ import annotations

import ctypes
import datetime
import fcntl
import hashlib
import json
import multiprocessing as mp
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import labpath  # noqa: F401  puts scripts/ on the path
from hpb import cli
from hpb.model import RESULTS_DIR

WINDOW = 0.1          # seconds per sample
SLOW_BELOW = 0.85     # a window slower than this share of the fast level is slow
FAST_QUANTILE = 0.9   # the series' fast level
STORE_BYTES = 256 * 1024
READ_BYTES = 64 * 1024
LOCK = Path("/tmp/jmh.lock")


def _work(kind: str, cpu: int, seconds: float, start_at: float, out) -> None:
    """One pinned worker: count operations per window until `seconds` have passed."""
    os.sched_setaffinity(0, {cpu})
    if kind == "stores":
        buf = ctypes.create_string_buffer(STORE_BYTES)
        op = lambda n: ctypes.memset(buf, n & 0xFF, STORE_BYTES)  # noqa: E731
    else:
        data = os.urandom(READ_BYTES)
        op = lambda n: hashlib.blake2b(data).digest()  # noqa: E731
    for n in range(200):  # warm: page the buffer in, settle the caches
        op(n)
    while time.monotonic() < start_at:
        time.sleep(0.001)
    counts, n, end = [], 0, start_at + seconds
    window_end = start_at + WINDOW
    while window_end <= end:
        k = 0
        while time.monotonic() < window_end:
            op(n)
            n += 1
            k += 1
        counts.append(k)
        window_end += WINDOW
    out.put((cpu, counts))


def run_phase(kind: str, cpus: list, seconds: float) -> dict:
    """Run one worker per CPU in `cpus` at the same time; {cpu: counts per window}."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    start_at = time.monotonic() + 0.5
    procs = [ctx.Process(target=_work, args=(kind, c, seconds, start_at, q), daemon=True) for c in cpus]
    for p in procs:
        p.start()
    try:
        got = dict(q.get(timeout=seconds + 30) for _ in procs)
    finally:
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
    return {c: got[c] for c in cpus}


def quantile(xs: list, q: float) -> float:
    s = sorted(xs)
    if not s:
        raise ValueError("no samples")
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def spells(flags: list) -> list:
    """Lengths of the runs of consecutive True values."""
    out, run = [], 0
    for f in flags:
        if f:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return out


def summarize(counts: list) -> dict:
    """A series against its own fast level: slow share, how much slower, how long slow spells last."""
    fast = quantile(counts, FAST_QUANTILE)
    rel = [c / fast for c in counts]
    slow = [r < SLOW_BELOW for r in rel]
    slow_rel = [r for r, s in zip(rel, slow) if s]
    runs = spells(slow)
    return {
        "windows": len(counts),
        "fastLevel": fast,
        "slowShare": sum(slow) / len(slow),
        "slowLevel": statistics.median(slow_rel) if slow_rel else None,
        "slowSpellSeconds": {"median": statistics.median(runs) * WINDOW, "max": max(runs) * WINDOW} if runs else None,
        "sdPercent": 100 * statistics.pstdev(rel) / statistics.fmean(rel),
    }


def together(a: list, b: list) -> dict:
    """Whether two CPUs' series move together: Pearson correlation, and both-slow share vs. chance."""
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    sa = [x < SLOW_BELOW * quantile(a, FAST_QUANTILE) for x in a]
    sb = [x < SLOW_BELOW * quantile(b, FAST_QUANTILE) for x in b]
    both = sum(x and y for x, y in zip(sa, sb)) / n
    corr = statistics.correlation(a, b) if statistics.pstdev(a) > 0 and statistics.pstdev(b) > 0 else None
    return {"correlation": corr, "bothSlowShare": both, "bothSlowIfIndependent": (sum(sa) / n) * (sum(sb) / n)}


def markdown(report: dict) -> str:
    lines = [f"# CPU states on {report['host']['cpu']} x{report['host']['cpus']}, {report['startedUtc']}", "",
             f"`python3 lab/core_states.py --seconds {report['seconds']:g}`: each 100 ms window's "
             f"operations against the series' fast level (its 90th percentile); a window below "
             f"{SLOW_BELOW:.0%} of it is slow.", "",
             "| phase | cpu | slow windows | slow level | slow spell (median / max) | sd |",
             "|---|---|---|---|---|---|"]
    for ph in report["phases"]:
        for cpu, s in ph["summary"].items():
            spell = s["slowSpellSeconds"]
            lines.append(f"| {ph['name']} | {cpu} | {s['slowShare']:.0%} | "
                         f"{'' if s['slowLevel'] is None else format(s['slowLevel'], '.2f')} | "
                         f"{'' if spell is None else format(spell['median'], '.1f') + ' s / ' + format(spell['max'], '.1f') + ' s'} | "
                         f"{s['sdPercent']:.1f}% |")
    for ph in report["phases"]:
        if "together" in ph:
            t = ph["together"]
            corr = "n/a" if t["correlation"] is None else f"{t['correlation']:.2f}"
            lines += ["", f"{ph['name']}: correlation of the CPUs' series {corr}; both slow in "
                      f"{t['bothSlowShare']:.0%} of windows ({t['bothSlowIfIndependent']:.0%} if independent)."]
    return "\n".join(lines) + "\n"


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="core_states.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each phase (default 30)")
    ap.add_argument("--out", help="a new directory for the samples and summary "
                                  "(default results/pilot/core-states/<UTC time>)")
    args = ap.parse_args(argv)
    if not 2 <= args.seconds <= 600:
        cli.fail("core_states.py: --seconds must be between 2 and 600")
    if not hasattr(os, "sched_setaffinity"):
        cli.fail("core_states.py: this system cannot pin a process to a CPU (Linux only)")
    started = datetime.datetime.now(datetime.timezone.utc)
    out = Path(args.out) if args.out else RESULTS_DIR / "pilot" / "core-states" / started.strftime("%Y%m%dT%H%M%SZ")
    if out.exists():
        cli.fail(f"core_states.py: {out} exists; name a new directory with --out")
    cpus = sorted(os.sched_getaffinity(0))

    lock = open(LOCK, "a")
    try:
        fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        cli.fail(f"core_states.py: a JMH run holds {LOCK}; probe when it has finished")
    try:
        phases = []
        for c in cpus:
            print(f"stores on cpu {c} ({args.seconds:g} s)", file=sys.stderr)
            phases.append(("stores solo", run_phase("stores", [c], args.seconds)))
        if len(cpus) > 1:
            print(f"stores on cpus {cpus} at once ({args.seconds:g} s)", file=sys.stderr)
            phases.append(("stores together", run_phase("stores", cpus, args.seconds)))
        print(f"reads on cpu {cpus[0]} ({args.seconds:g} s)", file=sys.stderr)
        phases.append(("reads solo", run_phase("reads", [cpus[0]], args.seconds)))
    finally:
        lock.close()

    report = {"startedUtc": started.strftime("%Y-%m-%dT%H:%M:%SZ"), "seconds": args.seconds, "window": WINDOW,
              "host": {"cpu": cpu_name(), "cpus": os.cpu_count(), "kernel": platform.release()},
              "phases": []}
    for name, series in phases:
        ph = {"name": name, "counts": {str(c): v for c, v in series.items()},
              "summary": {str(c): summarize(v) for c, v in series.items()}}
        if len(series) == 2:
            a, b = series.values()
            ph["together"] = together(a, b)
        report["phases"].append(ph)
    out.mkdir(parents=True)
    (out / "core-states.json").write_text(json.dumps(report, indent=1) + "\n")
    md = markdown(report)
    (out / "core-states.md").write_text(md)
    sys.stdout.write(md)
    print(out, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
