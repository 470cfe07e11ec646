"""Which runs are evidence of which code: full runs of the same benchmark code in one environment form a pool.

A *full run* ran the benchmarks with their classes' own settings: its provenance records no option that
changes forks, iterations, times or params. A run without provenance is judged only when named explicitly.
A technique's *benchmark code* at a commit is a fingerprint of what its numbers depend on, read from git at
the run's commit: the Java of its package, of what it `uses` and of the shared classes it imports, without
comments and blank space (a Javadoc change measures nothing) or @Fork's count (a trials run forks once per
trial whatever it says); its libraries' versions and JMH's. A run from a dirty tree has no known code and
is never pooled with another.
"""
from __future__ import annotations

import hashlib
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache, partial

from .config import used_path
from .model import REPO, Environment, Run

# options that leave every fork's settings as the class wrote them (what runs, where, on which JVM, which trials)
ENV_OPTIONS = {"jmh.include", "jmh.exclude", "jmh.jdk", "jmh.jvm", "jmh.jvmArgs", "jmh.jvmArgsAppend",
               "jmh.jvmArgsPrepend", "jmh.prof", "jmh.resultsDir", "jmh.budget", "jmh.trials", "jmh.seed"}
SHARED_IMPORT = re.compile(r"^import io\.hotpathbench\.([A-Z]\w*);", re.M)
# the first trial engine revision (the plugin's TrialRun.ENGINE) figures may rest on: revision 1 changed what
# it measured; a later one counts until shown to, so a new revision does not void the runs made before it
TRIALS_ENGINE = 2


def full_run(run: Run) -> tuple[bool, str]:
    p = run.provenance
    if not p:
        return False, "no provenance beside it"
    if p.get("status") not in (None, "complete"):
        return False, f"status {p.get('status')}"
    if run.protocol == "trials" and run.trials_engine < TRIALS_ENGINE:
        return False, ("trial engine 1, whose noise profiler ran java.util.regex in every fork and slowed "
                       "the benchmarks that use regex (String.split at \"||\": 1.07 instead of 1.69 ops/us): history")
    props = ((p.get("jmh") or {}).get("mavenProperties") or {})
    changed = sorted(k for k in props if k not in ENV_OPTIONS)
    if changed:
        return False, "run with " + ", ".join(f"-D{k}" for k in changed)
    return True, ""


_FORK_COUNT = re.compile(r"(@Fork\(\s*)(?:value\s*=\s*)?\d+\s*(?:,\s*)?|,\s*value\s*=\s*\d+(?=[\s,)])")
_COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/|("(?:\\.|[^"\\])*")|(\'(?:\\.|[^\'\\])*\')', re.S)


def normalize_java(text: str) -> str:
    """Java source without comments, blank space collapsed (string and char literals kept)."""
    text = _COMMENT.sub(lambda m: m.group(1) or m.group(2) or " ", text)
    return re.sub(r"\s+", " ", text).strip()


def measured_java(text: str) -> str:
    """normalize_java without @Fork's fork count."""
    return _FORK_COUNT.sub(lambda m: m.group(1) or "", normalize_java(text))


def _git(*args) -> str | None:
    try:
        p = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout if p.returncode == 0 else None


@lru_cache(maxsize=None)
def _tree_files(commit: str, path: str) -> tuple:
    out = _git("ls-tree", "-r", "--name-only", commit, "--", path)
    return tuple(sorted(out.split())) if out else ()


@lru_cache(maxsize=None)
def _show(commit: str, path: str) -> str | None:
    return _git("show", f"{commit}:{path}")


def _read_worktree(path: str) -> str | None:
    f = REPO / path
    return f.read_text(encoding="utf-8") if f.is_file() else None


def _worktree_files(path: str) -> tuple:
    d = REPO / path
    if d.is_file():
        return (path,)
    return tuple(sorted(str(f.relative_to(REPO)) for f in d.rglob("*") if f.is_file()))


def _pom_versions(pom: str, dependencies: list) -> list:
    """'group:artifact=version' for each listed dependency and JMH, ${properties} resolved."""
    props = dict(re.findall(r"<([A-Za-z0-9_.-]+)>([^<]*)</\1>", pom.split("<properties>", 1)[1].split("</properties>", 1)[0])) \
        if "<properties>" in pom else {}
    out = [f"jmh={props.get('jmh.version', '?')}"]
    for dep in dependencies:
        group, artifact = dep.split(":", 1)
        m = re.search(rf"<groupId>{re.escape(group)}</groupId>\s*<artifactId>{re.escape(artifact)}</artifactId>\s*<version>([^<]+)</version>", pom)
        v = m.group(1) if m else "absent"
        v = re.sub(r"\$\{([^}]+)\}", lambda x: props.get(x.group(1), x.group(0)), v)
        out.append(f"{dep}={v}")
    return out


def fingerprint(technique, commit: str | None) -> str | None:
    """The technique's benchmark code at `commit` (None: the working tree), or None when unknown."""
    pkg = technique.package_dir
    dirs = (f"src/main/java/{pkg}", f"src/jmh/java/{pkg}",
            *(used_path(u) for u in technique.raw.get("uses") or []))
    if commit is not None and _git("cat-file", "-e", f"{commit}^{{commit}}") is None:
        return None
    ls, read = ((_worktree_files, _read_worktree) if commit is None
                else (partial(_tree_files, commit), partial(_show, commit)))
    texts = {f: read(f) for d in dirs for f in ls(d)}
    # the suite's shared classes (BenchmarkDefaults, EventShares, Heap, ...) that this code imports
    shared = sorted({name for t in texts.values() if t for name in SHARED_IMPORT.findall(t)})
    for f in (f"{root}/io/hotpathbench/{name}.java" for name in shared for root in ("src/jmh/java", "src/main/java")):
        texts[f] = read(f)
    bodies = {f: measured_java(x) if f.endswith(".java") else x for f, x in sorted(texts.items()) if x is not None}
    pom = read("pom.xml")
    if not bodies or pom is None:
        return None
    data = b"".join(f.encode() + b"\0" + body.encode() + b"\0" for f, body in bodies.items())
    data += b"".join(line.encode() + b"\0" for line in _pom_versions(pom, technique.dependencies))
    return hashlib.sha256(data).hexdigest()[:12]


def run_code(technique, run: Run) -> str | None:
    """The fingerprint of the code a run measured, None when it cannot be known."""
    return fingerprint(technique, run.commit) if run.commit and not run.dirty else None


@dataclass
class Pool:
    """Full runs of one technique's code in one environment."""
    technique: object
    code: str | None
    env: Environment  # without host and cpu
    runs: list  # [(Run, [Result of this technique])]


def pools(runs: list, suite, require_full=True) -> list:
    """The runs' results per (technique, benchmark code, environment); with require_full (the report pooling
    results/) only full runs count, while files a user names are taken as given."""
    out: dict = {}
    for run in runs:
        if require_full and not full_run(run)[0]:
            continue
        for t in suite.techniques:
            rs = [r for r in run.results if r.cls == t.benchmark]
            if not rs:
                continue
            code = run_code(t, run) or (f"unknown:{run.name}" if require_full else f"given:{run.name}")
            by_env: dict = {}
            for r in rs:
                by_env.setdefault(Environment(r.env.jdk, r.env.vm, r.env.vm_version, t.env_jvm_args(r, rs)), []).append(r)
            for env, rr in by_env.items():
                out.setdefault((t.id, code, env), Pool(t, code, env, [])).runs.append((run, rr))
    return list(out.values())
