"""Which techniques a change can have touched: the scope of CI's two-commit gate.

Where a technique's benchmark, code and build are the same on both sides, both run the same bytecode on
the same JVM and machine: any difference measured there is noise, so CI gates only the techniques a change
reaches, from the paths that differ, by the rules of docs/gate.md ("What a change reaches"); scripts,
docs, results and `.ci/` reach none. When git cannot say what differs, every technique.
"""
from __future__ import annotations

import json
import math
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from .config import used_path
from .evidence import normalize_java
from .model import REPO

EVERY = "*"

# What in pom.xml the benchmarks' build (`mvn test-compile`, the test class path, the harness) never runs
# or loads: plugins of later phases or other goals, the harness itself, JUnit (no benchmark imports it: a
# test checks that), and any profile without <activation> (CI's gate passes no -P).
BUILD_ONLY = {
    "plugins": frozenset({f"org.apache.maven.plugins:maven-{p}-plugin"
                          for p in ("clean", "jar", "install", "deploy", "site", "surefire", "invoker")}
                         | {"io.hotpathbench:jmh-maven-plugin"}),
    "dependencies": frozenset({"org.junit:junit-bom", "org.junit.jupiter:junit-jupiter"}),
}


@dataclass(frozen=True)
class Scope:
    techniques: frozenset  # technique ids, or {EVERY}
    why: dict  # technique id (or EVERY) -> the first path that put it in scope
    error: str = ""  # set when git could not list the changes (then every technique is in scope)
    new: frozenset = frozenset()  # techniques the base lacks (their file is new)
    instrument: str = ""  # the first path of the plugin that differs, when one does
    paths: dict = field(default_factory=dict)  # technique id -> every path that put it in scope
    members: dict = field(default_factory=dict)  # a changed class's path -> the methods that differ (changed_members)

    def covers(self, tid: str) -> bool:
        return EVERY in self.techniques or tid in self.techniques


# What in a technique file the gate measures or judges; the rest is prose to it. Not `uses` (it only says
# which paths reach a technique) nor `gate_window` (it measures both sides alike).
MEASURED = ("benchmark", "variant_param", "baseline", "size_param", "method_pairs", "metrics", "cited", "claims",
            "warmup")
PROSE = frozenset({"_doc", "label", "why", "doc", "point_score"})


def measured_part(value, kinds: dict, top=True):
    """A technique file (parsed JSON) cut to what the gate measures and judges (MEASURED, without prose), its
    claims naming their CI pass's kind (`kinds`, from pass_kinds), not its name: renaming a pass changes
    neither what a claim measures nor how it is judged."""
    if isinstance(value, dict):
        out = {k: measured_part(v, kinds, False) for k, v in value.items()
               if k not in PROSE and (not top or k in MEASURED)}
        if top and isinstance(out.get("claims"), list):
            out["claims"] = [{**c, "ci": kinds.get(c.get("ci"), c.get("ci"))} if isinstance(c, dict) else c
                             for c in out["claims"]]
        return out
    if isinstance(value, list):
        return [measured_part(v, kinds, False) for v in value]
    return value


def pass_kinds(suite_file) -> dict:
    """CI pass name -> "gate" (judged against the baseline's commit) or "alone", from suite.json's text or JSON."""
    if isinstance(suite_file, str):
        try:
            suite_file = json.loads(suite_file)
        except ValueError:
            return {}
    passes = ((suite_file or {}).get("ci") or {}).get("passes") or {} if isinstance(suite_file, dict) else {}
    return {name: "gate" if isinstance(p, dict) and p.get("gate") else "alone" for name, p in passes.items()}


def _pom_parts(text: str) -> tuple:
    """(dependencies, managed ones included, by groupId:artifactId; everything else but BUILD_ONLY) of a pom,
    serialized with properties resolved so that a property changes what uses it. ET.ParseError: not XML."""
    root = ET.fromstring(text)
    ns = root.tag[:root.tag.index("}") + 1] if root.tag.startswith("{") else ""

    def key(el, group=""):  # groupId:artifactId of a dependency or plugin (a plugin's groupId defaults to Maven's)
        return f"{(el.findtext(f'{ns}groupId') or group).strip()}:{(el.findtext(f'{ns}artifactId') or '').strip()}"
    props = {c.tag[len(ns):]: (c.text or "").strip() for el in root.findall(f"{ns}properties") for c in el}
    blocks = [(root, b) for b in root.findall(f"{ns}dependencies")]
    blocks += [(dm, b) for dm in root.findall(f"{ns}dependencyManagement") for b in dm.findall(f"{ns}dependencies")]
    # a property the dependencies name is judged through them; every other one stays with the rest,
    # since plugins read some without naming them (maven.compiler.release)
    named = {m for _, block in blocks for el in block.iter() for m in re.findall(r"\$\{([^}]+)\}", el.text or "")}
    for el in root.findall(f"{ns}properties"):
        for c in list(el):
            if c.tag[len(ns):] in named:
                el.remove(c)
    for el in root.iter():
        el.text = (el.text or "").strip()
        for _ in range(5):  # properties that name properties
            el.text = re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m.group(1), m.group(0)), el.text)
        el.tail = ""
    deps = {}
    for parent, block in blocks:
        for d in block:  # ElementTree's parser drops comments
            deps[key(d)] = deps.get(key(d), "") + ET.tostring(d, encoding="unicode")
        parent.remove(block)
    for build in root.iter(f"{ns}build"):
        for plugins in [*build.findall(f"{ns}plugins"), *build.findall(f"{ns}pluginManagement/{ns}plugins")]:
            for plugin in list(plugins):
                if key(plugin, "org.apache.maven.plugins") in BUILD_ONLY["plugins"]:
                    plugins.remove(plugin)
    for profiles in root.findall(f"{ns}profiles"):
        for profile in list(profiles):
            if profile.find(f"{ns}activation") is None:
                profiles.remove(profile)
    return deps, ET.tostring(root, encoding="unicode")


def pom_scope(before: str | None, after: str | None, suite) -> set:
    """The techniques listing the dependencies that are all that differs between two pom.xml texts;
    {EVERY} when anything else differs, or a side is missing or not a pom."""
    if before is None or after is None:
        return {EVERY}
    try:
        (deps_b, rest_b), (deps_a, rest_a) = _pom_parts(before), _pom_parts(after)
    except (ET.ParseError, ValueError):
        return {EVERY}
    if rest_b != rest_a:
        return {EVERY}
    out = set()
    for key in set(deps_b) | set(deps_a):
        if deps_b.get(key) == deps_a.get(key) or key in BUILD_ONLY["dependencies"]:
            continue
        users = {t.id for t in suite.techniques if key in (t.dependencies or [])}
        if not users:
            return {EVERY}
        out |= users
    return out


def of_paths(paths, suite, base_text=lambda path: None, head_text=lambda path: None) -> Scope:
    """The scope that changed files (repository-relative, '/'-separated) put the suite's techniques in.
    base_text(path) and head_text(path) give a file's text on each side (None where it has none)."""
    by_dir = {t.package_dir + "/": t.id for t in suite.techniques}
    users: dict = {}
    for t in suite.techniques:
        for name in t.raw.get("uses") or []:  # a package's directory or one class's file, under src/<set>/java/
            used = used_path(name).removeprefix("src/main/java/")
            users.setdefault(used if used.endswith(".java") else used + "/", set()).add(t.id)
    by_file = {f"scripts/techniques/{t.path.name}": t for t in suite.techniques}
    new, instrument, each, members = set(), "", {}, {}
    for p in sorted(paths):
        reached = set()
        if p.startswith("jmh-maven-plugin/"):
            instrument = instrument or p
        elif p in by_file:
            t, before, kinds = by_file[p], base_text(p), pass_kinds(suite.raw)
            try:  # the base's own pass names where its suite.json names passes, else this tree's
                old = None if before is None else measured_part(
                    json.loads(before), pass_kinds(base_text("scripts/suite.json")) or kinds)
            except ValueError:
                old = None
            if before is None:
                new.add(t.id)
            if old != measured_part(t.raw, kinds):
                reached.add(t.id)
        elif p.startswith("src/"):
            b = h = changed = None
            if p.endswith(".java"):
                b, h = base_text(p), head_text(p)
                if b is not None and h is not None and normalize_java(b) == normalize_java(h):
                    continue
                if b is not None and h is not None and p.startswith("src/main/java/"):
                    changed = changed_members(b, h)
            parts = p.split("/")  # src/<set>/java/<package path>/<File>
            inner = "/".join(parts[3:]) if len(parts) > 3 and parts[2] == "java" else ""
            hit = next((tid for d, tid in by_dir.items() if inner.startswith(d)), None)
            users_of = set().union(*[ids for d, ids in users.items() if inner.startswith(d)])
            used = users_of
            if changed is not None:  # a technique that uses the class reaches the changed methods, or not at all
                members[p] = changed
                names = _reached_names(p, changed, head_text)
                used = {tid for tid in users_of if _words(_technique_text(suite.by_id(tid), p, head_text)) & names}
            reached |= ({hit} | used) if hit is not None else (used if users_of else {EVERY})
        elif p == "pom.xml":
            reached |= pom_scope(base_text(p), head_text(p), suite)
        for tid in sorted(reached):
            each.setdefault(tid, []).append(p)
    return Scope(frozenset(each), {tid: ps[0] for tid, ps in each.items()}, new=frozenset(new),
                 instrument=instrument, paths={tid: tuple(ps) for tid, ps in each.items()}, members=members)


def tree_text(path: str, cwd=REPO) -> str | None:
    """A file's text in the working tree at cwd (None where there is none)."""
    try:
        return (Path(cwd) / path).read_text(encoding="utf-8")
    except OSError:
        return None


def of_change(base: str, suite, cwd=REPO) -> Scope:
    """The scope of the paths that differ between commit `base` and the working tree, untracked files
    included; every technique, with git's message, when git cannot tell."""
    def git(*args) -> list:
        p = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
        if p.returncode != 0:
            said = (p.stderr or p.stdout).strip().splitlines()
            raise ValueError(said[-1] if said else f"git {' '.join(args)} failed")
        return [line for line in p.stdout.splitlines() if line]

    def base_text(path):
        p = subprocess.run(["git", "show", f"{base}:{path}"], cwd=cwd, capture_output=True, text=True)
        return p.stdout if p.returncode == 0 else None

    try:
        changed = git("diff", "--name-only", "--no-renames", base, "--")
        return of_paths({*changed, *git("ls-files", "--others", "--exclude-standard")}, suite, base_text,
                        lambda path: tree_text(path, cwd))
    except ValueError as e:
        return Scope(frozenset({EVERY}), {}, f"git cannot list what changed since {base}: {e}")


# ---------------------------------------------------------------- which methods a change reaches

_TYPE = re.compile(r"\b(?:class|interface|record)\s+\w+[^{;]*\{")
_METHOD = re.compile(r"(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:throws\s+[\w.,\s<>]+)?$")
_words = lambda text: set(re.findall(r"\b[A-Za-z_]\w*", text))  # noqa: E731  (every identifier a text names)


def java_methods(text: str) -> tuple | None:
    """(the rest, {signature: (name, body)}) of a Java source's first top-level class, interface or record:
    each method's signature and body, and the source without them (imports, fields, nested types, other
    types). None for a source with an enum or none of those types."""
    t = normalize_java(text)
    m = _TYPE.search(t)
    if m is None or _ENUM.search(t):
        return None
    methods, rest, depth, start, opened = {}, [t[:m.end()]], 1, m.end(), None
    for mark in _MARK.finditer(t, m.end()):
        c = mark.group()
        if c in ("(", "{", "["):
            depth += 1
            if c == "{" and depth == 2 and opened is None:
                opened = mark.start()
        elif c in (")", "}", "]"):
            depth -= 1
        if depth == 0:  # the class's closing brace
            rest.append(t[start:])
            break
        if depth != 1 or c not in ("}", ";") or (c == "}" and t[mark.end():].lstrip()[:1] in (";", ",", ")")):
            continue
        head = t[start:opened if opened is not None else mark.end()].strip()
        sig = _METHOD.search(head) if c == "}" and opened is not None else None
        if sig:
            methods[head] = (sig.group(1), t[opened:mark.end()])
        else:
            rest.append(t[start:mark.end()])
        start, opened = mark.end(), None
    return " ".join(rest), methods


def changed_members(before: str, after: str) -> frozenset | None:
    """The names of the methods added, removed or changed (signature or body) between two texts of one Java
    class, with every method of the class that names one of them (so on); None where anything else differs
    (a field, the class's declaration, a nested type; imports aside, which act only through the bodies that
    use them), or a field or nested type names a changed method: the whole class changed."""
    b, h = java_methods(before), java_methods(after)
    # the rest without its package and imports (a package's name is no use of a method)
    rest = lambda parsed: re.sub(r"\s+", " ", re.sub(r"\b(?:package|import)\s[^;]*;", " ", parsed[0])).strip()  # noqa: E731
    if b is None or h is None or rest(b) != rest(h):
        return None
    changed = {name for sig, (name, body) in h[1].items() if sig not in b[1] or b[1][sig][1] != body}
    changed = _naming(h[1].values(), changed | {name for sig, (name, _) in b[1].items() if sig not in h[1]})
    return None if _words(rest(h)) & changed else frozenset(changed)


def _naming(texts, names) -> set:
    """names, with the name of every (name, text) of texts whose text names one of them (so on)."""
    names = set(names)
    while True:
        more = {name for name, text in texts if name not in names and _words(text) & names}
        if not more:
            return names
        names |= more


def _package_texts(directory: str, text=tree_text, but: str = "") -> dict:
    """Class name -> source text of each .java file in a repository directory (or the one file named), but one."""
    where = Path(REPO, directory)
    files = [where] if directory.endswith(".java") else sorted(where.glob("*.java"))
    out = {}
    for f in files:
        rel = f.relative_to(REPO).as_posix()
        got = None if rel == but else text(rel)
        if got is not None:
            out[f.stem] = got
    return out


def _reached_names(path: str, changed: frozenset, text=tree_text) -> set:
    """The changed methods' names and the names of the classes of their package that name them (so on)."""
    others = _package_texts(path.rsplit("/", 1)[0], text, but=path)
    return _naming([(c, normalize_java(src)) for c, src in others.items()], changed)


def _technique_text(t, but: str, text=tree_text) -> str:
    """Every source a technique runs: its package's code and benchmarks and what it `uses`, but one file."""
    dirs = [f"src/main/java/{t.package_dir}", f"src/jmh/java/{t.package_dir}"] + [used_path(u) for u in t.raw.get("uses") or []]
    return " ".join(normalize_java(src) for d in dirs for src in _package_texts(d, text, but=but).values())


# ---------------------------------------------------------------- which variants a change reaches

_ENUM = re.compile(r"\benum\s+(\w+)[^{]*\{")
# A string or char literal (whole, to its closing quote or the text's end), or a bracket, comma or semicolon.
_MARK = re.compile(r'''"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|[(){}\[\],;]''', re.S)


def enum_constants(text: str) -> dict:
    """Each enum constant of a Java source (comments stripped) -> its arguments' and body's text."""
    out = {}
    for m in _ENUM.finditer(text):
        depth, start = 0, m.end()
        for mark in _MARK.finditer(text, m.end()):
            c = mark.group()
            if c in ("(", "{", "["):
                depth += 1
            elif c in (")", "}", "]"):
                depth -= 1
            if depth > 0 or (depth == 0 and c not in (",", ";")):
                continue
            part = text[start:mark.start()].strip()
            last = depth < 0  # the enum's closing brace: the last constant, where no `;` ends the list
            name = re.match(r"(\w+)" if last else r"(?:@\w+(?:\([^)]*\))?\s*)*(\w+)", part)
            if name and (last or re.fullmatch(r"[A-Za-z_]\w*", name.group(1))):
                out[name.group(1)] = part[name.end():]
            if last or c == ";":
                break
            start = mark.end()
    return out


def variants_reached(package_dir: str, paths, read=tree_text, members: dict | None = None) -> dict | None:
    """How near a change comes to each enum constant in src/main/java/<package_dir> and each @Benchmark method
    of its benchmarks (docs/gate.md): 0 where its body names a changed class (or, where only method bodies
    changed, a changed method: `members`, path -> changed_members), k where it names a class of the package
    that reaches one through k others naming each other; unreached ones are left out, and "*" stands for every
    configuration where a benchmark reaches a change outside its @Benchmark methods (its state, a helper).
    None where a path is no class under src/main/java or a changed file is one of the package's enums: it may
    reach every variant alike. read(path) gives a file's text (None where there is none; the working tree's by
    default). Names are followed, not calls: whatever names a reached class or method is reached."""
    if not all(p.startswith("src/main/java/") and p.endswith(".java") for p in paths):
        return None
    root, members = f"src/main/java/{package_dir}/", members or {}
    changed = {p.rsplit("/", 1)[-1][:-len(".java")]: members.get(p) for p in paths}
    level = {}
    for name, methods in changed.items():
        level.update(dict.fromkeys([name] if methods is None else methods, 0))
    texts = {p.stem: read(root + p.name) for p in sorted(Path(REPO, root).glob("*.java"))}
    files = {name: normalize_java(text) for name, text in texts.items() if text is not None}
    enums = {name: enum_constants(text) for name, text in files.items() if _ENUM.search(text)}
    if set(changed) & set(enums):
        return None
    k, front = 0, set(level)
    while front:  # a class naming a reached one is reached one step further (enums: by their constants)
        k += 1
        front = {name for name, text in files.items() if name not in enums and name not in level
                 and name not in changed and _words(text) & front}
        level.update(dict.fromkeys(front, k))
    out = {}

    def reach(key, text):
        near = [level[w] for w in _words(text) if w in level]
        if near:
            out[key] = min(near + [out.get(key, math.inf)])
    for constants in enums.values():
        for c, body in constants.items():
            reach(c, body)
    for text in _package_texts(f"src/jmh/java/{package_dir}", read).values():
        parsed = java_methods(text)
        if parsed is None:
            reach("*", normalize_java(text))
            continue
        reach("*", parsed[0])
        for sig, (name, body) in parsed[1].items():
            reach(name if "@Benchmark" in sig else "*", sig + body)
    return out
