"""The suite's settings (scripts/suite.json) and one metadata file per technique
(scripts/techniques/<id>.json), loaded and checked.

A technique's file is the one place that says everything the scripts need about it: its title, the
benchmark class, the variant param and baseline, the metrics its benchmark writes beside JMH's, the
figures the README cites, the write-up's published claims, the claims CI enforces (each naming the
CI pass that produces its data), the targets the report judges, the warm-up a configuration
needs beyond its class's (`warmup`, which the plugin gives its forks), the window a gate fork measures where the
gate's does not suit its figures (`gate_window`), the shared packages or classes its code uses (`uses`) and the fewest trials a default
run gives each of its groups (`min_trials`: {"trials": N, "methods": {method: N}, "why": ...}, set
from a pilot; a class's @Fork keeps JMH's meaning, the forks of -Djmh.f). Adding a technique means
adding such a file; report, gate, export, reproduce, the plugin's schedule (through plan.py) and
.ci/run (through ci_plan.py) find it there.

Every file is checked by rule: unknown keys, wrong types, missing ids, duplicate ids, claims on
metrics nobody declared and CI passes that do not exist are bad input (InputError, one line).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .model import REPO, SCRIPTS_DIR, InputError, comparable, unit_kind

SUITE_FILE = SCRIPTS_DIR / "suite.json"
TECHNIQUES_DIR = SCRIPTS_DIR / "techniques"
SRC_JAVA = REPO / "src/main/java"

# The gc profiler's metrics, which every technique's results carry.
JMH_METRICS = {
    "gc.alloc.rate.norm": {"unit": "B/op", "better": "lower", "deterministic": True},
    "gc.alloc.rate": {"unit": "MB/sec", "better": "lower"},
    "gc.count": {"unit": "counts", "better": "lower"},
    "gc.time": {"unit": "ms", "better": "lower"},
}

# The times a technique file's warm-up may give, in the form JMH's TimeValue reads (the plugin passes them to JMH).
WARMUP_TIME = re.compile(r"[1-9][0-9]* ?(ns|us|ms|s|m|min|h|hr)")

RATIO_KEYS = ("min_speedup", "max_ratio", "min_ratio", "within_pct")


def used_path(name: str) -> str:
    """The repository path of a `uses` entry: a package's directory, or a class's source file."""
    path = "src/main/java/" + name.replace(".", "/")
    return path + ".java" if name.rsplit(".", 1)[-1][:1].isupper() else path


# ---------------------------------------------------------------- a small schema checker

class _Check:
    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, msg: str):
        raise InputError(f"{self.path}: {where}: {msg}")

    def obj(self, v, where: str, required=(), optional=()) -> dict:
        if not isinstance(v, dict):
            self.fail(where, "expected an object")
        allowed = set(required) | set(optional)
        for k in v:
            if k not in allowed and not k.startswith("_"):
                self.fail(where, f"unknown key {k!r} (known: {', '.join(sorted(allowed))})")
        for k in required:
            if k not in v:
                self.fail(where, f"missing {k!r}")
        return v

    def string(self, v, where: str, nonempty=True) -> str:
        if not isinstance(v, str) or (nonempty and not v.strip()):
            self.fail(where, "expected a non-empty string")
        return v

    def number(self, v, where: str, positive=False) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
            self.fail(where, f"expected a finite number, got {v!r}"[:120])
        if positive and v <= 0:
            self.fail(where, f"expected a positive number, got {v!r}")
        return float(v)

    def strings(self, v, where: str) -> list:
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            self.fail(where, "expected a list of strings")
        return v

    def params(self, v, where: str) -> dict:
        """name -> value, [values], or "max"/"min" (the largest/smallest value present)."""
        if not isinstance(v, dict):
            self.fail(where, "expected an object of param names to values")
        for k, x in v.items():
            if isinstance(x, list):
                if not x or not all(isinstance(y, str) for y in x):
                    self.fail(f"{where}.{k}", "expected a non-empty list of strings")
            elif not isinstance(x, str):
                self.fail(f"{where}.{k}", "expected a string or a list of strings")
        return v


# ---------------------------------------------------------------- the model

@dataclass
class Technique:
    id: str
    path: Path
    title: str
    benchmark: str
    test: str
    variant_param: str
    baseline: object  # str, or {method: variant}
    size_param: str | None
    method_pairs: list
    metrics: dict
    dependencies: list
    cited: list
    answer: dict
    tolerances: list
    published: list
    claims: list
    targets: list
    note: str
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def simple_class(self) -> str:
        return self.benchmark.rsplit(".", 1)[-1]

    @property
    def package_dir(self) -> str:
        """io/hotpathbench/split for io.hotpathbench.split.SplitBenchmark."""
        return self.benchmark.rsplit(".", 1)[0].replace(".", "/")

    def baseline_for(self, method: str):
        if isinstance(self.baseline, dict):
            return self.baseline.get(method)
        return self.baseline

    def method_pair(self, method: str) -> dict | None:
        """The method pair `method` belongs to (as its baseline or one of its methods), if any."""
        return next((mp for mp in self.method_pairs if method == mp["baseline"] or method in mp["methods"]), None)

    def env_jvm_args(self, r, results) -> tuple:
        """r's JVM options that describe its environment. Where the method pairs are JVM-flag variants
        (`jvm_args_vary_by_method`), a pair method's own @Fork flags are the variant: the options that
        the pair methods' forks among `results` (r's run) do not all share are left out."""
        if not self.raw.get("jvm_args_vary_by_method") or not self.method_pair(r.method):
            return tuple(r.env.jvm_args)
        sets = [set(x.env.jvm_args) for x in results if x.cls == self.benchmark and self.method_pair(x.method)]
        own = set().union(*sets) - set.intersection(*sets)
        return tuple(a for a in r.env.jvm_args if a not in own)

    def min_trials(self, method: str) -> int | None:
        """The fewest trials a default run gives a group of `method` (min_trials, its method's own
        where it names one); None when the file names none."""
        spec = self.raw.get("min_trials")
        if not spec:
            return None
        return (spec.get("methods") or {}).get(method, spec["trials"])

    def metric_info(self, name: str) -> dict | None:
        if name in ("primary", None, ""):
            return {"unit": None}
        return self.metrics.get(name) or JMH_METRICS.get(name)

    def deterministic(self, name: str) -> bool:
        info = self.metric_info(name) or {}
        return bool(info.get("deterministic"))

    def named(self, name: str, m):
        """The metric with the unit this file declares for it where JMH wrote only '#' (an aux
        counter's unit): '18 s/min' reads better than '18 #'."""
        info = self.metric_info(name) or {}
        if m is not None and m.unit == "#" and info.get("unit"):
            return replace(m, unit=info["unit"])
        return m

    def measured(self, r, name: str):
        """r's metric `name` with its declared unit and, for a metric with a declared resolution,
        an interval that covers it: a heap figure is one measurement per fork, copied into every
        iteration, so the iterations' zero spread says nothing of its error; the measuring code's
        own resolution (bytes per measurement, over the param that divides them) does."""
        m = self.named(name, r.metric(name))
        res = (self.metric_info(name) or {}).get("resolution")
        if m is None or not res:
            return m
        try:
            per = float(r.params.get(res["per_param"], "nan"))
        except ValueError:
            per = float("nan")
        if not per > 0:
            return m
        d = res["bytes"] / per
        lo = min(m.lo, m.score - d) if m.known else m.score - d
        hi = max(m.hi, m.score + d) if m.known else m.score + d
        return replace(m, lo=max(lo, 0.0), hi=hi)


@dataclass
class Suite:
    path: Path
    regression: dict
    ci_passes: dict
    techniques: list
    raw: dict = field(repr=False, default_factory=dict)

    def gate_judge(self) -> list:
        """gate.py's options for CI's gate pass (ci.passes.<gate>.judge), [] when none are named."""
        return next((list(p.get("judge", [])) for p in self.ci_passes.values() if p.get("gate")), [])

    def technique(self, cls: str) -> Technique | None:
        for t in self.techniques:
            if t.benchmark == cls:
                return t
        return None

    def by_id(self, tid: str) -> Technique | None:
        for t in self.techniques:
            if t.id == tid:
                return t
        return None

    def all_claims(self):
        """(technique, claim, enforced) for every CI claim and every target."""
        for t in self.techniques:
            for c in t.claims:
                yield t, c, True
            for c in t.targets:
                yield t, c, False


def _read(path: Path):
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise InputError(f"{path}: not valid JSON ({e.__class__.__name__})")
    except RecursionError:
        raise InputError(f"{path}: nested too deeply to read")
    if not isinstance(d, dict):
        raise InputError(f"{path}: expected a JSON object")
    return d


SELECTOR_KEYS = ("benchmark", "method", "mode", "params")


def _selector(ck: _Check, v, where: str) -> dict:
    ck.obj(v, where, optional=SELECTOR_KEYS)
    for k in ("benchmark", "method", "mode"):
        if k in v:
            ck.string(v[k], f"{where}.{k}")
    if "params" in v:
        ck.params(v["params"], f"{where}.params")
    return v


def _check_metric(ck: _Check, metrics: dict, name, where: str) -> str:
    ck.string(name, where)
    if name != "primary" and name not in metrics and name not in JMH_METRICS:
        ck.fail(where, f"unknown metric {name!r} (declare it under 'metrics' or use primary or one of {', '.join(sorted(JMH_METRICS))})")
    return name


CLAIM_KEYS = ("id", "ci", "method", "metric", "baseline_metric", "params", "variant", "baseline", *RATIO_KEYS,
              "point_score", "why", "benchmark")


def _claim(ck: _Check, c, where: str, metrics: dict, passes: dict, ci: bool) -> dict:
    required = ("id", "variant", "baseline") + (("ci",) if ci else ())
    ck.obj(c, where, required=required, optional=CLAIM_KEYS)
    ck.string(c["id"], f"{where}.id")
    where = f"{where} ({c['id']})"
    for k in ("variant", "baseline"):
        ck.string(c[k], f"{where}.{k}")
    if "method" in c:
        ck.string(c["method"], f"{where}.method")
    if "benchmark" in c:
        ck.string(c["benchmark"], f"{where}.benchmark")
    _check_metric(ck, metrics, c.get("metric", "primary"), f"{where}.metric")
    if "baseline_metric" in c:
        _check_metric(ck, metrics, c["baseline_metric"], f"{where}.baseline_metric")
    if "params" in c:
        ck.params(c["params"], f"{where}.params")
    bars = [k for k in RATIO_KEYS if k in c]
    if len(bars) != 1:
        ck.fail(where, f"needs exactly one of {', '.join(RATIO_KEYS)}")
    ck.number(c[bars[0]], f"{where}.{bars[0]}", positive=True)
    if "point_score" in c:
        ck.string(c["point_score"], f"{where}.point_score")
    if "why" in c:
        ck.string(c["why"], f"{where}.why")
    if "ci" in c:
        ck.string(c["ci"], f"{where}.ci")
        if c["ci"] not in passes:
            ck.fail(f"{where}.ci", f"no CI pass {c['ci']!r} in {SUITE_FILE.name} (passes: {', '.join(sorted(passes))})")
        gain = "min_speedup" in c and c.get("metric", "primary") == "primary"
        if passes[c["ci"]].get("gate") and not gain:
            ck.fail(f"{where}.ci", f"the two-commit pass {c['ci']!r} judges gains (min_speedup on the primary score) only")
    return c


def _published(ck: _Check, p, where: str, metrics: dict) -> dict:
    ck.obj(p, where, required=("id", "claim", "published"),
           optional=("measure", "not_comparable", "tolerance", "cpu_share", "why", "source"))
    ck.string(p["id"], f"{where}.id")
    where = f"{where} ({p['id']})"
    ck.string(p["claim"], f"{where}.claim")
    ck.number(p["published"], f"{where}.published", positive=True)
    if "tolerance" in p and ck.number(p["tolerance"], f"{where}.tolerance") < 1:
        ck.fail(f"{where}.tolerance", "must be at least 1 (a factor)")
    if "cpu_share" in p:
        share = ck.number(p["cpu_share"], f"{where}.cpu_share")
        if not 0 < share < 1:
            ck.fail(f"{where}.cpu_share", "must lie between 0 and 1")
    if ("measure" in p) == ("not_comparable" in p):
        ck.fail(where, "needs either a measure or, for a figure ours cannot be set against, not_comparable (the reason)")
    if "not_comparable" in p:
        ck.string(p["not_comparable"], f"{where}.not_comparable")
        return p
    m = ck.obj(p["measure"], f"{where}.measure", required=("kind", "after", "before"), optional=("metric",))
    if m["kind"] not in ("speedup", "ratio"):
        ck.fail(f"{where}.measure.kind", "must be speedup or ratio")
    _check_metric(ck, metrics, m.get("metric", "primary"), f"{where}.measure.metric")
    _selector(ck, m["after"], f"{where}.measure.after")
    _selector(ck, m["before"], f"{where}.measure.before")
    if "why" in p:
        why = ck.obj(p["why"], f"{where}.why", optional=("agrees", "higher", "lower", "inconclusive"))
        for k, v in why.items():
            ck.string(v, f"{where}.why.{k}")
    return p


def _cited(ck: _Check, c, where: str, metrics: dict) -> dict:
    ck.obj(c, where, required=("id", "method", "variant", "baseline", "label"),
           optional=("params", "metric", "kind"))
    ck.string(c["id"], f"{where}.id")
    where = f"{where} ({c['id']})"
    for k in ("method", "variant", "baseline", "label"):
        ck.string(c[k], f"{where}.{k}")
    _check_metric(ck, metrics, c.get("metric", "primary"), f"{where}.metric")
    if "params" in c:
        ck.params(c["params"], f"{where}.params")
        for k, v in c["params"].items():
            if isinstance(v, list) or v in ("max", "min"):
                ck.fail(f"{where}.params.{k}", "a cited figure names one configuration: give one value")
    if c.get("kind", "speedup") not in ("speedup", "ratio"):
        ck.fail(f"{where}.kind", "must be speedup or ratio")
    return c


JUDGING = {"--undecided": ("undecided", ("fail", "warn")), "--fork-figure": ("fork_figure", ("mean", "best")),
           "--strict": ("strict", None)}


def judging(opts: list) -> dict:
    """gate.py's options for a two-commit run, as CI's gate pass names them (ci.passes.gate.judge):
    {'undecided': 'fail'|'warn', 'fork_figure': 'mean'|'best', 'strict': frozenset of claim ids},
    gate.py's defaults where not given. --strict takes comma-separated gain claims whose undecided
    checks fail even under --undecided warn. ValueError for anything else."""
    out = {"undecided": "fail", "fork_figure": "mean", "strict": frozenset()}
    it = iter(opts)
    for o in it:
        if o not in JUDGING:
            raise ValueError(f"{o!r} is not a gate.py option for a two-commit run (known: {', '.join(JUDGING)})")
        key, allowed = JUDGING[o]
        v = next(it, None)
        if allowed is None:
            ids = [x.strip() for x in (v or "").split(",")]
            if v is None or not all(ids):
                raise ValueError(f"{o} takes comma-separated claim ids, not {v!r}")
            out[key] = frozenset(ids)
            continue
        if v not in allowed:
            raise ValueError(f"{o} takes one of {', '.join(allowed)}, not {v!r}")
        out[key] = v
    return out


def load_technique(path: Path, passes: dict) -> Technique:
    ck = _Check(path)
    d = _read(path)
    ck.obj(d, "technique", required=("title", "benchmark", "test", "baseline"),
           optional=("variant_param", "size_param", "method_pairs", "metrics", "dependencies", "cited", "answer",
                     "ratio_tolerances", "published", "claims", "targets", "note", "warmup", "uses", "min_trials",
                     "jvm_args_vary_by_method", "gate_window"))
    ck.string(d["title"], "title")
    ck.string(d["benchmark"], "benchmark")
    if "." not in d["benchmark"]:
        ck.fail("benchmark", "expected a fully qualified class name")
    ck.string(d["test"], "test")
    base = d["baseline"]
    if isinstance(base, dict):
        for k, v in base.items():
            ck.string(v, f"baseline.{k}")
    else:
        ck.string(base, "baseline")
    metrics = {}
    for name, info in (d.get("metrics") or {}).items():
        ck.obj(info, f"metrics.{name}", required=("unit", "better", "doc"), optional=("deterministic", "resolution"))
        ck.string(info["unit"], f"metrics.{name}.unit")
        if info["better"] not in ("lower", "higher"):
            ck.fail(f"metrics.{name}.better", "must be lower or higher")
        if "resolution" in info:
            res = ck.obj(info["resolution"], f"metrics.{name}.resolution", required=("bytes", "per_param", "why"))
            ck.number(res["bytes"], f"metrics.{name}.resolution.bytes", positive=True)
            ck.string(res["per_param"], f"metrics.{name}.resolution.per_param")
            ck.string(res["why"], f"metrics.{name}.resolution.why")
            if info["unit"] != "bytes":
                ck.fail(f"metrics.{name}.resolution", "a resolution in bytes needs a metric whose unit is bytes")
        metrics[name] = info
    if "jvm_args_vary_by_method" in d and (not isinstance(d["jvm_args_vary_by_method"], bool) or not d.get("method_pairs")):
        ck.fail("jvm_args_vary_by_method", "true for a technique whose method pairs differ by their @Fork JVM flags (method_pairs needed), else leave it out")
    pairs = []
    for i, mp in enumerate(d.get("method_pairs") or []):
        ck.obj(mp, f"method_pairs[{i}]", required=("baseline", "methods"))
        ck.string(mp["baseline"], f"method_pairs[{i}].baseline")
        ck.strings(mp["methods"], f"method_pairs[{i}].methods")
        pairs.append(mp)
    seen: dict = {}

    def unique(x, where):
        kind = where.split("[")[0].replace("targets", "claims")
        ids = seen.setdefault(kind, set())
        if x["id"] in ids:
            ck.fail(where, f"duplicate id {x['id']!r}")
        ids.add(x["id"])
        return x

    passes = passes or {}
    claims = [unique(_claim(ck, c, f"claims[{i}]", metrics, passes, True), f"claims[{i}]")
              for i, c in enumerate(d.get("claims") or [])]
    targets = [unique(_claim(ck, c, f"targets[{i}]", metrics, passes, False), f"targets[{i}]")
               for i, c in enumerate(d.get("targets") or [])]
    published = [unique(_published(ck, p, f"published[{i}]", metrics), f"published[{i}]")
                 for i, p in enumerate(d.get("published") or [])]
    cited = [unique(_cited(ck, c, f"cited[{i}]", metrics), f"cited[{i}]") for i, c in enumerate(d.get("cited") or [])]
    answer = d.get("answer") or {}
    if answer:
        ck.obj(answer, "answer", required=("cite", "pick"), optional=("verdict",))
        if answer["cite"] not in {c["id"] for c in cited}:
            ck.fail("answer.cite", f"no cited figure {answer['cite']!r}")
        ck.string(answer["pick"], "answer.pick")
    tolerances = []
    for i, t in enumerate(d.get("ratio_tolerances") or []):
        ck.obj(t, f"ratio_tolerances[{i}]", required=("pct", "why"), optional=("method", "variant", "params", "calibrated_from"))
        if not 0 < ck.number(t["pct"], f"ratio_tolerances[{i}].pct") < 100:
            ck.fail(f"ratio_tolerances[{i}].pct", "a tolerated loss in percent: more than 0, less than 100")
        ck.string(t["why"], f"ratio_tolerances[{i}].why")
        if "params" in t:
            ck.params(t["params"], f"ratio_tolerances[{i}].params")
        if "calibrated_from" in t:
            ck.strings(t["calibrated_from"], f"ratio_tolerances[{i}].calibrated_from")
        tolerances.append(t)
    for i, w in enumerate(d.get("warmup") or []):
        # A configuration's own warm-up, which plan.py names and the plugin gives its forks over the class's.
        ck.obj(w, f"warmup[{i}]", required=("method", "params", "iterations", "time", "why"))
        ck.string(w["method"], f"warmup[{i}].method")
        ck.params(w["params"], f"warmup[{i}].params")
        if isinstance(w["iterations"], bool) or not isinstance(w["iterations"], int) or w["iterations"] < 1:
            ck.fail(f"warmup[{i}].iterations", f"expected a positive whole number, got {w['iterations']!r}")
        if not isinstance(w["time"], str) or not WARMUP_TIME.fullmatch(w["time"]):
            ck.fail(f"warmup[{i}].time", f"expected JMH's form of a time, such as 2s or 500ms, got {w['time']!r}")
        ck.string(w["why"], f"warmup[{i}].why")
    if "min_trials" in d:
        # The fewest trials a default run gives each group of this technique (scripts/plan.py; docs/protocol.md).
        mt = ck.obj(d["min_trials"], "min_trials", required=("trials", "why"), optional=("methods",))
        methods = mt.get("methods", {})
        if not isinstance(methods, dict):
            ck.fail("min_trials.methods", "expected an object of method names to trials")
        for where, n in [("min_trials.trials", mt["trials"])] + [(f"min_trials.methods.{k}", v) for k, v in methods.items()]:
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                ck.fail(where, f"expected a positive whole number of trials, got {n!r}")
        ck.string(mt["why"], "min_trials.why")
    deps = ck.strings(d.get("dependencies") or [], "dependencies")
    # The window a gate fork measures where the gate's own (-Djmh.i x -Djmh.r of its pass) does not suit
    # the technique's figures: ci_plan.py gives it a gate pass of its own.
    # Its iterations and time, or neither: the classes' own (@Measurement), as the full runs measure them.
    if "gate_window" in d:
        w = ck.obj(d["gate_window"], "gate_window", required=("why",), optional=("iterations", "time"))
        if ("iterations" in w) != ("time" in w):
            ck.fail("gate_window", "give iterations and time together, or neither (the classes' own)")
        if "iterations" in w and (not isinstance(w["iterations"], int) or isinstance(w["iterations"], bool) or w["iterations"] < 1):
            ck.fail("gate_window.iterations", f"expected a positive whole number, got {w['iterations']!r}")
        if "time" in w and (not isinstance(w["time"], str) or not WARMUP_TIME.fullmatch(w["time"])):
            ck.fail("gate_window.time", f"expected JMH's form of a time, such as 4s or 100ms, got {w['time']!r}")
        ck.string(w["why"], "gate_window.why")
    # The shared code under src/main/java that the technique's code uses, a package (the PostgreSQL
    # launcher: "io.hotpathbench.postgres") or one class of another technique's package (G1's
    # "io.hotpathbench.cache.GcPauseLog"): a change there reaches exactly the techniques that list it.
    for name in ck.strings(d.get("uses") or [], "uses"):
        if not re.fullmatch(r"io\.hotpathbench(\.[a-z][a-z0-9_]*)+(\.[A-Z]\w*)?", name) or not (REPO / used_path(name)).exists():
            ck.fail("uses", f"{name!r} is no package or class under {SRC_JAVA.relative_to(REPO)}")
    return Technique(path.stem, path, d["title"], d["benchmark"], d["test"], d.get("variant_param", "variant"),
                     base, d.get("size_param"), pairs, metrics, deps, cited, answer, tolerances, published,
                     claims, targets, d.get("note", f"docs/{path.stem}.md"), d)


def load_suite(suite_file=None, techniques_dir=None) -> Suite:
    """The suite settings and every technique file, checked; claim ids are unique suite-wide."""
    path = Path(suite_file) if suite_file else SUITE_FILE
    ck = _Check(path)
    d = _read(path)
    ck.obj(d, "suite", required=("regression", "ci", "rule", "schedule"), optional=("breadth",))
    from .rule import check_rule, check_schedule
    check_rule(d["rule"], str(path))
    check_schedule(d["schedule"], str(path))
    reg = ck.obj(d["regression"], "regression",
                 optional=("two_commit_threshold_pct", "two_commit_threshold_why", "ratio_tolerance_pct",
                           "ratio_tolerance_calibrated_from", "ratio_tolerance_why"))
    for k in ("two_commit_threshold_pct", "ratio_tolerance_pct"):
        if k in reg:
            ck.number(reg[k], f"regression.{k}", positive=True)
    if "breadth" in d:
        from .breadth import check as check_breadth
        check_breadth(d["breadth"], str(path))
    ci = ck.obj(d["ci"], "ci", required=("passes",), optional=("pr", "scheduled", "instrument"))
    passes = {}
    for name, p in ci["passes"].items():
        ck.obj(p, f"ci.passes.{name}", required=("doc", "args"), optional=("gate", "judge", "unchanged"))
        if "gate" in p and not isinstance(p["gate"], bool):
            ck.fail(f"ci.passes.{name}.gate", "true for the pass that runs two commits side by side (-Djmh.gate), else leave it out")
        if "judge" in p:
            if not p.get("gate"):
                ck.fail(f"ci.passes.{name}.judge", "only the gate pass takes gate.py options")
            try:
                judging(ck.strings(p["judge"], f"ci.passes.{name}.judge"))
            except ValueError as e:
                ck.fail(f"ci.passes.{name}.judge", str(e))
        if p.get("gate") and "unchanged" not in p:
            ck.fail(f"ci.passes.{name}.unchanged", "the gate pass names the short two-commit run CI makes when the change reaches no gated technique")
        if "unchanged" in p:
            if not p.get("gate"):
                ck.fail(f"ci.passes.{name}.unchanged", "only the gate pass has a run for an unchanged tree")
            ck.strings(p["unchanged"], f"ci.passes.{name}.unchanged")
            if "\t" in "".join(p["unchanged"]):
                ck.fail(f"ci.passes.{name}.unchanged", "an argument holds a tab")
        ck.string(p["doc"], f"ci.passes.{name}.doc")
        ck.strings(p["args"], f"ci.passes.{name}.args")
        if "\t" in "".join(p["args"]):
            ck.fail(f"ci.passes.{name}.args", "an argument holds a tab")
        passes[name] = p
    tdir = Path(techniques_dir) if techniques_dir else TECHNIQUES_DIR
    files = sorted(tdir.glob("*.json")) if tdir.is_dir() else []
    if not files:
        raise InputError(f"{tdir}: no technique files (*.json)")
    techniques = [load_technique(f, passes) for f in files]
    seen = {}
    for t in techniques:
        if t.benchmark in seen:
            raise InputError(f"{t.path}: benchmark {t.benchmark} is also described by {seen[t.benchmark]}")
        seen[t.benchmark] = t.path
    for kind in ("claims", "cited", "published"):
        ids = {}
        for t in techniques:
            for c in (t.claims + t.targets if kind == "claims" else getattr(t, kind)):
                if c["id"] in ids:
                    raise InputError(f"{t.path}: {kind} id {c['id']!r} is also used in {ids[c['id']]}")
                ids[c["id"]] = t.path
    return Suite(path, reg, passes, techniques, d)


def metric_unit_ok(technique: Technique | None, name: str, unit: str) -> bool:
    """Whether a result's unit for `name` is one the scripts can judge: the declared one for a
    technique's own metric written by an aux counter ('#'), JMH's own for its gc metrics."""
    if name in ("primary", None, ""):
        return unit_kind(unit)[0] in ("rate", "time")
    if name in JMH_METRICS:
        return comparable(unit, JMH_METRICS[name]["unit"])
    info = technique.metrics.get(name) if technique else None
    return info is not None and (unit == "#" or unit == info["unit"])
