"""What every command shares: argument errors and bad input as one line on stderr, exit 2."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .markdown import write_atomic
from .model import InputError, load


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(f"{self.prog}: {message} (see --help)")


def fail(msg: str, code: int = 2):
    print((msg or "error").splitlines()[0], file=sys.stderr)
    sys.exit(code)


def emit(text: str, out: str | None) -> None:
    """Write a command's text to the file --out names (atomically, printing its path), else stdout."""
    if out:
        write_atomic(out, text)
        print(out)
    else:
        sys.stdout.write(text)


def guarded(main):
    """Run main(argv); bad input (InputError, input nested too deeply) is one line on stderr and exit 2."""
    def run(argv=None):
        try:
            return main(argv)
        except InputError as e:
            fail(str(e))
        except RecursionError:
            fail("input nested too deeply to read")
        except BrokenPipeError:  # the reader stopped (| head): nothing more to say, as a Unix filter does
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
    return run


def ids_list(text: str, what: str) -> list:
    ids = [i.strip() for i in (text or "").split(",") if i.strip()]
    if not ids:
        raise InputError(f"{what}: no ids given")
    return ids


def replace_block(path, name: str, body: str) -> None:
    """Rewrite the generated block `<!-- name:start -->` ... `<!-- name:end -->` of a Markdown file."""
    path = Path(path)
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        raise InputError(f"{path}: no '{start}' ... '{end}' block to rewrite")
    write_atomic(path, text[:i] + start + "\n" + body.rstrip() + "\n" + end + text[j + len(end):])


def load_runs(files) -> list:
    """Each file read with its provenance, failed benchmarks (score NaN) left out and named on stderr."""
    runs = [load(f, skip_failed=True) for f in files]
    for run in runs:
        if run.skipped:
            print(f"warning: {run.path}: skipped {len(run.skipped)} result(s) whose score is NaN (the benchmark "
                  "failed): " + ", ".join(run.skipped), file=sys.stderr)
    return runs
