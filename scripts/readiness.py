#!/usr/bin/env python3
"""Which variants work on the next JDK: read the surefire reports of `mvn -P readiness test` (every
test class run on the JDK 25 toolchain with --sun-misc-unsafe-memory-access=deny) and write, per
technique, per variant, whether all of that variant's parameterized tests passed there.

    mvn -P readiness test                   # needs a JDK 25 toolchain (see the README)
    python3 scripts/readiness.py            # -> results/readiness-jdk25.json (report.py shows it)
    python3 scripts/readiness.py --check    # exit 1 when the reports disagree with the committed file

A variant is an invocation of a @ParameterizedTest over the technique's variant enum, which surefire names
"[n] VARIANT" (the readiness profile asks for phrased names); other tests are listed by name. Exit 2 on bad input.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from hpb import cli, config
from hpb.markdown import write_atomic
from hpb.model import REPO, RESULTS_DIR, InputError

REPORTS = REPO / "target" / "readiness-reports"
OPTION = "--sun-misc-unsafe-memory-access=deny"
VARIANT = re.compile(r"\[\d+\]\s*([A-Z][A-Z0-9_]*)\b")


def why(problem) -> str:
    """The failure's first line and the trace's root cause ("Could not initialize class X" alone says not why)."""
    text = problem.get("message") or problem.text or problem.get("type", "")
    head = next((line.strip()[:300] for line in (text or "").splitlines() if line.strip()), "")
    causes = [line.strip()[len("Caused by: "):] for line in (problem.text or "").splitlines()
              if line.strip().startswith("Caused by: ")]
    root = causes[-1][:200] if causes else ""
    return f"{head} (cause: {root})" if root and root not in head else head


def read_reports(folder: Path) -> tuple[dict, dict]:
    """({test class: {"variants": {...}, "other": [...]}}, {"jdk": ..., "vm": ...})."""
    if not (files := sorted(Path(folder).glob("TEST-*.xml"))):
        raise InputError(f"{folder}: no surefire reports (run `mvn -P readiness test` first)")
    out, env = {}, {}
    for f in files:
        try:
            root = ET.parse(f).getroot()
        except (ET.ParseError, OSError) as e:
            raise InputError(f"{f}: not a surefire report ({e.__class__.__name__})")
        props = {p.get("name"): p.get("value") for p in root.iter("property")}
        if props.get("java.version"):
            env = {"jdk": props.get("java.version"), "vm": props.get("java.vm.name", ""),
                   "runtime": props.get("java.runtime.version", "")}
        for case in root.iter("testcase"):
            cls, name = case.get("classname", ""), case.get("name", "")
            problem = next((p for p in (case.find("failure"), case.find("error")) if p is not None), None)
            entry = out.setdefault(cls, {"variants": {}, "other": []})
            message = "" if problem is None else why(problem)
            if m := VARIANT.search(name):
                v = entry["variants"].setdefault(m.group(1), {"works": True, "failures": []})
                if problem is not None:
                    v["works"] = False
                    v["failures"].append(f"{re.sub(r'[(].*', '', name).strip()}: {message}")
            elif case.find("skipped") is None:
                entry["other"].append({"test": re.sub(r"\(.*", "", name), "works": problem is None,
                                       **({"message": message} if problem is not None else {})})
    return out, env


def build(folder: Path, suite) -> dict:
    reports, env = read_reports(folder)
    if not env.get("jdk", "").startswith("25"):
        raise InputError(f"{folder}: these reports ran on JDK {env.get('jdk', '?')}, not 25 (was the readiness profile used?)")
    if missing := [t.test for t in suite.techniques if t.test not in reports]:
        raise InputError(f"{folder}: no report for {', '.join(missing)}")
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    return {"jdk": env["jdk"], "vm": env.get("vm", ""), "runtime": env.get("runtime", ""), "option": OPTION,
            "commit": commit, "techniques": {t.test: reports[t.test] for t in suite.techniques}}


def verdicts_of(d: dict) -> dict:
    """What --check compares: per test class, each variant's and each other test's works/fails."""
    return {cls: {**{v: i["works"] for v, i in t["variants"].items()}, **{o["test"]: o["works"] for o in t["other"]}}
            for cls, t in d["techniques"].items()}


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="readiness.py", description=__doc__.splitlines()[0])
    ap.add_argument("--reports", default=str(REPORTS), help="surefire reports of the readiness profile")
    ap.add_argument("--out", default=str(RESULTS_DIR / "readiness-jdk25.json"))
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    a = ap.parse_args(argv)
    fresh = build(Path(a.reports), config.load_suite())
    out = Path(a.out)
    if a.check:
        if not out.is_file():
            raise InputError(f"{out}: no such file to check against")
        try:
            old = verdicts_of(json.loads(out.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise InputError(f"{out}: not a readiness file")
        new = verdicts_of(fresh)
        diffs = [f"{cls} {name}: committed {'works' if old.get(cls, {}).get(name) else 'fails'}, now "
                 f"{'works' if ok else 'fails'}" for cls, tests in new.items() for name, ok in tests.items()
                 if old.get(cls, {}).get(name) != ok]
        diffs += [f"{cls} {name}: in the committed file, not run now" for cls, tests in old.items()
                  for name in tests if name not in new.get(cls, {})]
        for d in diffs:
            print(d)
        print(f"READINESS: {'differs from' if diffs else 'matches'} {out.name} (JDK {fresh['jdk']}, {OPTION})")
        return 1 if diffs else 0
    write_atomic(out, json.dumps(fresh, indent=1) + "\n")
    works = sum(i["works"] for t in fresh["techniques"].values() for i in t["variants"].values())
    total = sum(len(t["variants"]) for t in fresh["techniques"].values())
    print(f"{out}: {works} of {total} variants work on JDK {fresh['jdk']} with {OPTION}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
