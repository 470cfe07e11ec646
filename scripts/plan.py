#!/usr/bin/env python3
"""The plugin's questions to the suite's rules: what a trials run measures, and whether a -Djmh.gate
run's groups may stop. `mvn jmh:run` calls it; a user has no need to.

    python3 scripts/plan.py schedule|look REQUEST.json ANSWER.json

Request and answer are JSON with "contract": 1 (another is refused: the plugin and the scripts come from
different checkouts). schedule: {"configurations": [{"benchmark", "mode", "params", "side"}], "options": {"claims",
"gate", "gate_figure", "trials", "budget", "quick"}} -> {"groups", "cited", "warmups", "gate", "describe"}
(hpb/schedule.py). look: {"result": the merged JMH JSON of a -Djmh.gate run so far} -> {"open": configurations
an undecided check still needs, "checks"} (hpb.twocommit.look). Bad input: one line on stderr, exit 2.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from hpb import cli, config, schedule
from hpb.markdown import write_atomic
from hpb.model import InputError

COMMANDS = {"schedule": schedule.schedule, "look": schedule.look}


def read(path: str):
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{p}: no such file")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise InputError(f"{p}: not a JSON request ({e.__class__.__name__})")


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="plan.py", description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=sorted(COMMANDS))
    ap.add_argument("request", help="the plugin's request (JSON)")
    ap.add_argument("answer", help="where to write the answer (JSON)")
    ap.add_argument("--suite", help="suite settings (default scripts/suite.json)")
    ap.add_argument("--techniques", help="folder of technique files (default scripts/techniques)")
    a = ap.parse_args(argv)
    suite = config.load_suite(a.suite, a.techniques)
    answer = COMMANDS[a.command](read(a.request), suite)
    write_atomic(a.answer, json.dumps(answer, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
