"""The lab's runs: a JMH result file (read by the product's hpb.model) or a pass summary, each as
an hpb.model.Run, and the runs a results folder holds.

A summary (`NAME.summary.json`, written by summarize.py) keeps of a raw run what any figure or study
of the lab uses, as hpb.model.load reads it: per configuration (benchmark, mode, params, a two-commit
run's side among them) its metrics' scores and intervals and, per fork, every metric's figure (the
mean of its measured iterations, or their sum for a metric JMH sums), the best iteration and the
iteration count of the primary score, and the spread of its iterations (sd of their logs); the
provenance without what the plugin computed on the way (its groups' members, cited figures and
running precision); the schedule, one row per fork; the pass
record (`NAME.pass.json`) when the run is a gate pass. What it leaves out is each iteration's value
and the plugin's running figures: `raw.commit` names the commit whose tree holds the raw files
(`git show COMMIT:PATH`).
"""
from __future__ import annotations

import json
import math
import statistics
import subprocess
from pathlib import Path

import labpath
from hpb.forks import fork_iterations
from hpb.model import BEST, Environment, InputError, Metric, Result, Run, host_cpu, load, machine_key, result_files

FORMAT = "hotpath-bench run summary 1"
SUFFIX = ".summary.json"
PASS_SUFFIX = ".pass.json"
# Beside hpb.model's BEST and ITERATIONS: each fork's spread of its iterations, the sd of their logs
# (None for a fork of fewer than two), which fork_spread.py reads.
WITHIN = "@withinLogSd"
# The provenance's parts a summary leaves out: each group's members and the cited figures in it
# (the schedule and the results say them again) and the plugin's running precision figures; the
# schedule is kept as rows of its own.
DROPPED = {"": (), "jmh": (), "trials": ("schedule",), "group": ("members", "cited", "precision")}


def is_summary(path) -> bool:
    return Path(path).name.endswith(SUFFIX)


def raw_name(path) -> str:
    """The raw result file's name a run goes by (a summary's run's)."""
    name = Path(path).name
    return name[: -len(SUFFIX)] + ".json" if name.endswith(SUFFIX) else name


# ---------------------------------------------------------------- reading

def load_run(path, within: bool = False) -> Run:
    """A run from a summary or a raw JMH result file (with its provenance); within adds each fork's
    spread of iterations (WITHIN) to a raw run's results, as a summary has it."""
    path = Path(path)
    if is_summary(path):
        return load_summary(path)
    run = load(path)
    if within:
        add_within(run)
    return run


def add_within(run: Run) -> None:
    """Each result's per-fork sd of the logs of its measured iterations, from the raw file's rawData."""
    try:
        data = json.loads(run.path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"{run.path}: cannot read ({e.__class__.__name__})")
    for res, r in zip(run.results, data):
        if res.mode in ("thrpt", "avgt"):
            res.fork_values[WITHIN] = tuple(log_sd(f) for f in fork_iterations(r["primaryMetric"].get("rawData")))


def log_sd(values: list):
    """The sd of the values' logs, None for fewer than two or any value not positive."""
    if len(values) < 2 or any(not (v > 0 and math.isfinite(v)) for v in values):
        return None
    return statistics.stdev(math.log(v) for v in values)


def _num(x):
    if x is None:
        return math.nan
    if isinstance(x, str):
        return {"Infinity": math.inf, "-Infinity": -math.inf}[x]
    return x


def _metric(m) -> Metric:
    score, lo, hi, unit = m
    return Metric(_num(score), _num(lo), _num(hi), unit)


def load_summary(path) -> Run:
    """The run a summary keeps, as hpb.model.Run: results, per-fork figures, trials, provenance with its
    schedule. Named as its raw file was, so that what a study prints of it is what it printed of that."""
    path = Path(path)
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
        if d.get("format") != FORMAT:
            raise InputError(f"{path}: not a run summary of this lab (format {d.get('format')!r}, expected {FORMAT!r})")
        prov = d.get("provenance")
        if prov is not None:
            prov = json.loads(json.dumps(prov))
            if d.get("schedule") is not None:
                prov.setdefault("trials", {})["schedule"] = [
                    _schedule_entry(d["results"][i], row) for i, *row in d["schedule"]]
        cpu, host = host_cpu(prov), machine_key(prov)
        envs = [Environment(jdk, vm, vmv, tuple(args), cpu, host) for jdk, vm, vmv, args in d["envs"]]
        trials = _trials(d)
        results = []
        for i, r in enumerate(d["results"]):
            per_fork = {k: tuple(_num(x) if k != WITHIN else x for x in v) for k, v in r["perFork"].items()}
            results.append(Result(r["benchmark"], r["mode"], dict(r["params"]), _metric(r["primary"]),
                                  {k: _metric(m) for k, m in r["secondary"].items()}, r["threads"], r["forks"],
                                  envs[r["env"]], str(path), per_fork, trials.get(i, ()), tuple(r["warmup"])))
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read the summary ({e.__class__.__name__})")
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        raise InputError(f"{path}: a malformed summary ({e.__class__.__name__}: {e})")
    return Run(path.with_name(d["run"]), results, prov)


def _schedule_entry(r: dict, row: list) -> dict:
    fork, trial, group, order, started, seconds = row
    params = {k: v for k, v in r["params"].items() if k != "side"}
    return {"trial": trial, "group": group, "order": order, "benchmark": r["benchmark"], "mode": r["mode"],
            "params": params, "side": r["params"].get("side"), "fork": fork, "startedUtc": started, "seconds": seconds}


def _trials(d: dict) -> dict:
    """result index -> the trial of each fork, in fork order (as hpb.model reads a schedule)."""
    if (d.get("provenance") or {}).get("protocol") != "trials":
        return {}
    out = {}
    for i, fork, trial, *_ in d.get("schedule") or []:
        out.setdefault(i, []).append((fork, trial))
    return {i: tuple(t for _, t in sorted(v)) for i, v in out.items()}


def pass_record(path) -> dict | None:
    """The gate pass record (gate_pass.py) of a run: a summary's own, or the NAME.pass.json beside a raw file."""
    path = Path(path)
    if is_summary(path):
        try:
            return json.loads(path.read_text(encoding="utf-8")).get("pass")
        except (OSError, ValueError) as e:
            raise InputError(f"{path}: cannot read the summary ({e.__class__.__name__})")
    rec = path.with_name(path.name[: -len(".json")] + PASS_SUFFIX)
    if not rec.is_file():
        return None
    try:
        return json.loads(rec.read_text(encoding="utf-8"))
    except ValueError as e:
        raise InputError(f"{rec}: not valid JSON ({e})")


def run_files(folder) -> list:
    """Every run a results folder holds, oldest first: its summaries and the raw result files that
    have none (hpb.model.result_files without the summaries)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    summaries = sorted(folder.glob("2*" + SUFFIX))
    have = {raw_name(p) for p in summaries}
    raw = [p for p in result_files(folder) if not is_summary(p) and p.name not in have]
    return sorted(summaries + raw, key=lambda p: raw_name(p))


# ---------------------------------------------------------------- writing

def _enc(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    return x


def _metric_out(m: Metric) -> list:
    return [_enc(m.score), _enc(m.lo), _enc(m.hi), m.unit]


def slim_provenance(prov: dict | None) -> dict | None:
    """The provenance a summary keeps (DROPPED left out; the schedule is kept apart)."""
    if prov is None:
        return None
    out = {k: v for k, v in prov.items() if k not in DROPPED[""]}
    if isinstance(out.get("jmh"), dict):
        out["jmh"] = {k: v for k, v in out["jmh"].items() if k not in DROPPED["jmh"]}
    if isinstance(out.get("trials"), dict):
        t = {k: v for k, v in out["trials"].items() if k not in DROPPED["trials"]}
        if isinstance(t.get("groups"), list):
            t["groups"] = [{k: v for k, v in g.items() if k not in DROPPED["group"]} for g in t["groups"]]
        out["trials"] = t
    return out


def summary_of(run: Run, raw: dict, record: dict | None) -> dict:
    """A run (load_run(..., within=True)) as its summary; raw says where its raw files can be read."""
    envs, results, index = [], [], {}
    for i, r in enumerate(run.results):
        env = [r.env.jdk, r.env.vm, r.env.vm_version, list(r.env.jvm_args)]
        if env not in envs:
            envs.append(env)
        index[(r.benchmark, r.mode, tuple(sorted({k: v for k, v in r.params.items() if k != "side"}.items())),
               r.params.get("side"))] = i
        results.append({"benchmark": r.benchmark, "mode": r.mode, "params": r.params, "threads": r.threads,
                        "forks": r.forks, "env": envs.index(env), "warmup": list(r.warmup),
                        "primary": _metric_out(r.primary),
                        "secondary": {k: _metric_out(m) for k, m in r.secondary.items()},
                        "perFork": {k: [_enc(x) for x in v] for k, v in r.fork_values.items()}})
    out = {"format": FORMAT, "run": run.name, "raw": raw, "pass": record,
           "provenance": slim_provenance(run.provenance), "envs": envs, "results": results}
    sched = ((run.provenance or {}).get("trials") or {}).get("schedule")
    if isinstance(sched, list):
        rows = []
        for e in sched:
            params = tuple(sorted((k, str(v)) for k, v in (e.get("params") or {}).items()))
            i = index.get((e.get("benchmark"), e.get("mode"), params, e.get("side")))
            if i is None:
                raise InputError(f"{run.path}: the schedule names {e.get('benchmark')} {dict(params)} "
                                 f"{e.get('side') or ''}, which the results lack")
            rows.append([i, e["fork"], e["trial"], e["group"], e["order"], e["startedUtc"], e["seconds"]])
        out["schedule"] = rows
    return out


def dumps(summary: dict) -> str:
    """Compact JSON: no indentation, one line."""
    return json.dumps(summary, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"


def git_commit_of(path: Path) -> str | None:
    """The last commit whose tree holds this file as it is now, or None when git has it otherwise or not at all."""
    repo = labpath.REPO
    try:
        rel = path.resolve().relative_to(repo)
    except ValueError:
        return None
    log = subprocess.run(["git", "log", "-1", "--format=%H", "--", str(rel)], cwd=repo, capture_output=True, text=True)
    commit = log.stdout.strip()
    if log.returncode != 0 or not commit:
        return None
    same = subprocess.run(["git", "diff", "--quiet", commit, "--", str(rel)], cwd=repo, capture_output=True)
    return commit if same.returncode == 0 else None


# ---------------------------------------------------------------- checking

def _same(x, y) -> bool:
    """Equal, NaN equal to NaN, tuples and lists alike."""
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
        return True
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, Metric) and isinstance(y, Metric):
        return _same([x.score, x.lo, x.hi, x.unit], [y.score, y.lo, y.hi, y.unit])
    return type(x) is type(y) and x == y


def differences(raw: Run, summary: Run) -> list:
    """What a summary's run gives otherwise than its raw run (load_run(..., within=True)): [] when every
    result, per-fork figure, trial and kept part of the provenance, the schedule among them, is the same."""
    out = []
    if raw.name != summary.name:
        out.append(f"named {summary.name}, not {raw.name}")
    want = slim_provenance(raw.provenance)
    if want is not None and ((raw.provenance.get("trials") or {}).get("schedule")) is not None:
        want["trials"]["schedule"] = raw.provenance["trials"]["schedule"]
    if not _same(want, summary.provenance):
        out.append("provenance")
    if len(raw.results) != len(summary.results):
        return out + [f"{len(summary.results)} results, not {len(raw.results)}"]
    for a, b in zip(raw.results, summary.results):
        for field in ("benchmark", "mode", "params", "threads", "forks", "env", "primary", "secondary",
                      "fork_values", "trials", "warmup"):
            if not _same(getattr(a, field), getattr(b, field)):
                out.append(f"{a.benchmark} {a.params}: {field}")
    return out
