#!/usr/bin/env python3
"""Make one real pass through CI's two-commit gate and keep its summary in results/ci/: an A/A pass (this
commit against the baseline's, whose benchmark code is the same), an A/A pass of a differing build (a
patch from scripts/tests/neutral/: a comment or a renamed local, which must not matter) or an A/B pass
against a real regression (a patch from scripts/tests/regressions/); a patch is applied in a throwaway
worktree.

    python3 lab/gate_pass.py                           # A/A: this checkout against the baseline's commit
    python3 lab/gate_pass.py --patch split-renamed-local   # A/A of a differing build: must pass
    python3 lab/gate_pass.py --patch indexof-slower-10pct  # A/B: must fail
    python3 lab/gate_pass.py --list                    # the patches, each with what it must do
    python3 lab/gate_pass.py --claims redis-mget-4x,redis-pooled-1.3x   # A/A over those claims only

It runs CI's own gate passes (the `gate` lines of `scripts/ci_plan.py`, one per gate window: `mvn jmh:run
-Djmh.against=BASE -Djmh.gate ...`): an A/A pass over every gated technique (`--all`, CI's largest
pass; with --claims, just those gain claims, as CI gates a change that reaches only their
techniques), an A/B pass over the techniques the patch reaches, as CI gates such a change (with
-Djmh.claims naming their claims) with the raw results written to results/ci/raw/ (not committed:
.gitignore), records what the pass was (A/A or the patch, what the gate should say, its args), keeps
the run's summary with that record as results/ci/NAME.summary.json (summarize.py; the file to
commit), and prints the gate's verdict as CI judges it (scripts/gate.py with CI's options).
A patch to the plugin is installed (`mvn install`, no tests) before its pass, as CI's `mvn install`
installs a change's own, and this checkout's plugin is installed again after it. gate_power.py counts
these passes. The worktree is removed when the pass ends, fails or is interrupted; nothing
is left running. Exit 0 when the pass was made
and stored (whatever the gate said), 2 on bad input or a failed run.
"""
from __future__ import annotations

import datetime
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import labpath
import ci_plan
from hpb import cli, config, twocommit
from hpb.model import REPO, RESULTS_DIR, InputError
from summarize import summarize

# The regression patches (each must fail the gate) and the neutral ones (a comment or a renamed local in
# the file a regression patch changes, each must pass): the gate's test data, beside the product's tests.
PATCHES = labpath.SCRIPTS / "tests" / "regressions"
NEUTRAL = labpath.SCRIPTS / "tests" / "neutral"
CI_DIR = RESULTS_DIR / "ci"
RAW_DIR = CI_DIR / "raw"
# How long an interrupted JMH run may take to clean up (its shutdown hook stops the forks and removes
# the -Djmh.against worktree and the fork files) before it is killed.
GRACE_S = 120


def patches() -> dict:
    """Every patch by name, regressions and neutral ones (their names differ: a test checks it)."""
    return {p.stem: p for d in (PATCHES, NEUTRAL) for p in sorted(d.glob("*.patch"))}


def neutral(patch: Path | None) -> bool:
    return patch is not None and patch.parent == NEUTRAL


def changes_instrument(patch: Path | None) -> bool:
    """Whether the patch changes the plugin (jmh-maven-plugin/): Maven runs the installed plugin, so its
    pass needs the patched plugin installed first, as CI's `mvn install` installs a change's own."""
    if patch is None:
        return False
    names = [line.split(" b/", 1)[-1] for line in patch.read_text(encoding="utf-8").splitlines()
             if line.startswith("diff --git ")]
    return any(n.startswith("jmh-maven-plugin/") for n in names)


def commit_patch(tree: Path, patch: Path) -> None:
    """Applies the patch in the worktree and commits it, as CI sees a change: an instrument pass runs
    this commit on both sides."""
    git("apply", str(patch), cwd=tree)
    git("add", "-A", cwd=tree)
    git("-c", "user.name=gate_pass", "-c", "user.email=gate_pass@localhost", "commit", "-q", "--no-verify",
        "-m", f"gate_pass: {patch.stem}", cwd=tree)


def install(tree: Path) -> None:
    """`mvn install` of the tree without its tests: the plugin Maven then runs is the tree's."""
    p = subprocess.run(["mvn", "-B", "-q", "install", "-DskipTests"], cwd=tree, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise InputError(f"mvn install in {tree} failed: {(p.stdout + p.stderr).strip().splitlines()[-1:]}")


def planned_passes(tree: Path = REPO) -> list:
    """CI's gate passes as the tree's own ci_plan.py plans them, [(name, args)]: for this checkout (an A/A
    pass) every gated technique (--all); for a patched worktree the techniques the patch reaches, as CI
    would gate it (a technique with its own gate_window gets a pass of its own)."""
    cmd = [sys.executable, str(tree / "scripts" / "ci_plan.py")] + (["--all"] if tree == REPO else [])
    out = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env={k: v for k, v in os.environ.items() if k != "HPB_GATE"})
    if out.returncode != 0:
        raise InputError(f"ci_plan.py failed: {out.stderr.strip()}")
    passes = []
    for line in out.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and fields[1] in ("gate", "instrument"):
            passes.append((fields[0], fields[3:]))
        if len(fields) >= 3 and fields[1] == "unchanged":
            raise InputError("the patch reaches no gated technique (ci_plan.py: " + out.stderr.strip() + ")")
    if not passes:
        raise InputError("ci_plan.py plans no gate pass (no claim names a pass with \"gate\": true)")
    return passes


def git(*args, cwd=REPO) -> str:
    p = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        raise InputError(f"git {' '.join(args)}: {(p.stderr or p.stdout).strip().splitlines()[-1:] or ['failed']}")
    return p.stdout.strip()


def newest(after: set) -> Path | None:
    made = [p for p in RAW_DIR.glob("2*.json") if not p.name.endswith((".provenance.json", ".pass.json")) and p not in after]
    return max(made, default=None, key=lambda p: p.stat().st_mtime)


def _interrupt(*_):
    raise KeyboardInterrupt


def interruptible() -> None:
    """Ctrl-C (SIGINT) and a kill (SIGTERM) both interrupt this process, however it was started: a
    shell that starts a job in the background (nohup ... &) hands it SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)


def run_to_end(cmd: list, cwd) -> int:
    """Runs cmd and returns its exit code. On an interrupt it is sent SIGTERM and given GRACE_S to
    end, so that its own clean-up runs (the JVM runs its shutdown hooks on SIGTERM as on SIGINT,
    and SIGTERM reaches it even when it inherited SIGINT ignored; subprocess.run would kill it a
    quarter of a second later, leaving the plugin's worktree, fork files and forks behind); only
    then, or on a second interrupt, is it killed. The KeyboardInterrupt is raised again once it has ended."""
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL)
    try:
        return p.wait()
    except KeyboardInterrupt:
        try:
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=GRACE_S)
        except (KeyboardInterrupt, subprocess.TimeoutExpired):
            p.kill()
            p.wait()
        raise


def scoped(args: list, claims: list | None) -> list:
    """CI's gate args narrowed to these gain claims (-Djmh.claims, as ci_plan.py scopes a change that
    reaches only their techniques); bad input names a claim the gate does not judge."""
    if not claims:
        return args
    ids = [c.strip() for c in claims if c.strip()]
    gated = {c["id"] for _, c in twocommit.gained_pairs(config.load_suite())}
    unknown = [c for c in ids if c not in gated]
    if unknown or not ids:
        raise InputError(f"--claims: {', '.join(unknown) or 'none given'} is not a gated gain claim (gated: {', '.join(sorted(gated))})")
    return [a for a in args if not a.startswith("-Djmh.claims=")] + ["-Djmh.claims=" + ",".join(ids)]


def make_pass(patch: Path | None, claims: list | None = None) -> list:
    """Makes each of CI's gate passes for the patch (or this checkout) and stores each: [(result, judge)]."""
    RAW_DIR.mkdir(parents=True, exist_ok=True)
    head = git("rev-parse", "HEAD")
    worktree = None
    made = []
    installed = False
    try:
        where = REPO
        if patch is not None:
            worktree = Path(tempfile.mkdtemp(prefix="hotpath-bench-pass-"))
            os.rmdir(worktree)
            git("worktree", "add", "--detach", str(worktree), "HEAD")
            where = worktree
            commit_patch(where, patch)
        passes = planned_passes(where)
        if changes_instrument(patch):
            print("gate_pass: the patch changes the plugin: installing the patched tree's (restored after the pass)", flush=True)
            installed = True
            install(where)
        if claims:
            passes = [(passes[0][0], scoped(passes[0][1], claims))]
        for name, args in passes:
            before = set(RAW_DIR.glob("2*.json"))
            cmd = ["mvn", "-B", "jmh:run", *args, f"-Djmh.resultsDir={RAW_DIR}"]
            print(f"gate_pass: {name}:", " ".join(cmd), flush=True)
            if run_to_end(cmd, where) != 0:
                raise InputError(f"the gate pass {name}'s JMH run failed (its output is above); it was not stored")
            result = newest(before)
            if result is None:
                raise InputError("the gate pass wrote no result into results/ci/raw/")
            judge = ci_plan.judge_options(config.load_suite(), args)
            regression = patch is not None and not neutral(patch)
            record = {"kind": "A/B" if regression else "A/A", "patch": patch.stem if patch else None,
                      "expect": "fail" if regression else "pass", "head": head, "args": args, "judge": judge,
                      "madeUtc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
            if len(passes) > 1:
                record["gatePass"] = name
            result.with_name(result.name[:-5] + ".pass.json").write_text(json.dumps(record, indent=2) + "\n")
            summarize(result, "none", CI_DIR)
            made.append((result, judge))
    finally:
        try:
            if installed:  # this checkout's plugin back in the local repository
                install(REPO)
        finally:
            if worktree is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=REPO, capture_output=True)
                shutil.rmtree(worktree, ignore_errors=True)
                subprocess.run(["git", "worktree", "prune"], cwd=REPO, capture_output=True)
    return made


@cli.guarded
def main(argv=None) -> int:
    interruptible()
    ap = cli.Parser(prog="gate_pass.py", description=__doc__.splitlines()[0])
    ap.add_argument("--patch", help="a patch's name (see --list): a regression (A/B) or a neutral one (A/A of a "
                                    "differing build); without it, an A/A pass of this checkout")
    ap.add_argument("--list", action="store_true", help="list the patches (regressions and neutral ones) and stop")
    ap.add_argument("--claims", help="an A/A pass over just these gated gain claims (comma-separated), as CI "
                                     "gates a change that reaches only their techniques; default every technique")
    a = ap.parse_args(argv)
    known = patches()
    if a.list:
        for name, p in known.items():
            print(f"{name}\t{'A/A (must pass)' if neutral(p) else 'A/B (must fail)'}")
        return 0
    patch = None
    if a.patch is not None:
        if a.patch not in known:
            raise InputError(f"--patch: no patch {a.patch!r} in {PATCHES.relative_to(REPO)} or {NEUTRAL.relative_to(REPO)} (known: {', '.join(known) or 'none'})")
        patch = known[a.patch]
    claims = a.claims.split(",") if a.claims is not None else None
    if claims is not None and patch is not None:
        raise InputError("--claims scopes an A/A pass; a patch's pass is scoped by what the patch reaches")
    if claims is not None:
        scoped([], claims)  # bad input fails here, before any build
    if git("status", "--porcelain", "--untracked-files=no", "--", "src", "pom.xml"):
        raise InputError("the benchmark code (src/, pom.xml) has uncommitted changes: a pass must measure committed code")
    try:
        made = make_pass(patch, claims)
    except KeyboardInterrupt:
        cli.fail("gate_pass: interrupted; the run stopped, its worktrees are removed and nothing more was stored", 130)
    for result, judge in made:
        print(f"gate_pass: stored {result.relative_to(REPO)} and its summary in {CI_DIR.relative_to(REPO)}/", flush=True)
        print(f"gate_pass: the gate's verdict as CI judges it (gate.py {' '.join(judge)})", flush=True)
        subprocess.run([sys.executable, str(REPO / "scripts" / "gate.py"), str(result), *judge])
    return 0


if __name__ == "__main__":
    sys.exit(main())
