#!/usr/bin/env python3
"""Replace raw runs by compact summaries: for each RUN.json, NAME.summary.json beside it (runs.py
says what it keeps), checked to load back to exactly what the raw run gives before anything is removed.

    python3 lab/summarize.py RUN.json [RUN.json ...] [--commit REV|none] [--delete]

The summary names the commit whose tree holds the raw files as they are (`raw.commit`; by default
the last commit that changed the file, if the file is unchanged since; `none` when it is not
committed), so `git show COMMIT:results/ci/NAME.json` reads them back. --delete then removes the raw
result, its provenance and its pass record (NAME.pass.json, which the summary keeps) from the
working tree. Exit 0, or 2 on bad input or a summary that would not load back the same (one line).
"""
from __future__ import annotations

import sys
from pathlib import Path

import labpath
import runs
from hpb import cli
from hpb.markdown import write_atomic
from hpb.model import InputError, provenance_path


def raw_files(path: Path) -> list:
    """A raw run's files: the result, and its provenance and pass record where they exist."""
    rec = path.with_name(path.name[: -len(".json")] + runs.PASS_SUFFIX)
    return [p for p in (path, provenance_path(path), rec) if p.is_file()]


def relative(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(labpath.REPO))
    except ValueError:
        return str(p)


def summarize(path: Path, commit: str | None = None, out_dir: Path | None = None) -> Path:
    """Write and check NAME.summary.json of one raw run (beside it, or in out_dir); its path. commit:
    where the raw files can be read back ('none': nowhere; default: git_commit_of the result file)."""
    if runs.is_summary(path) or path.name.endswith((".provenance.json", runs.PASS_SUFFIX)):
        raise InputError(f"{path}: not a raw JMH result file")
    run = runs.load_run(path, within=True)
    where = None if commit == "none" else commit or runs.git_commit_of(path)
    raw = {"commit": where, "files": [relative(p) for p in raw_files(path)]}
    out = (Path(out_dir) if out_dir else path.parent) / (path.name[: -len(".json")] + runs.SUFFIX)
    write_atomic(out, runs.dumps(runs.summary_of(run, raw, runs.pass_record(path))))
    diff = runs.differences(run, runs.load_summary(out))
    if diff:
        out.unlink()
        raise InputError(f"{path}: its summary would not load back the same ({'; '.join(diff[:3])}); nothing written")
    return out


@cli.guarded
def main(argv=None) -> int:
    ap = cli.Parser(prog="summarize.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", metavar="RUN.json")
    ap.add_argument("--commit", help="the commit whose tree holds the raw files ('none': not committed)")
    ap.add_argument("--delete", action="store_true", help="remove the raw files once their summary is checked")
    a = ap.parse_args(argv)
    for name in a.runs:
        path = Path(name)
        files = raw_files(path)
        out = summarize(path, a.commit)
        print(f"{relative(out)}: {out.stat().st_size / 1024:.0f} KiB from {sum(p.stat().st_size for p in files) / 1024:.0f} KiB")
        if a.delete:
            for p in files:
                p.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
