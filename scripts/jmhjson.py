"""Load JMH JSON results, convert units, pair variants and compute ratio intervals.

Shared by report.py, chart.py, compare.py and gate.py. Standard library only.

Ratio intervals: JMH gives each score a 99.9% confidence interval (scoreConfidence, or
score +/- scoreError). For a ratio a/b of two positive scores we use the conservative interval
[lo_a / hi_b, hi_a / lo_b]: every pair of values inside the two intervals gives a ratio inside
it. It is wider than a propagated-error interval, never narrower, so a claim that clears the bar
at the pessimistic end of it holds on any values the two intervals allow. A lower bound at or
below zero (JMH reports those for very noisy scores) makes the ratio unbounded on that side. An
unknown error (NaN, e.g. a single measurement iteration) makes the interval unknown.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

NAN = float("nan")
INF = float("inf")
RESULTS_DIR = Path("results")
SCRIPTS_DIR = Path(__file__).resolve().parent
DEFAULT_TECHNIQUES = SCRIPTS_DIR / "techniques.json"
DEFAULT_CLAIMS = SCRIPTS_DIR / "claims.json"

ALLOC = "gc.alloc.rate.norm"
GC_TIME = "gc.time"


class InputError(Exception):
    """Bad input: the message is one line naming the file and the problem."""


# ---------------------------------------------------------------- units

_TIME = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "min": 60.0, "m": 60.0}


def unit_kind(unit: str) -> tuple[str, float]:
    """('rate', ops per second per unit value), ('time', seconds per unit value) or ('other', 1)."""
    u = unit.strip()
    if u.startswith("ops/") and u[4:] in _TIME:
        return "rate", 1.0 / _TIME[u[4:]]
    if u.endswith("/op") and u[:-3] in _TIME:
        return "time", _TIME[u[:-3]]
    return "other", 1.0


def to_base(value: float, unit: str) -> float:
    """ops/x -> ops/s, x/op -> s/op, anything else unchanged."""
    return value * unit_kind(unit)[1]


def convert(value: float, unit: str, target: str) -> float:
    k1, f1 = unit_kind(unit)
    k2, f2 = unit_kind(target)
    if k1 != k2 or k1 == "other" and unit != target:
        raise ValueError(f"cannot convert {unit} to {target}")
    return value * f1 / f2


def higher_is_better(unit: str) -> bool:
    """Throughput (ops/time) is better higher; time/op, B/op, MB/sec, counts, ms are better lower."""
    return unit_kind(unit)[0] == "rate"


# ---------------------------------------------------------------- model

@dataclass
class Metric:
    score: float
    lo: float  # NaN when unknown
    hi: float
    unit: str

    @property
    def known(self) -> bool:
        return math.isfinite(self.lo) and math.isfinite(self.hi)

    @property
    def error(self) -> float:
        return (self.hi - self.lo) / 2 if self.known else NAN

    def base(self) -> "Metric":
        """The same metric in base units (ops/s or s/op)."""
        f = unit_kind(self.unit)[1]
        kind = unit_kind(self.unit)[0]
        unit = {"rate": "ops/s", "time": "s/op"}.get(kind, self.unit)
        return Metric(self.score * f, self.lo * f, self.hi * f, unit)

    def shifted(self, delta: float) -> "Metric":
        return Metric(self.score + delta, self.lo + delta, self.hi + delta, self.unit)

    def scaled(self, factor: float) -> "Metric":
        return Metric(self.score * factor, self.lo * factor, self.hi * factor, self.unit)


@dataclass
class Result:
    benchmark: str  # fully qualified method name
    mode: str
    params: dict
    primary: Metric
    secondary: dict
    threads: int = 1
    jdk: str = ""
    vm: str = ""
    source: str = ""

    @property
    def cls(self) -> str:
        return self.benchmark.rsplit(".", 1)[0]

    @property
    def method(self) -> str:
        return self.benchmark.rsplit(".", 1)[1]

    @property
    def simple_class(self) -> str:
        return self.cls.rsplit(".", 1)[-1]

    @property
    def key(self) -> tuple:
        """Identity of a measurement across runs: benchmark, mode, threads and every param."""
        return (self.benchmark, self.mode, self.threads, tuple(sorted(self.params.items())))

    def metric(self, name: str) -> Metric | None:
        """'primary' or a secondary metric name. GC time and count that JMH left out (it writes
        gc.time only when a collection happened) read as zero when the gc profiler ran."""
        if name in ("primary", "", None):
            return self.primary
        m = self.secondary.get(name)
        if m is None and name in (GC_TIME, "gc.count") and ALLOC in self.secondary:
            return Metric(0.0, 0.0, 0.0, "ms" if name == GC_TIME else "counts")
        return m


@dataclass
class Run:
    path: Path
    results: list
    provenance: dict | None = None

    @property
    def jdk(self) -> str:
        p = self.provenance or {}
        j = p.get("jdk") or {}
        if j.get("runtimeVersion") or j.get("version"):
            return f"{j.get('vendor', '')} {j.get('runtimeVersion') or j.get('version')}".strip()
        vs = {f"{r.vm} {r.jdk}".strip() for r in self.results}
        return ", ".join(sorted(vs))

    @property
    def cpu(self) -> str:
        h = (self.provenance or {}).get("host") or {}
        if not h:
            return ""
        return f"{h.get('cpuModel', '?')} x{h.get('availableProcessors', '?')}"


# ---------------------------------------------------------------- loading

def _num(v, where: str) -> float:
    if isinstance(v, bool):
        raise InputError(f"{where}: expected a number, got {v!r}")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        s = v.strip()
        if s in ("NaN", "nan"):
            return NAN
        if s in ("Infinity", "+Infinity", "inf"):
            return INF
        if s in ("-Infinity", "-inf"):
            return -INF
        try:
            return float(s)
        except ValueError:
            pass
    raise InputError(f"{where}: expected a number, got {v!r}")


def _metric(m, where: str) -> Metric:
    if not isinstance(m, dict) or "score" not in m:
        raise InputError(f"{where}: metric without a score")
    score = _num(m["score"], where + ".score")
    unit = str(m.get("scoreUnit", ""))
    err = _num(m.get("scoreError", "NaN"), where + ".scoreError")
    conf = m.get("scoreConfidence")
    lo = hi = NAN
    if math.isfinite(err):
        if isinstance(conf, list) and len(conf) == 2:
            lo, hi = _num(conf[0], where), _num(conf[1], where)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            lo, hi = score - err, score + err
    else:
        # JMH writes NaN error (and a zero-width scoreConfidence) for metrics it sums over
        # iterations, such as gc.time and gc.count; rebuild the interval from rawData.
        lo, hi = _raw_interval(score, m.get("rawData"), where)
    return Metric(score, lo, hi, unit)


# Student t quantiles for a two-sided 99.9% interval (JMH's confidence level), by degrees of freedom.
_T999 = [(1, 636.62), (2, 31.599), (3, 12.924), (4, 8.610), (5, 6.869), (6, 5.959), (7, 5.408), (8, 5.041),
         (9, 4.781), (10, 4.587), (12, 4.318), (15, 4.073), (20, 3.850), (30, 3.646), (60, 3.460),
         (120, 3.373)]


def t999(df: int) -> float:
    for d, t in _T999:
        if df <= d:
            return t
    return 3.291


def _raw_interval(score: float, raw, where: str) -> tuple[float, float]:
    """99.9% interval of `score` from the per-iteration values: the interval of their mean, scaled
    by score/mean (1 for an average, the iteration count for a sum). Unknown with < 2 values."""
    if not isinstance(raw, list):
        return NAN, NAN
    vals = [_num(v, where) for fork in raw if isinstance(fork, list) for v in fork]
    if len(vals) < 2 or not all(math.isfinite(v) for v in vals):
        return NAN, NAN
    mean = sum(vals) / len(vals)
    if mean == 0:
        return (0.0, 0.0) if score == 0 and all(v == 0 for v in vals) else (NAN, NAN)
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))
    half = t999(len(vals) - 1) * sd / math.sqrt(len(vals))
    k = score / mean
    return (mean - half) * k, (mean + half) * k


def load(path) -> Run:
    """Read one JMH JSON result file (and the .provenance.json beside it, if any)."""
    path = Path(path)
    name = str(path)
    if not path.is_file():
        raise InputError(f"{name}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{name}: cannot read ({e.__class__.__name__})")
    if not text.strip():
        raise InputError(f"{name}: empty file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not JSON ({e.msg} at line {e.lineno})")
    if not isinstance(data, list) or not data:
        raise InputError(f"{name}: not a JMH result file (expected a non-empty JSON array of benchmark results)")
    results = []
    for i, r in enumerate(data):
        where = f"{name}: result {i}"
        if not isinstance(r, dict) or "benchmark" not in r or "mode" not in r:
            raise InputError(f"{where}: not a JMH result (no 'benchmark'/'mode')")
        bench = str(r["benchmark"])
        where = f"{name}: {bench}"
        if "primaryMetric" not in r:
            raise InputError(f"{where}: result without primaryMetric")
        if "." not in bench:
            raise InputError(f"{where}: benchmark name is not Class.method")
        primary = _metric(r["primaryMetric"], where + " primaryMetric")
        secondary = {}
        for k, v in (r.get("secondaryMetrics") or {}).items():
            secondary[k.lstrip("\u00b7")] = _metric(v, f"{where} {k}")
        params = {str(k): str(v) for k, v in (r.get("params") or {}).items()}
        results.append(Result(bench, str(r["mode"]), params, primary, secondary,
                              int(r.get("threads", 1) or 1), str(r.get("jdkVersion", "")),
                              str(r.get("vmName", "")), name))
    return Run(path, results, _provenance(path))


def load_many(paths) -> Run:
    """Several result files of one pass (e.g. CI runs coldStart in its own pass) read as one run.
    The environment is the first file's; a benchmark measured in two files is bad input."""
    runs = [load(p) for p in paths]
    seen = {}
    for run in runs:
        for r in run.results:
            if r.key in seen:
                raise InputError(f"{run.path}: {r.benchmark} {r.params} is also in {seen[r.key]}")
            seen[r.key] = run.path
    return Run(runs[0].path, [r for run in runs for r in run.results], runs[0].provenance)


def provenance_path(path: Path) -> Path:
    return path.with_name(path.name[: -len(".json")] + ".provenance.json") if path.name.endswith(".json") else path


def _provenance(path: Path):
    p = provenance_path(path)
    if p == path or not p.is_file():
        return None
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"{p}: unreadable provenance ({e.__class__.__name__})")
    return d if isinstance(d, dict) else None


def newest_run(results_dir=RESULTS_DIR) -> Path:
    """Lexicographically greatest results/*.json that is not provenance, baseline or hidden."""
    d = Path(results_dir)
    cands = sorted(p for p in d.glob("*.json")
                   if not p.name.startswith(".") and not p.name.endswith(".provenance.json")
                   and p.name != "baseline.json") if d.is_dir() else []
    if not cands:
        raise InputError(f"{d}: no JMH result files (run `mvn jmh:run` first or name a file)")
    return cands[-1]


def load_config(path) -> dict:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: not valid JSON ({e.__class__.__name__})")
    if not isinstance(d, dict):
        raise InputError(f"{path}: expected a JSON object")
    return d


# ---------------------------------------------------------------- ratios

def ratio(a: Metric, b: Metric) -> tuple[float, float, float]:
    """a/b with its conservative interval (see module docstring); both in the same units."""
    a, b = a.base(), b.base()
    if b.score == 0:
        r = NAN if a.score == 0 else INF
    else:
        r = a.score / b.score
    if not (a.known and b.known):
        return r, NAN, NAN
    la, ha, lb, hb = max(a.lo, 0.0), a.hi, max(b.lo, 0.0), b.hi
    if hb <= 0 or ha < 0:
        return r, NAN, NAN
    lo = la / hb
    hi = ha / lb if lb > 0 else INF
    return r, lo, hi


def speedup(after: Metric, before: Metric) -> tuple[float, float, float]:
    """How many times better `after` is than `before` (>1 is better), interval included."""
    if higher_is_better(after.unit):
        return ratio(after, before)
    r, lo, hi = ratio(before, after)
    return r, lo, hi


def geomean_metric(ms: list) -> Metric:
    """Geometric mean of several scores (base units); the interval is the geometric mean of the
    ends, which contains the geometric mean of any values inside the individual intervals."""
    ms = [m.base() for m in ms]

    def gm(xs):
        xs = list(xs)
        if any(not math.isfinite(x) for x in xs):
            return NAN
        if any(x <= 0 for x in xs):
            return 0.0
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    known = all(m.known for m in ms)
    return Metric(gm(m.score for m in ms), gm(max(m.lo, 0) for m in ms) if known else NAN,
                  gm(m.hi for m in ms) if known else NAN, ms[0].unit)


# ---------------------------------------------------------------- grouping

@dataclass
class Group:
    """One comparison: the variants (or methods) of one benchmark measured on one param set."""
    cls: str
    name: str  # method, or the baseline method of a method-style pair
    mode: str
    params: dict  # every param except the variant one
    label_kind: str  # 'variant' or 'method'
    rows: list = field(default_factory=list)  # [(label, Result)]
    baseline: str | None = None

    @property
    def simple_class(self) -> str:
        return self.cls.rsplit(".", 1)[-1]

    def base_result(self):
        for label, r in self.rows:
            if label == self.baseline:
                return r
        return None

    def params_label(self, skip=()) -> str:
        shown = fmt_params({k: v for k, v in self.params.items() if k not in skip})
        return shown if shown else "(no params)"


def technique_config(techniques: dict, cls: str) -> dict:
    return (techniques.get("techniques") or {}).get(cls) or {}


def group_results(results, techniques: dict | None = None) -> list:
    """Pair each result with the others it is compared with, keeping file order.

    Per class, the variant param (default `variant`) splits a method's results into rows; the
    baseline is the configured value, else the first value seen (JMH runs enum constants in
    declaration order). Method-style pairs (separate methods, e.g. jdkSplitFirst vs splitFirst)
    come only from the configuration.
    """
    techniques = techniques or {}
    groups: dict = {}
    first_variant: dict = {}
    for r in results:
        cfg = technique_config(techniques, r.cls)
        vp = cfg.get("variant_param", "variant")
        pair = None
        for mp in cfg.get("method_pairs", []):
            if r.method == mp["baseline"] or r.method in mp.get("methods", []):
                pair = mp
        if pair is not None:
            params = dict(r.params)
            gk = (r.cls, "pair:" + pair["baseline"], r.mode, r.threads, tuple(sorted(params.items())))
            if gk not in groups:
                groups[gk] = Group(r.cls, pair["baseline"], r.mode, params, "method", baseline=pair["baseline"])
            groups[gk].rows.append((r.method, r))
            continue
        params = {k: v for k, v in r.params.items() if k != vp}
        label = r.params.get(vp)
        if label is not None:
            first_variant.setdefault(r.cls, label)
        gk = (r.cls, r.method, r.mode, r.threads, tuple(sorted(params.items())))
        if gk not in groups:
            groups[gk] = Group(r.cls, r.method, r.mode, params, "variant")
        groups[gk].rows.append((label if label is not None else r.method, r))
    for g in groups.values():
        if g.label_kind == "variant":
            cfg = technique_config(techniques, g.cls)
            g.baseline = cfg.get("baseline") or first_variant.get(g.cls)
            if g.baseline not in [lbl for lbl, _ in g.rows]:
                g.baseline = g.rows[0][0] if len(g.rows) > 1 else None
        elif g.baseline not in [lbl for lbl, _ in g.rows]:
            g.baseline = None
        # baseline first, then the rest in file order
        g.rows.sort(key=lambda lr: lr[0] != g.baseline)
    return list(groups.values())


def by_class(groups) -> dict:
    out: dict = {}
    for g in groups:
        out.setdefault(g.cls, []).append(g)
    return out


def _numeric(v: str) -> float:
    try:
        return float(v)
    except ValueError:
        return NAN


def param_matches(params: dict, filt: dict, pool: list) -> bool:
    """params match filt (name -> value or [values]; 'max'/'min' = the largest/smallest value of
    that param among `pool`, a list of param dicts)."""
    for k, v in (filt or {}).items():
        vals = [str(x) for x in v] if isinstance(v, list) else [str(v)]
        if vals in (["max"], ["min"]):
            present = [p[k] for p in pool if k in p]
            if not present:
                return False
            pick = max if vals == ["max"] else min
            vals = [pick(present, key=lambda x: (_numeric(x), x))]
        if params.get(k) not in vals:
            return False
    return True


def select(results, spec: dict) -> list:
    """Results matching a filter: benchmark (class or Class.method, suffix allowed), method,
    mode, metric (only results that have it), params {name: value, [values], 'max' or 'min'}."""
    pool = []
    for r in results:
        b = spec.get("benchmark")
        if b and not (r.cls == b or r.benchmark == b or r.cls.endswith("." + b) or r.benchmark.endswith("." + b)):
            continue
        if spec.get("method") and r.method != spec["method"]:
            continue
        if spec.get("mode") and r.mode != spec["mode"]:
            continue
        if spec.get("metric") and r.metric(spec["metric"]) is None:
            continue
        pool.append(r)
    params = [r.params for r in pool]
    return [r for r in pool if param_matches(r.params, spec.get("params"), params)]


# ---------------------------------------------------------------- formatting

def fmt_num(x: float, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    a = abs(x)
    if a >= 1e6 or a < 1e-3:
        return f"{x:.{digits - 1}e}"
    if a >= 100:
        return f"{x:,.0f}" if a >= 1000 else f"{x:.1f}"
    return f"{x:.{digits}g}"


_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.+-]+")


def fmt_params(params: dict) -> str:
    """name=value, ... with a value quoted when it is not a plain word or number, so that a
    delimiter param such as "," or "||" reads unambiguously inside the comma-separated list."""
    return ", ".join(f"{k}={v}" if _PLAIN_VALUE.fullmatch(v) else f'{k}="{v}"' for k, v in params.items())


def md_cell(text) -> str:
    """Text for a Markdown table cell: a literal | would end the cell."""
    return str(text).replace("|", "\\|")


def fmt_metric(m: Metric | None) -> str:
    if m is None:
        return ""
    err = fmt_num(m.error) if m.known else "n/a"
    return f"{fmt_num(m.score)} ± {err} {m.unit}".strip()


def fmt_ratio(r: float, lo: float, hi: float) -> str:
    s = f"{fmt_num(r)}x"
    if math.isnan(lo) or math.isnan(hi):
        return s + " [n/a]"
    return f"{s} [{fmt_num(lo)}, {fmt_num(hi)}]"


def write_atomic(path, text: str | bytes) -> None:
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
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def fail(msg: str, code: int = 2):
    print(msg.splitlines()[0] if msg else "error", file=sys.stderr)
    sys.exit(code)


def slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("_")
