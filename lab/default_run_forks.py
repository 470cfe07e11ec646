"""Fork durations of committed runs, per machine, for the plugin's DefaultBudgetTest.

    python3 lab/default_run_forks.py NAME=results/RUN.provenance.json[,results/RUN2.provenance.json] ...

Prints the test resource (jmh-maven-plugin/src/test/resources/default-run-forks.json): for each
machine NAME, each configuration its runs measured, the median and slowest fork in seconds (JVM start
and set-up included, as the provenance's trials.schedule records them). Runs of one machine are
merged; a configuration measured in several keeps all its forks.
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def machine(paths: list) -> dict:
    forks: dict = {}
    cpus = set()
    for p in paths:
        prov = json.loads(Path(p).read_text(encoding="utf-8"))
        cpus.add(prov["host"]["cpuModel"])
        for s in prov["trials"]["schedule"]:
            if isinstance(s.get("seconds"), (int, float)):
                key = (s["benchmark"], s["mode"], tuple(sorted(s["params"].items())))
                forks.setdefault(key, []).append(s["seconds"])
    return {"source": ", ".join(paths), "cpu": ", ".join(sorted(cpus)),
            "forks": [{"benchmark": b, "mode": m, "params": dict(ps),
                       "median": round(statistics.median(v), 1), "max": round(max(v), 1)}
                      for (b, m, ps), v in forks.items()]}


def main(argv: list) -> int:
    if not argv or any("=" not in a for a in argv):
        print("usage: default_run_forks.py NAME=PROVENANCE[,PROVENANCE] ...", file=sys.stderr)
        return 2
    out = {"_doc": "Fork durations of the default runs committed in results/, for DefaultBudgetTest: per machine, "
                   "each measured configuration's median and slowest fork (seconds, JVM start and setup included, "
                   "as the provenance's trials.schedule records them). Made by lab/default_run_forks.py.",
           "machines": {}}
    for a in argv:
        name, paths = a.split("=", 1)
        try:
            out["machines"][name] = machine(paths.split(","))
        except (OSError, ValueError, KeyError) as e:
            print(f"default_run_forks: {paths}: {e}", file=sys.stderr)
            return 2
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
