"""JMH JSON results: loading, validation and the data model.

Every number a verdict uses is checked here before anything is judged (_metric says the rules); a file
that breaks a rule raises InputError, one line naming the file, the result and the problem (the commands
print it on stderr, exit status 2). A result's environment comes from the JMH JSON itself, so a file copied
without its provenance is still described right; the provenance (written by `mvn jmh:run`) adds the host,
the commit and the JMH options.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import forks, stats

NAN, INF = float("nan"), float("inf")

SCRIPTS_DIR = Path(__file__).resolve().parent.parent
REPO = SCRIPTS_DIR.parent
RESULTS_DIR = REPO / "results"

ALLOC = "gc.alloc.rate.norm"
# Keys of Result.fork_values beside the metrics' names (which never start with "@"): the primary
# score's best iteration in each fork, and each fork's count of measured iterations.
BEST, ITERATIONS = "@best", "@iterations"
GC_TIME = "gc.time"
MODES = {"thrpt", "avgt", "sample", "ss"}
# JVM options the trial engine's own JMH process passed on to its forks (JMH forks inherit the host
# JVM's options): they say nothing about the benchmark's environment.
ENGINE_JVM_ARGS = frozenset({"-Djmh.ignoreLock=true"})


class InputError(Exception):
    """Bad input: the message is one line naming the file and the problem."""


TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "min": 60.0, "m": 60.0}
# Units of secondary metrics that JMH's gc profiler and aux counters write; "#" is an aux counter's,
# whose real unit the technique's metadata declares.
OTHER_UNITS = {"B/op": "bytes", "MB/sec": "alloc_rate", "counts": "count", "ms": "duration", "#": "counter",
               "%": "share"}


def unit_kind(unit: str) -> tuple[str, float]:
    """('rate', ops/s per unit value), ('time', s per unit value), (an OTHER_UNITS kind, 1) or ('unknown', 1)."""
    u = (unit or "").strip()
    if u.startswith("ops/") and u[4:] in TIME_UNITS:
        return "rate", 1.0 / TIME_UNITS[u[4:]]
    if u.endswith("/op") and u[:-3] in TIME_UNITS:
        return "time", TIME_UNITS[u[:-3]]
    return OTHER_UNITS.get(u, "unknown"), 1.0


def comparable(u1: str, u2: str) -> bool:
    """Two scores in these units can be divided: both rates, both times, or the same other unit."""
    k1, k2 = unit_kind(u1)[0], unit_kind(u2)[0]
    return "unknown" not in (k1, k2) and k1 == k2 and (k1 in ("rate", "time") or u1.strip() == u2.strip())


def convert(value: float, unit: str, target: str) -> float:
    if not comparable(unit, target):
        raise ValueError(f"cannot convert {unit} to {target}")
    return value * unit_kind(unit)[1] / unit_kind(target)[1]


def higher_is_better(unit: str) -> bool:
    """Throughput (ops/time) is better higher; time/op, B/op, counts, GC ms are better lower."""
    return unit_kind(unit)[0] == "rate"


@dataclass(frozen=True)
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
        """The same metric in base units (ops/s or s/op); other units unchanged."""
        kind, f = unit_kind(self.unit)
        unit = {"rate": "ops/s", "time": "s/op"}.get(kind, self.unit)
        return Metric(self.score * f, self.lo * f, self.hi * f, unit)


@dataclass(frozen=True)
class Environment:
    """What the forks ran on, from the JMH JSON (plus the host, from the provenance when present)."""
    jdk: str = ""  # jdkVersion
    vm: str = ""  # vmName
    vm_version: str = ""
    jvm_args: tuple = ()
    cpu: str = ""  # provenance: host CPU model and core count
    host: str = ""  # provenance: the machine key (model.machine_key), "" when unknown

    @property
    def jdk_major(self) -> str:
        m = re.match(r"(?:1\.)?(\d+)", self.jdk)
        return m.group(1) if m else ""

    @property
    def label(self) -> str:
        """A short name: 'JDK 17.0.15' plus the JVM options that are not heap sizes."""
        return " ".join([f"JDK {self.jdk or '?'}"] + [a for a in self.jvm_args if not re.match(r"-Xm[sx]", a)])


@dataclass
class Result:
    benchmark: str  # fully qualified method name
    mode: str
    params: dict
    primary: Metric
    secondary: dict
    threads: int = 1
    forks: int = 1
    env: Environment = field(default_factory=Environment)
    source: str = ""
    # Runs of the trial protocol (docs/protocol.md): each metric's per-fork means ("primary" for the
    # primary score), and the trial each fork ran in, from the provenance's schedule.
    fork_values: dict = field(default_factory=dict)
    trials: tuple = ()
    # The warm-up its forks ran, as JMH's JSON gives it: (warmupIterations, warmupTime), e.g. (5, "2 s").
    warmup: tuple = ()

    @property
    def paired(self) -> bool:
        """Whether this result's forks can be paired by trial with another result's."""
        return bool(self.trials) and len(self.trials) == len(self.fork_values.get("primary", ()))

    def forks_of(self, name: str | None) -> list:
        """Per-fork means of a metric ('primary' or a secondary name); [] when unknown."""
        return list(self.fork_values.get("primary" if name in ("primary", "", None) else name, ()))

    def over_forks(self, name: str | None = "primary") -> Metric | None:
        """A metric as the suite reports it: for a trials run, the mean over its forks with the 95% t
        interval over them (the fork is the unit); JMH's own for a run without forks to count."""
        m = self.metric(name)
        if m is None or not self.paired:
            return m
        mean, lo, hi = stats.mean_interval(self.forks_of(name))
        return Metric(mean, lo, hi, m.unit) if math.isfinite(mean) else m

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

    def metric(self, name: str | None) -> Metric | None:
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
    skipped: list = field(default_factory=list)  # results left out by load(skip_failed=True)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def jdk(self) -> str:
        """The JDK(s) the forks ran on, from the results themselves."""
        return ", ".join(sorted({f"{r.env.vm} {r.env.jdk}".strip() for r in self.results}))

    @property
    def cpu(self) -> str:
        return host_cpu(self.provenance)

    @property
    def machine(self) -> str:
        """The machine key (model.machine_key), or this file's name when its provenance has no host."""
        return machine_key(self.provenance) or f"unknown:{self.name}"

    @property
    def boot(self) -> str:
        """The machine and boot, or the file's name when the boot is unrecorded (a boot of its own)."""
        return f"{self.machine}/{boot_id(self.provenance) or self.name}"

    @property
    def protocol(self) -> str:
        """'trials' for a run of the trial protocol; 'jmh-forks' for JMH's own fork order (older runs, -Djmh.f)."""
        return "trials" if (self.provenance or {}).get("protocol") == "trials" else "jmh-forks"

    @property
    def trials_engine(self) -> int:
        """The trial engine's revision (provenance 'trialsEngine'; 1 for a trials run without it, 0 otherwise).
        Revision 1's noise profiler ran java.util.regex in the benchmark's JVM, slowing regex benchmarks."""
        if self.protocol != "trials":
            return 0
        v = (self.provenance or {}).get("trialsEngine")
        return v if isinstance(v, int) and not isinstance(v, bool) else 1

    @property
    def commit(self) -> str:
        return str(((self.provenance or {}).get("git") or {}).get("commit") or "")

    @property
    def dirty(self) -> bool:
        return bool(((self.provenance or {}).get("git") or {}).get("dirty"))


def _host(prov) -> dict:
    h = (prov or {}).get("host") or {}
    return h if isinstance(h, dict) else {}


def host_cpu(prov) -> str:
    h = _host(prov)
    return f"{h['cpuModel']} x{h.get('availableProcessors', '?')}" if h.get("cpuModel") else ""


def machine_key(prov) -> str:
    """The machine a run came from: host.machineKey (a hash of the DMI product UUID, else of CPU model,
    flags, processors and memory), else (older runs) CPU model, processors and GiB; "" when unrecorded.
    Never the boot id (a reboot is the same machine) nor host.id (VMs of one image share it)."""
    h = _host(prov)
    if h.get("machineKey"):
        return str(h["machineKey"])
    cpu, mem = host_cpu(prov), h.get("memTotalBytes")
    return cpu + (f" {round(mem / 2 ** 30)} GiB" if isinstance(mem, (int, float)) and mem > 0 else "") if cpu else ""


def boot_id(prov) -> str:
    return str(_host(prov).get("bootId") or "")


def _num(v, where: str) -> float:
    if isinstance(v, bool):
        raise InputError(f"{where}: expected a number, got {v!r}")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:  # float() also reads JMH's "NaN", "Infinity" and "-Infinity"
            return float(v.strip())
        except ValueError:
            pass
    raise InputError(f"{where}: expected a number, got {str(v)[:40]!r}")


def _raw_interval(score: float, raw, where: str) -> tuple[float, float]:
    """99.9% interval of `score` from the per-iteration values: the interval of their mean, scaled
    by score/mean (1 for an average, the iteration count for a sum). Unknown with < 2 values."""
    if not isinstance(raw, list):
        return NAN, NAN
    vals = [_num(v, where + ".rawData") for fork in raw if isinstance(fork, list) for v in fork]
    if len(vals) < 2 or not all(math.isfinite(v) for v in vals):
        return NAN, NAN
    mean = sum(vals) / len(vals)
    if mean == 0:
        return (0.0, 0.0) if score == 0 and all(v == 0 for v in vals) else (NAN, NAN)
    half = stats.t_quantile(0.9995, len(vals) - 1) * stats.sd(vals) / math.sqrt(len(vals))
    k = score / mean
    return (mean - half) * k, (mean + half) * k


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _metric(m, where: str, primary: bool) -> Metric:
    """One metric, checked: a finite score (positive for a primary one, not negative for a rate, time, bytes,
    count or GC time), an ordered interval holding its score, a rate or time unit when primary."""
    if not isinstance(m, dict) or "score" not in m:
        raise InputError(f"{where}: metric without a score")
    unit = m.get("scoreUnit")
    if not isinstance(unit, str) or not unit.strip():
        raise InputError(f"{where}: metric without a unit")
    kind = unit_kind(unit)[0]
    if primary and kind not in ("rate", "time"):
        raise InputError(f"{where}: unit {unit!r} is not a throughput (ops/time) or a time per operation")
    score = _num(m["score"], where + ".score")
    if not math.isfinite(score):
        raise InputError(f"{where}: score {m['score']!r} is not a finite number")
    # A primary score is what a ratio divides by. A secondary time may be 0: a SampleTime percentile such as
    # p0.00 is 0 when the timer's granularity rounds the fastest sample down, a fact to chart, not bad input.
    if primary and score <= 0:
        raise InputError(f"{where}: score {score:g} {unit} is not positive")
    if score < 0 and kind in ("rate", "time", "bytes", "count", "duration", "alloc_rate"):
        raise InputError(f"{where}: score {score:g} {unit} is negative")
    err = _num(m.get("scoreError", "NaN"), where + ".scoreError")
    if err < 0 or err == INF:
        raise InputError(f"{where}: scoreError {m.get('scoreError')!r} is not a finite non-negative number")
    lo = hi = NAN
    if math.isfinite(err):
        if (conf := m.get("scoreConfidence")) is not None:
            if not (isinstance(conf, list) and len(conf) == 2):
                raise InputError(f"{where}: scoreConfidence is not a pair of numbers")
            lo, hi = _num(conf[0], where + ".scoreConfidence"), _num(conf[1], where + ".scoreConfidence")
        if not (math.isfinite(lo) and math.isfinite(hi)):
            lo, hi = score - err, score + err
    else:
        # JMH writes NaN error (and a zero-width scoreConfidence) for metrics it sums over
        # iterations, such as gc.time and gc.count; rebuild the interval from rawData.
        lo, hi = _raw_interval(score, m.get("rawData"), where)
    if math.isfinite(lo) and math.isfinite(hi):
        if lo > hi:
            raise InputError(f"{where}: interval [{lo:g}, {hi:g}] is not ordered")
        if (score < lo and not _close(score, lo)) or (score > hi and not _close(score, hi)):
            raise InputError(f"{where}: score {score:g} lies outside its own interval [{lo:g}, {hi:g}]")
    elif math.isfinite(lo) != math.isfinite(hi):
        raise InputError(f"{where}: interval [{lo:g}, {hi:g}] is not finite")
    return Metric(score, lo, hi, unit.strip())


def _params(p, where: str) -> dict:
    if p is None:
        return {}
    if not isinstance(p, dict) or not all(isinstance(k, str) and isinstance(v, (str, int, float))
                                          and not isinstance(v, bool) for k, v in p.items()):
        raise InputError(f"{where}: params is not an object of names to values")
    return {k: str(v) for k, v in p.items()}


def _read_json(path: Path, what: str):
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
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not JSON ({e.msg} at line {e.lineno})")
    except RecursionError:
        raise InputError(f"{name}: {what} nested too deeply to read")


def load(path, with_provenance: bool = True, skip_failed: bool = False) -> Run:
    """Read one JMH JSON result file (and the .provenance.json beside it), checked. With skip_failed, a result
    whose primary score is NaN (a failed benchmark) is named in Run.skipped instead of making the file bad input."""
    path = Path(path)
    name = str(path)
    data = _read_json(path, "JSON")
    if not isinstance(data, list) or not data:
        raise InputError(f"{name}: not a JMH result file (expected a non-empty JSON array of benchmark results)")
    prov = _provenance(path) if with_provenance else None
    cpu, host = host_cpu(prov), machine_key(prov)
    trials_of = _trials(prov)
    results, seen, skipped = [], {}, []
    for i, r in enumerate(data):
        where = f"{name}: result {i}"
        if not isinstance(r, dict) or not isinstance(r.get("benchmark"), str) or "mode" not in r:
            raise InputError(f"{where}: not a JMH result (no 'benchmark'/'mode')")
        bench = r["benchmark"]
        where = f"{name}: {bench}"
        if "." not in bench:
            raise InputError(f"{where}: benchmark name is not Class.method")
        if r["mode"] not in MODES:
            raise InputError(f"{where}: unknown mode {str(r['mode'])[:20]!r}")
        if "primaryMetric" not in r:
            raise InputError(f"{where}: result without primaryMetric")
        params = _params(r.get("params"), where)
        where = f"{name}: {bench} {fmt_key_params(params)}".rstrip()
        score = r["primaryMetric"].get("score") if isinstance(r["primaryMetric"], dict) else None
        if skip_failed and (score != score or str(score).strip().lower() == "nan"):
            skipped.append(f"{'.'.join(bench.rsplit('.', 2)[-2:])} {fmt_key_params(params)}".rstrip())
            continue
        primary = _metric(r["primaryMetric"], where + " primaryMetric", True)
        sec = r.get("secondaryMetrics") or {}
        if not isinstance(sec, dict):
            raise InputError(f"{where}: secondaryMetrics is not an object")
        secondary = {k.lstrip("\u00b7"): _metric(v, f"{where} {k}", False) for k, v in sec.items()}
        threads, nforks = r.get("threads", 1), r.get("forks", 1)
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise InputError(f"{where}: threads {threads!r} is not a positive integer")
        if not isinstance(nforks, int) or isinstance(nforks, bool) or nforks < 0:
            raise InputError(f"{where}: forks {nforks!r} is not an integer")
        args = r.get("jvmArgs") or []
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise InputError(f"{where}: jvmArgs is not a list of strings")
        env = Environment(str(r.get("jdkVersion", "")), str(r.get("vmName", "")), str(r.get("vmVersion", "")),
                          tuple(a for a in args if a not in ENGINE_JVM_ARGS), cpu, host)
        fork_values = _fork_figures(r["primaryMetric"], r["mode"])
        for k, v in sec.items():
            fork_values[k.lstrip("\u00b7")] = _fork_figures(v, "")["primary"] if isinstance(v, dict) else ()
        if (prov or {}).get("protocol") == "trials":
            for k, v in sec.items():
                if (summed := _per_fork_sums(v, secondary[k.lstrip("\u00b7")])) is not None:
                    secondary[k.lstrip("\u00b7")], fork_values[k.lstrip("\u00b7")] = summed
        trials = trials_of.get((bench, r["mode"], tuple(sorted(params.items()))), ())
        res = Result(bench, r["mode"], params, primary, secondary, threads, nforks, env, name, fork_values, trials,
                     (r.get("warmupIterations"), r.get("warmupTime")))
        if res.key in seen:
            raise InputError(f"{where}: measured twice in this file (results {seen[res.key]} and {i})")
        seen[res.key] = i
        results.append(res)
    if not results:
        raise InputError(f"{name}: every result's score is NaN (every benchmark failed)")
    return Run(path, results, prov, skipped)


def _per_fork_sums(m, metric: "Metric"):
    """A metric JMH sums over iterations and forks (an EVENTS counter posted as shares by
    io.hotpathbench.EventShares, gc.count, gc.time) in a trials run, where each fork ran alone (-f 1): the
    metric as the mean of the forks' sums (interval scaled alike) and those sums; None for a metric JMH averages."""
    raw = m.get("rawData") if isinstance(m, dict) else None
    if not isinstance(raw, list):
        return None
    forks = [[float(v) for v in f if isinstance(v, (int, float)) and not isinstance(v, bool)]
             for f in raw if isinstance(f, list)]
    forks = [f for f in forks if f]
    vals = [v for f in forks for v in f]
    if len(forks) < 2 or not all(math.isfinite(v) for v in vals):
        return None
    total = sum(vals)
    if not _close(metric.score, total) or _close(total, total / len(vals)):
        return None
    k = 1.0 / len(forks)
    return (Metric(metric.score * k, metric.lo * k, metric.hi * k, metric.unit),
            tuple(sum(f) for f in forks))


def _fork_figures(m, mode: str) -> dict:
    """Each fork's mean ("primary") from a metric's rawData, and for thrpt/avgt its best iteration (BEST,
    twocommit.fast_state) and its iteration count (ITERATIONS). Empty where rawData is unreadable."""
    raw = m.get("rawData") if m.get("rawData") is not None else m.get("rawDataHistogram")
    try:
        out = {"primary": tuple(forks.fork_means(raw))}
        if mode in ("thrpt", "avgt"):
            out.update({BEST: tuple(forks.fork_bests(raw, mode == "thrpt")),
                        ITERATIONS: tuple(len(v) for v in forks.fork_iterations(raw))})
    except (TypeError, ValueError):
        return {"primary": ()}
    return out if out["primary"] else {"primary": ()}


def _trials(prov) -> dict:
    """(benchmark, mode, sorted params) -> the trial of each fork, from a trials run's schedule; a
    two-commit run's side is a param in the JSON and a field in the schedule."""
    sched = ((prov or {}).get("trials") or {}).get("schedule") if (prov or {}).get("protocol") == "trials" else None
    out: dict = {}
    if not isinstance(sched, list):
        return out
    for e in sched:
        try:
            params = {k: str(v) for k, v in (e.get("params") or {}).items()}
            if e.get("side"):
                params["side"] = str(e["side"])
            key = (e["benchmark"], e["mode"], tuple(sorted(params.items())))
            out.setdefault(key, []).append((int(e["fork"]), int(e["trial"])))
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
    return {k: tuple(t for _, t in sorted(v)) for k, v in out.items()}


def fmt_key_params(params: dict) -> str:
    return "[" + ", ".join(f"{k}={v}" for k, v in params.items()) + "]" if params else ""


def load_many(paths) -> Run:
    """Several result files of one pass (e.g. CI runs coldStart in its own pass) read as one run.
    The provenance is the first file's; a benchmark measured in two files is bad input."""
    runs = [load(p) for p in paths]
    seen = {}
    for run in runs:
        for r in run.results:
            if r.key in seen:
                raise InputError(f"{run.path}: {r.benchmark} {fmt_key_params(r.params)} is also in {seen[r.key]}")
            seen[r.key] = run.path
    return Run(runs[0].path, [r for run in runs for r in run.results], runs[0].provenance)


def provenance_path(path: Path) -> Path:
    return path.with_name(path.name[: -len(".json")] + ".provenance.json") if path.name.endswith(".json") else path


def _provenance(path: Path):
    p = provenance_path(path)
    if p == path or not p.is_file():
        return None
    d = _read_json(p, "provenance")
    if not isinstance(d, dict):
        raise InputError(f"{p}: provenance is not a JSON object")
    return d


def result_files(results_dir=RESULTS_DIR) -> list:
    """Every run in a results folder, oldest first (names start with their UTC time): not provenance, a gate
    pass's record (*.pass.json), the gate's baseline or a hidden partial file."""
    d = Path(results_dir)
    if not d.is_dir():
        return []
    return sorted(p for p in d.glob("*.json")
                  if not p.name.startswith(".") and not p.name.endswith((".provenance.json", ".pass.json"))
                  and p.name[:1].isdigit())


def newest_run(results_dir=RESULTS_DIR) -> Path:
    cands = result_files(results_dir)
    if not cands:
        raise InputError(f"{results_dir}: no JMH result files (run `mvn jmh:run` first or name a file)")
    return cands[-1]

