"""The suite's settings (scripts/suite.json) and one file per technique (scripts/techniques/<id>.json),
loaded and checked: bad input (unknown keys, wrong types, duplicate ids, undeclared metrics, unknown CI
passes) is an InputError of one line. A technique's file says everything the scripts need about it (title,
benchmark class, variant param and baseline, its own metrics, cited figures, published claims, CI claims
and targets, extra warm-up, gate window, shared code it `uses`, `min_trials`): adding a technique is
adding such a file. Its keys are the ones load_technique names below.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .model import REPO, SCRIPTS_DIR, InputError, comparable, unit_kind

SUITE_FILE = SCRIPTS_DIR / "suite.json"
TECHNIQUES_DIR = SCRIPTS_DIR / "techniques"

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


class _Check:
    """One file's checks, each failure an InputError naming the file and the place. A check takes (value,
    place); `metrics` are the technique's own, which a metric may name."""

    def __init__(self, path: Path):
        self.path, self.metrics = path, {}

    def fail(self, where: str, msg: str):
        raise InputError(f"{self.path}: {where}: {msg}")

    def obj(self, v, where: str, required=(), optional=(), **checks) -> dict:
        """v, an object of the keys `required`, `optional`, `checks` or `_`-prefixed; those of `checks` in order."""
        if not isinstance(v, dict):
            self.fail(where, "expected an object")
        allowed = {*required, *optional, *checks}
        for k in v:
            if k not in allowed and not k.startswith("_"):
                self.fail(where, f"unknown key {k!r} (known: {', '.join(sorted(allowed))})")
        for k in required:
            if k not in v:
                self.fail(where, f"missing {k!r}")
        self.keys(v, where, **checks)
        return v

    def keys(self, v: dict, where: str, **checks):
        for k, check in checks.items():
            if k in v:
                check(v[k], f"{where}.{k}")

    def ided(self, v, where: str, required, optional=(), **checks) -> str:
        """v as an object with an id; the place of its other keys (checks' too), named with the id."""
        self.obj(v, where, ("id", *required), (*optional, *checks))
        self.string(v["id"], f"{where}.id")
        where = f"{where} ({v['id']})"
        self.keys(v, where, **checks)
        return where

    def string(self, v, where: str):
        if not isinstance(v, str) or not v.strip():
            self.fail(where, "expected a non-empty string")

    def string_values(self, d: dict, where: str):
        for k, v in d.items():
            self.string(v, f"{where}.{k}")

    def number(self, v, where: str, positive=False) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
            self.fail(where, f"expected a finite number, got {v!r}"[:120])
        if positive and v <= 0:
            self.fail(where, f"expected a positive number, got {v!r}")
        return float(v)

    def positive(self, v, where: str):
        self.number(v, where, positive=True)

    def bounded(self, ok, msg: str):
        def check(v, where):
            if not ok(self.number(v, where)):
                self.fail(where, msg)
        return check

    def one_of(self, *allowed):
        def check(v, where):
            if v not in allowed:
                self.fail(where, f"must be {' or '.join(allowed)}")
        return check

    def whole(self, v, where: str, what="a positive whole number"):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            self.fail(where, f"expected {what}, got {v!r}")

    def time(self, example: str):
        def check(v, where):
            if not isinstance(v, str) or not WARMUP_TIME.fullmatch(v):
                self.fail(where, f"expected JMH's form of a time, such as {example}, got {v!r}")
        return check

    def strings(self, v, where: str) -> list:
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            self.fail(where, "expected a list of strings")
        return v

    def arguments(self, v, where: str):
        """A command line's arguments: strings, none holding a tab (ci_plan.py's output is tab-separated)."""
        if "\t" in "".join(self.strings(v, where)):
            self.fail(where, "an argument holds a tab")

    def params(self, v, where: str):
        """name -> value, [values], or "max"/"min" (the largest/smallest value present)."""
        if not isinstance(v, dict):
            self.fail(where, "expected an object of param names to values")
        for k, x in v.items():
            if isinstance(x, list):
                if not x or not all(isinstance(y, str) for y in x):
                    self.fail(f"{where}.{k}", "expected a non-empty list of strings")
            elif not isinstance(x, str):
                self.fail(f"{where}.{k}", "expected a string or a list of strings")

    def metric(self, name, where: str):
        self.string(name, where)
        if name != "primary" and name not in self.metrics and name not in JMH_METRICS:
            self.fail(where, f"unknown metric {name!r} (declare it under 'metrics' or use primary or one of "
                             f"{', '.join(sorted(JMH_METRICS))})")

    def selector(self, v, where: str):
        self.obj(v, where, benchmark=self.string, method=self.string, mode=self.string, params=self.params)


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
        return self.baseline.get(method) if isinstance(self.baseline, dict) else self.baseline

    def method_pair(self, method: str) -> dict | None:
        """The method pair `method` belongs to (as its baseline or one of its methods), if any."""
        return next((mp for mp in self.method_pairs if method == mp["baseline"] or method in mp["methods"]), None)

    def env_jvm_args(self, r, results) -> tuple:
        """r's JVM options that describe its environment. Where the method pairs are JVM-flag variants
        (`jvm_args_vary_by_method`), the options the pair methods' forks in `results` do not all share are left out."""
        if not self.raw.get("jvm_args_vary_by_method") or not self.method_pair(r.method):
            return tuple(r.env.jvm_args)
        sets = [set(x.env.jvm_args) for x in results if x.cls == self.benchmark and self.method_pair(x.method)]
        own = set().union(*sets) - set.intersection(*sets)
        return tuple(a for a in r.env.jvm_args if a not in own)

    def min_trials(self, method: str) -> int | None:
        """The fewest trials a default run gives a group of `method` (its method's own where named); None: unset."""
        spec = self.raw.get("min_trials")
        return (spec.get("methods") or {}).get(method, spec["trials"]) if spec else None

    def metric_info(self, name: str) -> dict | None:
        if name in ("primary", None, ""):
            return {"unit": None}
        return self.metrics.get(name) or JMH_METRICS.get(name)

    def deterministic(self, name: str) -> bool:
        return bool((self.metric_info(name) or {}).get("deterministic"))

    def named(self, name: str, m):
        """The metric with its declared unit where JMH wrote only '#': '18 s/min' reads better than '18 #'."""
        info = self.metric_info(name) or {}
        if m is not None and m.unit == "#" and info.get("unit"):
            return replace(m, unit=info["unit"])
        return m

    def resolution(self, r, name: str) -> float | None:
        """The declared resolution of metric `name` for result r: its bytes over r's param that divides them."""
        res = (self.metric_info(name) or {}).get("resolution")
        try:
            per = float(r.params.get(res["per_param"], "nan")) if res else 0.0
        except ValueError:
            return None
        return res["bytes"] / per if per > 0 else None

    def measured(self, r, name: str):
        """r's metric `name` with its declared unit and, for a declared resolution, an interval that covers it: a
        heap figure is one measurement per fork copied into every iteration, so its error is the resolution's."""
        m = self.named(name, r.metric(name))
        d = self.resolution(r, name)
        if m is None or d is None:
            return m
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
        return next((t for t in self.techniques if t.benchmark == cls), None)

    def by_id(self, tid: str) -> Technique | None:
        return next((t for t in self.techniques if t.id == tid), None)

    def all_claims(self):
        """(technique, claim, enforced) for every CI claim and every target."""
        for t in self.techniques:
            yield from ((t, c, True) for c in t.claims)
            yield from ((t, c, False) for c in t.targets)


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


def _claim(ck: _Check, c, where: str, passes: dict, ci: bool):
    where = ck.ided(c, where, ("variant", "baseline", "ci") if ci else ("variant", "baseline"),
                    (*RATIO_KEYS, "point_score", "why", "ci"), variant=ck.string, baseline=ck.string,
                    method=ck.string, benchmark=ck.string, metric=ck.metric, baseline_metric=ck.metric,
                    params=ck.params)
    bars = [k for k in RATIO_KEYS if k in c]
    if len(bars) != 1:
        ck.fail(where, f"needs exactly one of {', '.join(RATIO_KEYS)}")
    ck.number(c[bars[0]], f"{where}.{bars[0]}", positive=True)
    ck.keys(c, where, point_score=ck.string, why=ck.string, ci=ck.string)
    if "ci" in c:
        if c["ci"] not in passes:
            ck.fail(f"{where}.ci", f"no CI pass {c['ci']!r} in {SUITE_FILE.name} "
                                   f"(passes: {', '.join(sorted(passes))})")
        gain = "min_speedup" in c and c.get("metric", "primary") == "primary"
        if passes[c["ci"]].get("gate") and not gain:
            ck.fail(f"{where}.ci", f"the two-commit pass {c['ci']!r} judges gains (min_speedup on the primary "
                                   "score) only")


def _published(ck: _Check, p, where: str):
    where = ck.ided(p, where, ("claim", "published"), ("measure", "not_comparable", "why", "source"),
                    claim=ck.string, published=ck.positive,
                    tolerance=ck.bounded(lambda x: x >= 1, "must be at least 1 (a factor)"),
                    cpu_share=ck.bounded(lambda x: 0 < x < 1, "must lie between 0 and 1"))
    if ("measure" in p) == ("not_comparable" in p):
        ck.fail(where, "needs either a measure or, for a figure ours cannot be set against, not_comparable "
                       "(the reason)")
    if "not_comparable" in p:
        ck.string(p["not_comparable"], f"{where}.not_comparable")
        return
    ck.obj(p["measure"], f"{where}.measure", ("kind", "after", "before"), kind=ck.one_of("speedup", "ratio"),
           metric=ck.metric, after=ck.selector, before=ck.selector)
    if "why" in p:
        why = ck.obj(p["why"], f"{where}.why", optional=("agrees", "higher", "lower", "inconclusive"))
        ck.string_values(why, f"{where}.why")


def _cited(ck: _Check, c, where: str):
    def one_configuration(v, where):
        ck.params(v, where)
        for k, x in v.items():
            if isinstance(x, list) or x in ("max", "min"):
                ck.fail(f"{where}.{k}", "a cited figure names one configuration: give one value")
    ck.ided(c, where, ("method", "variant", "baseline", "label"), method=ck.string, variant=ck.string,
            baseline=ck.string, label=ck.string, metric=ck.metric, params=one_configuration,
            kind=ck.one_of("speedup", "ratio"))


JUDGING = {"--undecided": ("undecided", ("fail", "warn")), "--fork-figure": ("fork_figure", ("mean", "best")),
           "--strict": ("strict", None)}


def judging(opts: list) -> dict:
    """gate.py's options for a two-commit run, as CI's gate pass names them (ci.passes.gate.judge): {'undecided':
    'fail'|'warn', 'fork_figure': 'mean'|'best', 'strict': frozenset of claim ids}, gate.py's defaults where not
    given (--strict: the gain claims whose undecided checks fail even under --undecided warn); ValueError on others."""
    out = {"undecided": "fail", "fork_figure": "mean", "strict": frozenset()}
    it = iter(opts)
    for o in it:
        if o not in JUDGING:
            raise ValueError(f"{o!r} is not a gate.py option for a two-commit run (known: {', '.join(JUDGING)})")
        (key, allowed), v = JUDGING[o], next(it, None)
        ids = [x.strip() for x in (v or "").split(",")]
        if allowed is None and (v is None or not all(ids)):
            raise ValueError(f"{o} takes comma-separated claim ids, not {v!r}")
        if allowed is not None and v not in allowed:
            raise ValueError(f"{o} takes one of {', '.join(allowed)}, not {v!r}")
        out[key] = frozenset(ids) if allowed is None else v
    return out


def _metrics(ck: _Check, d: dict) -> dict:
    for name, info in (d.get("metrics") or {}).items():
        where = f"metrics.{name}"
        ck.obj(info, where, ("unit", "better", "doc"), ("deterministic", "resolution"), unit=ck.string,
               better=ck.one_of("lower", "higher"))
        if "resolution" in info:
            ck.obj(info["resolution"], f"{where}.resolution", ("bytes", "per_param", "why"), bytes=ck.positive,
                   per_param=ck.string, why=ck.string)
            if info["unit"] != "bytes":
                ck.fail(f"{where}.resolution", "a resolution in bytes needs a metric whose unit is bytes")
    ck.metrics = dict(d.get("metrics") or {})
    return ck.metrics


def _schedule_keys(ck: _Check, d: dict):
    """ratio_tolerances, warmup (a configuration's own, which the plugin gives its forks over the class's)
    and min_trials (scripts/plan.py; docs/protocol.md)."""
    for i, t in enumerate(d.get("ratio_tolerances") or []):
        ck.obj(t, f"ratio_tolerances[{i}]", ("pct", "why"), ("method", "variant"),
               pct=ck.bounded(lambda x: 0 < x < 100, "a tolerated loss in percent: more than 0, less than 100"),
               why=ck.string, params=ck.params, calibrated_from=ck.strings)
    for i, w in enumerate(d.get("warmup") or []):
        ck.obj(w, f"warmup[{i}]", ("method", "params", "iterations", "time", "why"), method=ck.string,
               params=ck.params, iterations=ck.whole, time=ck.time("2s or 500ms"), why=ck.string)
    if "min_trials" in d:
        mt = ck.obj(d["min_trials"], "min_trials", required=("trials", "why"), optional=("methods",))
        if not isinstance(mt.get("methods", {}), dict):
            ck.fail("min_trials.methods", "expected an object of method names to trials")
        for k, v in [("trials", mt["trials"]), *((f"methods.{m}", n) for m, n in mt.get("methods", {}).items())]:
            ck.whole(v, f"min_trials.{k}", "a positive whole number of trials")
        ck.string(mt["why"], "min_trials.why")


def load_technique(path: Path, passes: dict) -> Technique:
    ck = _Check(path)
    d = ck.obj(_read(path), "technique", ("title", "benchmark", "test", "baseline"),
               ("variant_param", "size_param", "method_pairs", "metrics", "dependencies", "cited", "answer",
                "ratio_tolerances", "published", "claims", "targets", "note", "warmup", "uses", "min_trials",
                "jvm_args_vary_by_method", "gate_window"))
    ck.string(d["title"], "title")
    ck.string(d["benchmark"], "benchmark")
    if "." not in d["benchmark"]:
        ck.fail("benchmark", "expected a fully qualified class name")
    ck.string(d["test"], "test")
    base = d["baseline"]  # a variant, or {method: variant}
    (ck.string_values if isinstance(base, dict) else ck.string)(base, "baseline")
    metrics = _metrics(ck, d)
    if "jvm_args_vary_by_method" in d and (not isinstance(d["jvm_args_vary_by_method"], bool)
                                           or not d.get("method_pairs")):
        ck.fail("jvm_args_vary_by_method", "true for a technique whose method pairs differ by their @Fork JVM flags "
                                           "(method_pairs needed), else leave it out")
    pairs = d.get("method_pairs") or []
    for i, mp in enumerate(pairs):
        ck.obj(mp, f"method_pairs[{i}]", ("baseline", "methods"), baseline=ck.string, methods=ck.strings)
    seen: dict = {}

    def checked(kind, check, *args):
        """Each entry of d[kind], checked, its id unique among its kind (claims and targets are one kind)."""
        ids = seen.setdefault(kind.replace("targets", "claims"), set())
        for i, x in enumerate(d.get(kind) or []):
            check(ck, x, f"{kind}[{i}]", *args)
            if x["id"] in ids:
                ck.fail(f"{kind}[{i}]", f"duplicate id {x['id']!r}")
            ids.add(x["id"])
        return list(d.get(kind) or [])

    passes = passes or {}
    claims = checked("claims", _claim, passes, True)
    targets = checked("targets", _claim, passes, False)
    published = checked("published", _published)
    cited = checked("cited", _cited)
    answer = d.get("answer") or {}
    if answer:
        ck.obj(answer, "answer", required=("cite", "pick"), optional=("verdict",))
        if answer["cite"] not in {c["id"] for c in cited}:
            ck.fail("answer.cite", f"no cited figure {answer['cite']!r}")
        ck.string(answer["pick"], "answer.pick")
    _schedule_keys(ck, d)
    deps = ck.strings(d.get("dependencies") or [], "dependencies")
    # The window a gate fork measures where the gate pass's -Djmh.i x -Djmh.r does not suit the figures
    # (ci_plan.py gives it a gate pass of its own); neither iterations nor time: the classes' own @Measurement.
    if "gate_window" in d:
        w = ck.obj(d["gate_window"], "gate_window", ("why",), ("iterations", "time"))
        if ("iterations" in w) != ("time" in w):
            ck.fail("gate_window", "give iterations and time together, or neither (the classes' own)")
        ck.keys(w, "gate_window", iterations=ck.whole, time=ck.time("4s or 100ms"), why=ck.string)
    # Shared code under src/main/java the technique uses, a package ("io.hotpathbench.postgres") or another
    # technique's class ("io.hotpathbench.cache.GcPauseLog"): a change there reaches the techniques listing it.
    for name in ck.strings(d.get("uses") or [], "uses"):
        if (not re.fullmatch(r"io\.hotpathbench(\.[a-z][a-z0-9_]*)+(\.[A-Z]\w*)?", name)
                or not (REPO / used_path(name)).exists()):
            ck.fail("uses", f"{name!r} is no package or class under src/main/java")
    return Technique(path.stem, path, d["title"], d["benchmark"], d["test"], d.get("variant_param", "variant"),
                     base, d.get("size_param"), list(pairs), metrics, deps, cited, answer,
                     list(d.get("ratio_tolerances") or []), published, claims, targets,
                     d.get("note", f"docs/{path.stem}.md"), d)


def _ci_pass(ck: _Check, name: str, p):
    where = f"ci.passes.{name}"
    ck.obj(p, where, required=("doc", "args"), optional=("gate", "judge", "unchanged"))
    if "gate" in p and not isinstance(p["gate"], bool):
        ck.fail(f"{where}.gate", "true for the pass that runs two commits side by side (-Djmh.gate), else leave it out")
    if "judge" in p:
        if not p.get("gate"):
            ck.fail(f"{where}.judge", "only the gate pass takes gate.py options")
        try:
            judging(ck.strings(p["judge"], f"{where}.judge"))
        except ValueError as e:
            ck.fail(f"{where}.judge", str(e))
    if p.get("gate") and "unchanged" not in p:
        ck.fail(f"{where}.unchanged", "the gate pass names the short two-commit run CI makes when the change "
                                      "reaches no gated technique")
    if "unchanged" in p:
        if not p.get("gate"):
            ck.fail(f"{where}.unchanged", "only the gate pass has a run for an unchanged tree")
        ck.arguments(p["unchanged"], f"{where}.unchanged")
    ck.keys(p, where, doc=ck.string, args=ck.arguments)


def load_suite(suite_file=None, techniques_dir=None) -> Suite:
    """The suite settings and every technique file, checked; claim ids are unique suite-wide."""
    path = Path(suite_file) if suite_file else SUITE_FILE
    ck = _Check(path)
    d = ck.obj(_read(path), "suite", required=("regression", "ci", "rule", "schedule"), optional=("breadth",))
    from .rule import check_rule, check_schedule
    check_rule(d["rule"], str(path))
    check_schedule(d["schedule"], str(path))
    reg = ck.obj(d["regression"], "regression",
                 optional=("two_commit_threshold_why", "ratio_tolerance_calibrated_from", "ratio_tolerance_why"),
                 two_commit_threshold_pct=ck.positive, ratio_tolerance_pct=ck.positive)
    if "breadth" in d:
        from .breadth import check as check_breadth
        check_breadth(d["breadth"], str(path))
    ci = ck.obj(d["ci"], "ci", required=("passes",), optional=("pr", "scheduled", "instrument"))
    for name, p in ci["passes"].items():
        _ci_pass(ck, name, p)
    passes = dict(ci["passes"])
    tdir = Path(techniques_dir) if techniques_dir else TECHNIQUES_DIR
    files = sorted(tdir.glob("*.json"))
    if not files:
        raise InputError(f"{tdir}: no technique files (*.json)")
    techniques = [load_technique(f, passes) for f in files]
    for i, t in enumerate(techniques):
        if other := next((u for u in techniques[:i] if u.benchmark == t.benchmark), None):
            raise InputError(f"{t.path}: benchmark {t.benchmark} is also described by {other.path}")
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
