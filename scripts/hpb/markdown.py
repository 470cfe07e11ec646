"""Formatting: numbers, params, ratios, and the one Markdown table writer (every cell escaped)."""
from __future__ import annotations

import contextlib
import math
import os
import re
import tempfile
from pathlib import Path

from .model import Metric


def fmt_num(x, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if x == 0 or math.isinf(x):
        return "0" if x == 0 else "inf" if x > 0 else "-inf"
    a = abs(x)
    if a >= 1e6 or a < 1e-3:
        return f"{x:.{digits - 1}e}"
    return f"{x:,.0f}" if a >= 1000 else f"{x:.1f}" if a >= 100 else f"{x:.{digits}g}"


_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.+-]+")


def fmt_params(params: dict, skip=()) -> str:
    """name=value, ... with a value quoted when it is not a plain word or number, so that a
    delimiter param such as "," or "||" reads unambiguously inside the comma-separated list."""
    return ", ".join(f"{k}={v}" if _PLAIN_VALUE.fullmatch(v) else f'{k}="{v}"'
                     for k, v in params.items() if k not in skip)


def fmt_metric(m: Metric | None) -> str:
    return "" if m is None else f"{fmt_num(m.score)} ± {fmt_num(m.error) if m.known else 'n/a'} {m.unit}".strip()


def fmt_ratio(r: float, lo: float = math.nan, hi: float = math.nan) -> str:
    return f"{fmt_num(r)}x " + ("[n/a]" if math.isnan(lo) or math.isnan(hi) else f"[{fmt_num(lo)}, {fmt_num(hi)}]")


def cell(text) -> str:
    """Text for a Markdown table cell: a literal | would end the cell, a newline the row."""
    s = ("" if text is None else str(text)).replace("\\|", "|").replace("|", "\\|")
    return re.sub(r"\s*[\r\n]+\s*", " ", s).strip()


def table(header: list, rows: list) -> list:
    """Lines of a Markdown table; every cell is escaped here, so callers pass plain text."""
    n = len(header)
    out = ["| " + " | ".join(cell(c) for c in (list(r) + [""] * n)[:n]) + " |" for r in [header, *rows]]
    return out[:1] + ["|" + "---|" * n] + out[1:]


def text_table(header: list, rows: list, max_width: int = 110) -> list:
    """A plain-text table for the terminal: columns padded, long cells cut, except the last
    column (the note a reader of a failure needs whole)."""
    rows = [[str(c) for c in r] for r in rows]
    widths = [min(max_width, max([len(h)] + [len(r[i]) for r in rows])) for i, h in enumerate(header)]
    widths[-1] = max([len(header[-1])] + [len(r[-1]) for r in rows])

    def line(vals):
        return "  ".join(str(v)[:w].ljust(w) for v, w in zip(vals, widths)).rstrip()
    return [line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]


def write_atomic(path, text) -> None:
    """Write through a temp file in the same folder, then os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("_")
