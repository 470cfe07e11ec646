"""export.py, reproduce.py, ci_plan.py, and a technique added in one file."""
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import ci_plan
import export
import reproduce
from conftest import FULL_AMD, FULL_OLD, I1, I3, REPO, SCRIPTS, copy_run, is_, scale, techniques_copy
from hpb import config
from hpb.model import convert, load, unit_kind


# ---------------------------------------------------------------- export

def parse_bmf(text: str) -> dict:
    """Bencher Metric Format as its published JSON schema states it: an object of benchmark names
    (1..1024 characters) to objects of measure slugs (1..64) to {value (number, required),
    lower_value, upper_value (numbers)}; nothing else."""
    doc = json.loads(text)
    assert isinstance(doc, dict) and doc
    for name, measures in doc.items():
        assert isinstance(name, str) and 0 < len(name) <= 1024
        assert isinstance(measures, dict) and measures
        for slug, m in measures.items():
            assert isinstance(slug, str) and 0 < len(slug) <= 64
            assert isinstance(m, dict) and set(m) <= {"value", "lower_value", "upper_value"} and "value" in m
            assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in m.values())
    return doc


def parse_gab(text: str) -> list:
    """github-action-benchmark's custom tools: a JSON array of {name (string), unit (string),
    value (number)} with optional range and extra (strings); nothing else."""
    doc = json.loads(text)
    assert isinstance(doc, list)
    for e in doc:
        assert set(e) <= {"name", "unit", "value", "range", "extra"} and {"name", "unit", "value"} <= set(e)
        assert isinstance(e["name"], str) and isinstance(e["unit"], str)
        assert isinstance(e["value"], (int, float)) and not isinstance(e["value"], bool)
        assert all(isinstance(e[k], str) for k in ("range", "extra") if k in e)
    return doc


def test_bencher_export_round_trips_every_result(tmp_path):
    out = tmp_path / "bmf.json"
    assert export.main([str(FULL_AMD), "--format", "bencher", "--out", str(out)]) == 0
    doc = parse_bmf(out.read_text())
    results = load(FULL_AMD).results
    assert len(doc) == len(results) == 162  # params in every name: no result lost
    for r in results:
        m = doc[export.bench_name(r)]
        if unit_kind(r.primary.unit)[0] == "rate":
            assert m["throughput"]["value"] == pytest.approx(convert(r.primary.score, r.primary.unit, "ops/s"))
            assert "latency" not in m
        else:
            assert m["latency"]["value"] == pytest.approx(convert(r.primary.score, r.primary.unit, "ns/op"))
        assert m["alloc-bytes-per-op"]["value"] == pytest.approx(r.secondary["gc.alloc.rate.norm"].score)
        if r.simple_class == "MapKeyBenchmark":
            assert m["bytes-per-entry"]["value"] == pytest.approx(r.secondary["bytesPerEntry"].score)
        for v in m.values():
            if "lower_value" in v:
                assert 0 <= v["lower_value"] <= v["value"] * (1 + 1e-12) and v["value"] <= v["upper_value"] * (1 + 1e-12)


def test_bencher_export_of_a_quick_run_leaves_out_unknown_intervals(tmp_path):
    out = tmp_path / "bmf.json"
    assert export.main([str(I1), "--format", "bencher", "--out", str(out)]) == 0
    doc = parse_bmf(out.read_text())
    assert "NaN" not in out.read_text()
    assert all(set(m) == {"value"} for measures in doc.values() for m in measures.values())


def test_github_action_benchmark_export_puts_each_metric_in_its_direction(tmp_path):
    assert export.main([str(FULL_AMD), "--format", "github-action-benchmark", "--out", str(tmp_path)]) == 0
    bigger = parse_gab((tmp_path / "bigger-is-better.json").read_text())
    smaller = parse_gab((tmp_path / "smaller-is-better.json").read_text())
    results = load(FULL_AMD).results
    names = [e["name"] for e in bigger + smaller]
    assert len(names) == len(set(names))
    by = {e["name"]: e for e in bigger + smaller}
    for r in results:
        e = by[export.bench_name(r)]
        assert e["value"] == r.primary.score and e["unit"] == r.primary.unit
        assert (e in bigger) == r.primary.unit.startswith("ops/")  # throughput up, time down
        alloc = by[export.bench_name(r) + " gc.alloc.rate.norm"]
        assert alloc in smaller and alloc["unit"] == "B/op"
    assert {e["unit"] for e in smaller if e["name"].endswith(" bytesPerEntry")} == {"bytes"}
    p = subprocess.run([sys.executable, str(SCRIPTS / "export.py"), str(FULL_AMD), "--format", "github-action-benchmark"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "needs --out DIR" in p.stderr


# ---------------------------------------------------------------- reproduce

def cited_from(tmp_path, *runs):
    import report
    assert report.main([*map(str, runs), "--out", str(tmp_path / "REPORT.md"), "--no-charts"]) == 0
    return tmp_path / "cited.json"


def run_reproduce(*args):
    return subprocess.run([sys.executable, str(SCRIPTS / "reproduce.py"), *map(str, args)], capture_output=True, text=True)


AMD_RUNS = [REPO / "results" / f for f in ("20261125T004028Z-d81400f.json", "20261125T030920Z-5ee6d28.json")]
INTEL_RUN = REPO / "results" / "20261127T170939Z-d22d712.json"


def line_of(lines, start):
    got = [line for line in lines if line.startswith(start)]
    assert len(got) == 1, (start, lines)
    return got[0]


def test_reproduce_one_machines_figures_on_another_machine(tmp_path):
    """Cited from the two AMD runs alone (one machine), the Intel run of the same code: split and the
    validator reproduce (the Intel intervals meet the AMD ones), Redis does not: MGET's 5.02x [4.18,
    6.02] misses 7.46x [7.09, 7.84], a fact about the machine, which the note says. One machine's
    interval says nothing about another."""
    p = run_reproduce(INTEL_RUN, "--cited", cited_from(tmp_path, *AMD_RUNS))
    assert p.returncode == 1, p.stdout
    lines = p.stdout.splitlines()
    mget = line_of(lines, "one MGET vs one GET per key, 10 keys")
    assert "7.46x [7.09, 7.84]" in mget and "5.02x [4.18, 6.02]" in mget and "DIFFERS" in mget
    assert "misses the 1 machine figure's range" in mget and "your machine differs beyond your run's noise (0.67x" in mget
    split = line_of(lines, 'indexOf splitter vs String.split, "||" delimiter, 16 fields')
    assert "3.14x [3.02, 3.26]" in split and "3.16x [2.91, 3.42]" in split and "REPRODUCES" in split
    assert "within your run's noise" in split
    assert not any("iteration-level" in line for line in lines)  # both are trials runs: fork-level figures
    assert lines[-1] == "REPRODUCE: 13 of 17 cited figures reproduce; 4 do not"
    # cited from both machines, the Intel run falls inside the range the two machines span
    both = tmp_path / "both"
    both.mkdir()
    p = run_reproduce(INTEL_RUN, "--cited", cited_from(both, *AMD_RUNS, INTEL_RUN))
    mget = line_of(p.stdout.splitlines(), "one MGET vs one GET per key, 10 keys")
    assert "REPRODUCES" in mget and "meets the 2 machine figures' range" in mget


def test_reproduce_a_run_in_jmhs_own_fork_order(tmp_path):
    """A run without forks to count (JMH's own order) is set against the cited figures through JMH's
    iteration-level intervals, and the note says so; its heap per entry, 0.202x, reproduces."""
    p = run_reproduce(FULL_AMD, "--cited", cited_from(tmp_path, *AMD_RUNS))
    lines = p.stdout.splitlines()
    heap = line_of(lines, "long keys vs String keys, heap per entry")
    assert "REPRODUCES" in heap and "from iteration-level intervals" in heap
    split = line_of(lines, 'indexOf splitter vs String.split, "||" delimiter, 16 fields')
    assert "3.53x [3.37, 3.7]" in split and "DIFFERS" in split
    assert re.match(r"REPRODUCE: \d+ of 13 cited figures reproduce", lines[-1]) and p.returncode == 1


def test_reproduce_matches_the_environment(tmp_path):
    cited = cited_from(tmp_path, AMD_RUNS[1])
    other = copy_run(AMD_RUNS[1], tmp_path / "jdk25.json", lambda d: [r.update(jdkVersion="25.0.1") for r in d])
    p = run_reproduce(other, "--cited", cited)
    assert p.returncode == 1 and "none of the cited figures is in these runs" in p.stdout


def test_reproduce_bad_input(tmp_path, fixtures):
    cited = cited_from(tmp_path, AMD_RUNS[1])
    for args, needle in [([fixtures / "notjson.json", "--cited", cited], "notjson.json"),
                         ([FULL_AMD, "--cited", fixtures / "notjson.json"], "notjson.json"),
                         ([FULL_AMD, "--cited", tmp_path / "none.json"], "no such file"),
                         ([FULL_AMD, "--cited", I3], "not a list of cited figures")]:
        p = run_reproduce(*args)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and needle in p.stderr, p.stderr


# ---------------------------------------------------------------- CI

def test_every_claim_is_gated_by_ci(suite):
    planned = ci_plan.plan(suite)
    gated = {i for _, _, ids, _ in planned for i in ids}
    assert gated >= {c["id"] for t in suite.techniques for c in t.claims}
    assert gated >= {c["id"] for t in suite.techniques for c in t.cited if c["id"] in ci_plan.headline_ids(t)}
    ci = (REPO / ".ci" / "run").read_text()
    assert "scripts/ci_plan.py" in ci and "--claim-ids" in ci and "--claims-log" in ci
    assert not re.search(r"--claim-ids[= ]+[a-z]", ci), ".ci/run must not list claim ids by hand"


def _ci_loop(body_end: str) -> str:
    ci = (REPO / ".ci" / "run").read_text()
    loop = re.search(r"\n(status=0\nwhile IFS=.*?read -r -a step; do\n.*?)\ndone < <\(python3 scripts/ci_plan.py\)\n", ci, re.S)
    assert loop, "the loop in .ci/run that reads the plan"
    return loop.group(1) + body_end


def test_ci_reads_every_pass_as_planned(suite):
    """.ci/run reads ci_plan.py's lines with bash's `read`; every field arrives where it was put."""
    head = _ci_loop("").split("\n  log ")[0]
    script = head + '\n  printf "%s\\n" "$name|$kind|$ids|${args[*]}"\ndone < <(python3 scripts/ci_plan.py)\n'
    got = subprocess.run(["bash", "-c", script], cwd=REPO, capture_output=True, text=True, check=True,
                         env={**os.environ, "HPB_GATE": "all"}).stdout.splitlines()
    minutes = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"])  # as ci_plan.py plans: a technique whose minutes fit is judged whole
    want = [f"{name}|{kind}|{','.join(ids)}|{' '.join(args)}" for name, kind, ids, args in ci_plan.plan(suite, minutes=minutes)]
    assert got == want
    base = json.loads((REPO / "results" / "baseline.provenance.json").read_text())["git"]["commit"]
    assert any(line.startswith("gate|gate|") and f"-Djmh.against={base} -Djmh.gate -Djmh.claims=" in line for line in got)
    assert any(line.startswith("claims|claims|") and "-Djmh.claims=" in line for line in got)


def test_ci_makes_each_pass_once_and_judges_a_gate_pass_on_its_own(tmp_path):
    """The loop of .ci/run with mvn and the gate stubbed: a failed verdict is not made again, and the
    two kinds of pass call the gate as they must."""
    def run(gate_codes):
        script = ("set -euo pipefail\nlog() { :; }\nn=0\nmvn() { :; }\nnew_result() { echo r.json; }\nmarker=m\ntoolchains=t\n"
                  f"codes=({' '.join(map(str, gate_codes))})\n"
                  'python3() { if [ "$1" = scripts/ci_plan.py ] && [ "${2:-}" = --judge ]; then printf -- "--undecided\\nwarn\\n"; return 0; fi; '
                  'if [ "$1" = scripts/ci_plan.py ]; then printf "c\\tclaims\\ta,b\\t-Djmh.claims=a,b\\n'
                  'g\\tgate\\tx\\t-Djmh.gate\\nu\\tunchanged\\tx\\t-Djmh.quick\\n"; return 0; fi; '
                  'local c=${codes[$n]}; n=$((n + 1)); echo "$*" >>calls; return $c; }\n'
                  + _ci_loop('\ndone < <(python3 scripts/ci_plan.py)\necho "status=$status"\n'))
        out = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True)
        calls = (tmp_path / "calls").read_text().splitlines()
        (tmp_path / "calls").unlink()
        return out.stdout.strip().splitlines()[-1], calls
    status, calls = run([1, 0, 0])
    assert status == "status=1"
    assert calls == ["scripts/gate.py r.json --claim-ids a,b", "scripts/gate.py r.json --undecided warn",
                     "scripts/compare.py r.json"], "an unchanged tree's short run is shown, not judged"
    assert run([0, 0, 0])[0] == "status=0"
    assert run([0, 2, 0])[0] == "status=2"
    assert run([0, 0, 2])[0] == "status=2", "a short run compare.py cannot read fails CI"


def test_ci_runs_the_scripts_tests_beside_mvn_install_and_stops_them_when_it_ends_early(tmp_path):
    """.ci/run starts the scripts' tests in the background while mvn install runs: their verdict counts
    (a failure fails CI after install), and an install that fails, a kill or a Ctrl-C leaves nothing running."""
    ci = (REPO / ".ci" / "run").read_text()
    part = re.search(r"\n(pytest_pid=\n.*?\n\[ \"\$rc\" -eq 0 \] \|\| .*?\n)", ci, re.S)
    assert part, "the part of .ci/run that runs the scripts' tests beside mvn install"

    def start(tests, mvn):
        """That part with the tests and mvn stubbed; as from a terminal: this test may itself run where SIGINT
        is ignored (a background job, as in .ci/run), and a signal ignored on entry to a shell cannot be trapped."""
        script = (f"set -euo pipefail\nlog() {{ :; }}\ntoolchains=$(mktemp)\npython3() {{ echo $BASHPID >tests.pid; {tests}; }}\n"
                  f"mvn() {{ {mvn}; }}\n{part.group(1)}echo installed-and-tested\n")
        return subprocess.Popen(["bash", "-c", script], cwd=tmp_path, stdout=subprocess.PIPE, text=True,
                                start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def tests_left_running():
        pid = int((tmp_path / "tests.pid").read_text())
        (tmp_path / "tests.pid").unlink()
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    for mvn_rc, tests_rc in ((0, 0), (0, 3), (1, 0)):
        p = start(f"sleep 2; return {tests_rc}", f"for i in $(seq 100); do [ -s tests.pid ] && break; sleep 0.1; done; return {mvn_rc}")
        out, _ = p.communicate(timeout=30)
        left = tests_left_running()
        if mvn_rc:
            assert p.returncode == mvn_rc and not left, "mvn install failed: the scripts' tests are stopped, not left running"
        elif tests_rc:
            assert p.returncode == tests_rc and "installed-and-tested" not in out, "a failed test of the scripts fails CI"
        else:
            assert p.returncode == 0 and "installed-and-tested" in out and not left

    # stopped from outside while mvn install runs: a kill of the script alone (only its trap can stop
    # the tests then), or Ctrl-C (SIGINT to the whole foreground group)
    for sig, code, kill in ((signal.SIGTERM, 143, os.kill), (signal.SIGINT, 130, os.killpg)):
        p = start("exec sleep 20", "sleep 2")
        deadline = time.monotonic() + 10
        while not (tmp_path / "tests.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        kill(p.pid, sig)
        p.communicate(timeout=30)
        assert p.returncode == code, sig.name
        assert not tests_left_running(), sig.name


def test_a_claim_added_to_a_technique_file_is_gated(tmp_path, monkeypatch):
    techs = techniques_copy(tmp_path, lambda f: f["keys"]["claims"].append(
        {"id": "keys-new", "ci": "claims", "metric": "bytesPerEntry", "variant": "LONG_KEY", "baseline": "STRING_KEY",
         "max_ratio": 0.5}))
    monkeypatch.setattr(config, "TECHNIQUES_DIR", techs)
    claims = [args for name, _, ids, args in ci_plan.plan(config.load_suite(), base="0" * 40) if name == "claims"][0]
    assert any(a.startswith("-Djmh.claims=") and "keys-new" in a for a in claims)


def test_the_two_commit_pass_takes_gain_claims_only(tmp_path, monkeypatch):
    techs = techniques_copy(tmp_path, lambda f: f["keys"]["claims"].append(
        {"id": "keys-new", "ci": "gate", "metric": "bytesPerEntry", "variant": "LONG_KEY", "baseline": "STRING_KEY",
         "max_ratio": 0.5}))
    monkeypatch.setattr(config, "TECHNIQUES_DIR", techs)
    with pytest.raises(config.InputError, match="judges gains"):
        config.load_suite()


def test_a_technique_file_names_the_shared_packages_or_classes_it_uses(tmp_path, monkeypatch):
    techs = techniques_copy(tmp_path, lambda f: f["keys"].update(uses=["io.hotpathbench.postgres"]))
    monkeypatch.setattr(config, "TECHNIQUES_DIR", techs)
    assert config.load_suite().by_id("keys").raw["uses"] == ["io.hotpathbench.postgres"]
    techs = techniques_copy(tmp_path / "class", lambda f: f["keys"].update(uses=["io.hotpathbench.cache.GcPauseLog"]))
    monkeypatch.setattr(config, "TECHNIQUES_DIR", techs)
    assert config.load_suite().by_id("keys").raw["uses"] == ["io.hotpathbench.cache.GcPauseLog"], "one class"
    for i, bad in enumerate((["io.hotpathbench.no_such_package"], ["postgres"], ["io.hotpathbench.../keys"],
                             "io.hotpathbench.postgres", [""], ["io.hotpathbench.cache.NoSuchClass"])):
        techs = techniques_copy(tmp_path / str(i), lambda f: f["keys"].update(uses=bad))
        monkeypatch.setattr(config, "TECHNIQUES_DIR", techs)
        with pytest.raises(config.InputError, match="uses"):
            config.load_suite()


# ---------------------------------------------------------------- a new technique in one file

def test_a_new_technique_appears_in_report_gate_and_ci_with_no_other_file(tmp_path, monkeypatch, capsys):
    """A technique is added by writing its file under scripts/techniques/: report, gate and CI find it.
    (Its Java classes produce the results; here a real run's split results are renamed into it.)"""
    def edit(files):
        files["rename"] = {
            "title": "Renaming: a test technique", "benchmark": "io.hotpathbench.rename.RenameBenchmark",
            "test": "io.hotpathbench.rename.RenameTest", "baseline": "OLD",
            "cited": [{"id": "rename-fig", "label": "NEW vs OLD", "method": "run", "variant": "NEW", "baseline": "OLD"}],
            "answer": {"cite": "rename-fig", "pick": "NEW"},
            "claims": [{"id": "rename-2x", "ci": "gate", "method": "run", "variant": "NEW", "baseline": "OLD", "min_speedup": 1.5}]}
    techs = techniques_copy(tmp_path, edit)
    monkeypatch.setattr(config, "TECHNIQUES_DIR", techs)

    def renamed(r):
        return r["benchmark"].endswith("SplitBenchmark.split") and r["params"].get("delimiter") == "||" \
            and r["params"].get("fields") == "16" and r["params"].get("variant") in ("JDK_SPLIT", "INDEX_OF")

    def rename(r):
        r["benchmark"] = "io.hotpathbench.rename.RenameBenchmark.run"
        r["params"] = {"variant": {"JDK_SPLIT": "OLD", "INDEX_OF": "NEW"}[r["params"]["variant"]]}
    src = REPO / "results" / "20261125T030920Z-5ee6d28"
    data = [r for r in json.loads(src.with_suffix(".json").read_text()) if renamed(r)]
    prov = json.loads(src.with_suffix(".provenance.json").read_text())
    prov["trials"]["schedule"] = [e for e in prov["trials"]["schedule"] if renamed(e)]
    for r in data + prov["trials"]["schedule"]:
        rename(r)
    run = tmp_path / "20261125T030920Z-5ee6d28.json"
    run.write_text(json.dumps(data))
    run.with_suffix(".provenance.json").write_text(json.dumps(prov))
    # CI
    assert ("gate" in [n for n, _, ids, _ in ci_plan.plan(config.load_suite()) if "rename-2x" in ids])
    # gate
    import gate
    assert gate.main([str(run), "--claim-ids", "rename-2x"]) == 0
    assert "rename-2x: NEW vs OLD" in capsys.readouterr().out
    # report (files given: taken as given)
    import report
    readme = tmp_path / "README.md"
    readme.write_text("<!-- answers:start -->\n<!-- answers:end -->\n")
    assert report.main([str(run), "--out", str(tmp_path / "REPORT.md"), "--no-charts", "--readme", str(readme)]) == 0
    text = (tmp_path / "REPORT.md").read_text()
    assert "## Renaming: a test technique" in text and "NEW vs OLD" in text
    assert "Renaming" in readme.read_text() and "3.1x [2.87, 3.35]" in readme.read_text()


# ---------------------------------------------------------------- the front door

def test_every_link_in_the_tracked_documents_stays_inside_the_repository():
    """A user has only the clone: every Markdown link and image in a tracked document is relative
    and names a file or folder that exists in it, and nothing tracked points at a path outside."""
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    docs = [p for p in tracked if p.endswith(".md")]
    assert "README.md" in docs and any(p.startswith("docs/") for p in docs)
    link = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
    checked = 0
    for rel in docs:
        path = REPO / rel
        for target in link.findall(path.read_text(encoding="utf-8")):
            if target.startswith("#"):
                continue
            assert not re.match(r"[a-z]+:", target) and not target.startswith("/"), f"{rel}: {target} leaves the repository"
            dest = (path.parent / target.split("#")[0]).resolve()
            assert dest.is_relative_to(REPO.resolve()) and dest.exists(), f"{rel}: {target} does not resolve inside the clone"
            checked += 1
    assert checked > 10
    shared = ".." + "/shared"  # spelt apart so that this file does not match itself
    outside = subprocess.run(["git", "grep", "-n", "-F", "-e", shared, "--", "."], cwd=REPO,
                             capture_output=True, text=True)
    assert outside.stdout == "", outside.stdout


def test_the_gate_pass_names_gate_pys_options_and_bad_ones_are_refused():
    assert config.judging(["--undecided", "warn", "--fork-figure", "best"]) == {
        "undecided": "warn", "fork_figure": "best", "strict": frozenset()}
    assert config.judging([]) == {"undecided": "fail", "fork_figure": "mean", "strict": frozenset()}
    assert config.judging(["--strict", "a,b"])["strict"] == {"a", "b"}
    for bad in (["--baseline", "x"], ["--undecided"], ["--fork-figure", "median"], ["--strict"], ["--strict", "a,,b"]):
        with pytest.raises(ValueError):
            config.judging(bad)
    suite = config.load_suite()
    out = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py"), "--judge"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.split() == suite.gate_judge()
    config.judging(suite.gate_judge())  # CI's own options are ones gate.py takes


def test_the_claims_ci_judges_strictly_are_gain_claims(suite):
    from hpb import twocommit
    strict = config.judging(suite.gate_judge())["strict"]
    gains = {c["id"] for _, c in twocommit.gained_pairs(suite)}
    assert strict <= gains, strict - gains  # gate.py refuses any other (test_gate.py)


def test_a_gate_judged_by_the_fast_state_measures_enough_iterations_a_fork():
    from hpb import twocommit
    suite = config.load_suite()
    if config.judging(suite.gate_judge())["fork_figure"] != "best":
        pytest.skip("CI's gate judges fork means")
    args = next(p["args"] for p in suite.ci_passes.values() if p.get("gate"))
    iterations = [int(a.split("=", 1)[1]) for a in args if a.startswith("-Djmh.i=")]
    assert iterations and iterations[0] >= twocommit.FAST_STATE_MIN_ITERATIONS, args


# ---------------------------------------------------------------- the gate's scope

def test_the_gate_scope_follows_the_paths_a_change_touches(suite):
    from hpb import scope
    of = lambda *paths: scope.of_paths(paths, suite).techniques  # noqa: E731
    # the audit log lists split's IndexOfSplitter and Splitter in `uses`, not the rest of its package
    assert of("src/main/java/io/hotpathbench/split/IndexOfSplitter.java") == {"split", "audit"}
    assert of("src/main/java/io/hotpathbench/split/FeatureLines.java") == {"split"}
    assert of("src/jmh/java/io/hotpathbench/validation/ValidatorBenchmark.java",
              "src/test/java/io/hotpathbench/redis/RedisTest.java") == {"validation", "redis"}
    for shared in ("pom.xml", "src/jmh/java/io/hotpathbench/BenchmarkDefaults.java", "src/main/resources/x.properties"):
        assert scope.EVERY in of(shared, "src/main/java/io/hotpathbench/split/X.java"), shared
        assert scope.of_paths([shared], suite).covers("cache"), shared
    assert of("README.md", "docs/gate.md", "scripts/gate.py", "scripts/suite.json", ".ci/run", "results/x.json",
              "jmh-maven-plugin/src/main/java/io/hotpathbench/jmh/TrialRun.java") == set()
    plugin = scope.of_paths(["jmh-maven-plugin/src/main/java/io/hotpathbench/jmh/TrialRun.java"], suite)
    assert plugin.instrument.endswith("TrialRun.java") and not plugin.techniques
    s = scope.of_paths(["src/main/java/io/hotpathbench/split/X.java"], suite)
    assert s.covers("split") and not s.covers("validation") and s.why["split"].endswith("X.java")


def test_a_pom_change_reaches_only_the_techniques_whose_listed_dependencies_it_changes(suite):
    from hpb import scope
    pom = (REPO / "pom.xml").read_text(encoding="utf-8")
    def of(after):
        return scope.of_paths(["pom.xml"], suite, lambda p: pom, lambda p: after).techniques
    def bump(prop):
        new, n = re.subn(rf"<{re.escape(prop)}>([^<]*)</", lambda m: f"<{prop}>{m.group(1)}.1</", pom)
        assert n == 1, prop
        return new
    assert of(bump("jedis.version")) == {"redis"}, "jedis is Redis's alone"
    assert of(bump("guava.version")) == {"split"}
    assert of(bump("jedis.version").replace("<guava.version>", "<guava.version>0")) == {"redis", "split"}
    assert of(bump("jmh.version")) == {scope.EVERY}, "no technique lists JMH: every one runs on it"
    assert of(bump("avaje-validator.version")) == {scope.EVERY}, "its version is used by the compiler's set-up too"
    assert of(bump("maven.compiler.release")) == {scope.EVERY}, "a property plugins read without naming it"
    assert of(pom.replace("<dependencies>", "<dependencies>\n    <!-- a note -->", 1)) == set(), "a comment measures nothing"
    assert of(pom.replace("</dependencies>", "<dependency><groupId>x</groupId><artifactId>y</artifactId></dependency></dependencies>", 1)) == {scope.EVERY}
    assert of("not xml") == {scope.EVERY}
    assert scope.of_paths(["pom.xml"], suite, lambda p: None, lambda p: pom).techniques == {scope.EVERY}


def test_a_pom_change_to_what_the_benchmarks_build_never_runs_reaches_no_technique(suite):
    from hpb import scope
    pom = (REPO / "pom.xml").read_text(encoding="utf-8")
    def of(after):
        return scope.of_paths(["pom.xml"], suite, lambda p: pom, lambda p: after).techniques
    def sub(old, new):
        after, n = re.subn(old, new, pom, count=1)
        assert n == 1, old
        return after
    # plugins that act after test-compile, and a profile only -P turns on
    assert of(sub(r"(maven-surefire-plugin</artifactId>\s*<version>)[^<]*", r"\g<1>9.9.9")) == set()
    assert of(sub(r"<argLine>-Xmx4g</argLine>", "<argLine>-Xmx8g</argLine>")) == set()
    assert of(sub(r"(maven-jar-plugin</artifactId>\s*<version>)[^<]*", r"\g<1>9.9.9")) == set()
    assert of(sub(r"<readiness.jdk>25<", "<readiness.jdk>26<")) == set()
    assert of(sub(r"<junit.version>[^<]*<", "<junit.version>6.0.0<")) == set(), "JUnit: no benchmark imports it"
    # what the build of the benchmarks does run or read still reaches every technique
    assert of(sub(r"(maven-compiler-plugin</artifactId>\s*<version>)[^<]*", r"\g<1>9.9.9")) == {scope.EVERY}
    assert of(sub(r"(build-helper-maven-plugin</artifactId>\s*<version>)[^<]*", r"\g<1>9.9.9")) == {scope.EVERY}
    assert of(sub(r"<id>readiness</id>", "<id>readiness</id><activation><activeByDefault>true</activeByDefault></activation>")) \
        == {scope.EVERY}, "a profile that turns itself on is part of every build"
    assert of(sub(r"<junit.version>[^<]*<", "<junit.version>6.0.0<").replace(
        "<artifactId>junit-jupiter</artifactId>", "<artifactId>junit-jupiter</artifactId><version>6.0.0</version>", 1)
        .replace("<maven.compiler.release>17<", "<maven.compiler.release>21<")) == {scope.EVERY}


def test_no_benchmark_or_technique_code_uses_junit():
    """scope.BUILD_ONLY puts JUnit's version out of the gate's scope because the code the benchmarks
    run never loads it; this keeps that true."""
    uses = [str(p.relative_to(REPO)) for d in ("src/main", "src/jmh") for p in (REPO / d).rglob("*.java")
            if "org.junit" in p.read_text(encoding="utf-8")]
    assert uses == []


def test_a_technique_file_puts_its_technique_in_scope_only_when_what_the_gate_measures_differs(suite):
    from hpb import scope
    path = "scripts/techniques/split.json"
    now = json.loads((REPO / path).read_text())
    same = json.dumps({**now, "note": "another note", "title": "t", "claims": [{**c, "why": "reworded"} for c in now["claims"]],
                       "cited": [{**c, "label": "relabelled"} for c in now["cited"]]})
    assert scope.of_paths([path], suite, lambda p: same).techniques == set(), "prose is not measured"
    lower = json.loads(same)
    for c in lower["claims"]:
        if "min_speedup" in c:
            c["min_speedup"] = c["min_speedup"] / 2
    assert scope.of_paths([path], suite, lambda p: json.dumps(lower)).techniques == {"split"}
    cited = json.loads(same)
    cited["cited"][0]["params"] = {"delimiter": "::", "fields": "64"}
    assert scope.of_paths([path], suite, lambda p: json.dumps(cited)).techniques == {"split"}, "a cited configuration"
    new = scope.of_paths([path], suite, lambda p: None)
    assert new.techniques == {"split"} and new.new == {"split"}, "a technique file the base lacks"


def test_a_java_change_to_comments_and_blank_space_alone_reaches_nothing(suite):
    from hpb import scope
    path = "src/main/java/io/hotpathbench/split/IndexOfSplitter.java"
    text = (REPO / path).read_text()
    noted = text.replace("public final class", "/** A note. */\n// another\npublic   final class", 1)
    assert noted != text
    assert scope.of_paths([path], suite, lambda p: text, lambda p: noted).techniques == set()
    changed = text + "\nclass Extra {}\n"
    assert scope.of_paths([path], suite, lambda p: text, lambda p: changed).techniques == {"split", "audit"}


def test_a_support_package_reaches_exactly_the_techniques_that_list_it(suite):
    from dataclasses import replace
    from hpb import scope
    techniques = [replace(t, raw={**t.raw, "uses": ["io.hotpathbench.support"]}) if t.id in ("keys", "cache") else t
                  for t in suite.techniques]
    with_uses = replace(suite, techniques=techniques)
    path = "src/main/java/io/hotpathbench/support/Pool.java"
    assert scope.of_paths([path], with_uses).techniques == {"keys", "cache"}
    assert scope.of_paths([path], suite).techniques == {scope.EVERY}, "a package no technique lists is shared code"
    users = {t.id for t in suite.techniques if "io.hotpathbench.postgres" in (t.raw.get("uses") or [])}
    assert scope.of_paths(["src/main/java/io/hotpathbench/postgres/LocalPostgres.java"], suite).techniques == users
    # a class of a technique's package that another technique uses (G1 runs the cache's GcPauseLog)
    # reaches both; the rest of that package reaches its own technique alone
    assert scope.of_paths(["src/main/java/io/hotpathbench/cache/GcPauseLog.java"], suite).techniques == {"cache", "gc"}
    assert scope.of_paths(["src/main/java/io/hotpathbench/cache/CaffeineFeatureCache.java"], suite).techniques == {"cache"}



def test_an_enums_constants_are_read_with_their_arguments_and_bodies():
    from hpb import scope
    src = scope.normalize_java("""enum Kind implements Thing { // A, B
        @Deprecated ALPHA("a, b", 1) { Thing make() { return new AlphaThing(); } },
        BETA { Thing make() { return new BetaThing(x -> { }); } }, GAMMA;
        static final int N = 3; }""")
    got = scope.enum_constants(src)
    assert list(got) == ["ALPHA", "BETA", "GAMMA"]
    assert "AlphaThing" in got["ALPHA"] and "BetaThing" in got["BETA"] and got["GAMMA"] == ""
    assert list(scope.enum_constants("enum E { X, Y }")) == ["X", "Y"], "no `;` after the last constant"


def test_the_variants_a_change_comes_nearest_to_are_read_from_the_package_it_changes():
    """The audit log's batch writer names its class in BATCH_WRITER's body alone; the insert's common base
    names that class, so every other variant is reached, further off."""
    from hpb import scope
    read = lambda p: (REPO / p).read_text() if (REPO / p).is_file() else None  # noqa: E731
    near = scope.variants_reached("io/hotpathbench/audit", ["src/main/java/io/hotpathbench/audit/BatchWriterLog.java"], read)
    assert near["BATCH_WRITER"] == 0 and min(k for v, k in near.items() if v != "BATCH_WRITER") > 0, near
    near = scope.variants_reached("io/hotpathbench/split", ["src/main/java/io/hotpathbench/split/IndexOfSplitter.java"], read)
    assert near["INDEX_OF"] == 0 and near["splitFirst"] == 0 and "JDK_SPLIT" not in near and near.get("*", 1) > 0, near
    # only splitFirst's body changed: the benchmark method that calls it, and no variant
    assert scope.variants_reached("io/hotpathbench/split", ["src/main/java/io/hotpathbench/split/IndexOfSplitter.java"], read,
                                  {"src/main/java/io/hotpathbench/split/IndexOfSplitter.java": frozenset({"splitFirst"})}) \
        == {"splitFirst": 0}
    # a class the benchmarks' state builds from (the lines) reaches every configuration ("*"); what is no class
    # of src/main, or the enum itself, could reach any
    assert scope.variants_reached("io/hotpathbench/split", ["src/main/java/io/hotpathbench/split/FeatureLines.java"], read) == {"*": 0}
    assert scope.variants_reached("io/hotpathbench/split", ["src/jmh/java/io/hotpathbench/split/SplitBenchmark.java"], read) is None
    assert scope.variants_reached("io/hotpathbench/split", ["src/main/java/io/hotpathbench/split/SplitterType.java"], read) is None


def test_a_change_to_method_bodies_alone_reaches_those_methods_and_the_methods_naming_them():
    from hpb import scope
    text = (REPO / "src/main/java/io/hotpathbench/split/IndexOfSplitter.java").read_text()
    body = lambda old, new: text.replace(old, new, 1)  # noqa: E731
    first = body("return end < 0 ? input : input.substring(0, end);", "return end < 0 ? input : input.substring(0, end).intern();")
    assert scope.changed_members(text, first) == {"splitFirst"}
    find = body("private int find(String input, int from) {", "private int find(String input, int from) { from += 0;")
    assert scope.changed_members(text, find) == {"find", "split"}, "split calls find"
    signature = body("public static String splitFirst(String input, String delimiter)",
                     "public static String splitFirst(CharSequence input, String delimiter)")
    assert scope.changed_members(text, signature) == {"splitFirst"}
    helper = body("return end < 0 ? input : input.substring(0, end);\n    }",
                  "return end < 0 ? input : copy(input.substring(0, end));\n    }\n\n"
                  "    private static String copy(String s) {\n        return new String(s.toCharArray());\n    }")
    helper = helper.replace("import java.util.List;", "import java.util.List;\nimport java.util.Objects;", 1)
    assert helper != text and scope.changed_members(text, helper) == {"splitFirst", "copy"}, "an extracted helper, an import"
    for whole in (body("private int sizeHint = 10;", "private int sizeHint = 12;"),  # a field
                  body("public final class IndexOfSplitter", "public class IndexOfSplitter"),  # the declaration
                  text + "\nclass Extra {}\n", "enum E { A }"):
        assert scope.changed_members(text, whole) is None
    rest, methods = scope.java_methods("class A { int x = 1; @Override public String f(int a) throws B { return g(() -> { }); } "
                                       "static { } private Runnable r = new Runnable() { public void run() { } }; void g() { } }")
    assert sorted(n for n, _ in methods.values()) == ["f", "g"] and "static { }" in rest and "run()" in rest


def test_a_class_another_technique_uses_reaches_it_only_through_the_methods_it_names(suite):
    """The audit log splits with IndexOfSplitter's split, never its splitFirst: a change to splitFirst's body
    reaches split alone, one to split's reaches both, and one outside method bodies reaches both."""
    from hpb import scope
    path = "src/main/java/io/hotpathbench/split/IndexOfSplitter.java"
    text = (REPO / path).read_text()
    reach = lambda after: scope.of_paths([path], suite, lambda p: text, lambda p: after if p == path else tree(p))  # noqa: E731
    tree = lambda p: (REPO / p).read_text() if (REPO / p).is_file() else None  # noqa: E731
    first = reach(text.replace("input.substring(0, end);", "input.substring(0, end).intern();", 1))
    assert first.techniques == {"split"} and first.members == {path: {"splitFirst"}}
    assert reach(text.replace("int next = find(input, 0);", "int next = find(input, 0) + 0;", 1)).techniques == {"split", "audit"}
    assert reach(text.replace("private int sizeHint = 10;", "private int sizeHint = 12;", 1)).techniques == {"split", "audit"}


def test_a_pull_request_judges_the_figures_a_change_reaches_before_the_headline_it_does_not(suite):
    """A change to splitFirst's body reaches the split-first figures and not the headline's configurations
    (their code is the same on both sides): the split-first figures are judged, not left to the scheduled run."""
    from hpb import scope
    path = "src/main/java/io/hotpathbench/split/IndexOfSplitter.java"
    t = suite.by_id("split")
    minutes = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"])
    s = scope.Scope(frozenset({"split"}), {"split": path}, paths={"split": (path,)}, members={path: frozenset({"splitFirst"})})
    notes = []
    (ids,) = [ids for _, kind, ids, _ in ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=minutes, notes=notes) if kind == "gate"]
    assert {"split-first", "split-first-limit"} <= set(ids) and not set(ids) & set(ci_plan.headline_ids(t)), ids
    assert any("reaches none of the configurations behind" in n for n in notes), notes
    whole = scope.Scope(frozenset({"split"}), {"split": path}, paths={"split": (path,)})
    (ids,) = [ids for _, kind, ids, _ in ci_plan.plan(suite, "0" * 40, whole, "1" * 40, minutes=minutes) if kind == "gate"]
    assert set(ci_plan.headline_ids(t)) <= set(ids), "the whole class changed: the headline first"


def test_a_pull_request_fills_a_technique_with_the_figures_of_the_variant_its_change_reaches_first(suite):
    """A change to the batch writer alone: where the audit log does not fit whole, the figures running
    BATCH_WRITER come before those that do not (file order put three `@Async` figures first, and the
    pass of audit-batch-of-16-rows missed), and stderr says why."""
    from hpb import scope
    minutes = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"])
    t = next(t for t in suite.techniques if t.id == "audit")
    s = scope.of_paths(["src/main/java/io/hotpathbench/audit/BatchWriterLog.java"], suite)
    notes = []
    ids = next(ids for name, kind, ids, _ in ci_plan.plan(suite, base="0" * 40, scope=s, minutes=minutes, notes=notes)
               if kind == "gate")
    runs = lambda i: any(v == "BATCH_WRITER" for _, ps in minutes.configurations(t, [i]) for _, v in ps)  # noqa: E731
    extra = [i for i in ids if i not in ci_plan.headline_ids(t)]
    assert extra and runs(extra[0]), ids
    assert [runs(i) for i in extra] == sorted((runs(i) for i in extra), reverse=True), ids
    if set(ids) != set(ci_plan.all_ids(t)):
        assert any("nearest to BATCH_WRITER" in n for n in notes), notes
    plain = ci_plan.filled(t, ci_plan.headline_ids(t), minutes, 10, float(suite.raw["ci"]["pr"]["minutes_per_technique"]))
    assert [i for i in plain if i not in ci_plan.headline_ids(t)] == \
        [i for i in ci_plan.all_ids(t) if i in plain and i not in ci_plan.headline_ids(t)], "without a change's variants: file order"


REGRESSION_TARGETS = {"indexof": "split", "splitfirst": "split", "shared": "validation", "keys": "keys", "latency": "latency",
                      "cache": "cache", "redis": "redis", "gc": "gc", "writes": "writes", "audit": "audit",
                      "instrument": None}


def test_every_regression_patch_applies_cleanly_and_reaches_its_target(suite):
    """Each patch in scripts/tests/regressions applies to this tree (git apply --check) and reaches the
    technique it targets alone, or (the instrument's) no technique but the instrument; every technique
    and the instrument have one."""
    patches = sorted((SCRIPTS / "tests" / "regressions").glob("*.patch"))
    for t in suite.techniques:
        assert any(REGRESSION_TARGETS.get(p.stem.split("-")[0]) == t.id for p in patches), f"no patch for {t.id}"
    assert any(p.stem.startswith("instrument-") for p in patches)
    for patch in patches:
        assert_applies_and_reaches(patch, REGRESSION_TARGETS[patch.stem.split("-")[0]], suite)


def assert_applies_and_reaches(patch, want, suite):
    """The patch applies to this tree (git apply --check) and reaches technique `want` (and at most techniques
    that list shared code in `uses`: the audit log runs split's IndexOfSplitter), or, `want` None, the
    instrument alone."""
    from hpb import scope
    check = subprocess.run(["git", "apply", "--check", str(patch)], cwd=REPO, capture_output=True, text=True)
    assert check.returncode == 0, f"{patch.name}: {check.stderr}"
    paths = re.findall(r"^\+\+\+ b/(\S+)", patch.read_text(), re.M)
    assert paths, patch.name
    with tempfile.TemporaryDirectory() as tmp:  # the patched files, beside this tree's: CI's own reading of the change
        for p in paths:
            if (REPO / p).is_file():
                (Path(tmp) / p).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(REPO / p, Path(tmp) / p)
        subprocess.run(["git", "apply", str(patch)], cwd=tmp, check=True, capture_output=True)
        after = {p: (Path(tmp) / p).read_text() for p in paths if (Path(tmp) / p).is_file()}
    s = scope.of_paths(paths, suite, lambda p: (REPO / p).read_text() if (REPO / p).is_file() else None, after.get)
    if want is None:
        assert s.instrument and not s.techniques, patch.name
    else:
        users = {u.id for u in suite.techniques if u.raw.get("uses")}  # which of them, test_the_gate_scope_... says
        assert want in s.techniques and s.techniques - {want} <= users, (patch.name, s.techniques)


def _code_lines(patch_text: str, sign: str) -> list:
    """A patch's removed ("-") or added ("+") lines, comment lines left out."""
    out = []
    for line in patch_text.splitlines():
        if line.startswith(sign) and not line.startswith(sign * 3):
            code = line[1:].strip()
            if code and not code.startswith(("//", "/*", "*")):
                out.append(line[1:])
    return out


def test_every_neutral_patch_changes_only_a_comment_or_one_local_name_and_reaches_its_target(suite):
    """Each patch in scripts/tests/neutral (the gate's A/A passes of differing builds) applies to this tree,
    reaches the technique its name starts with (or, the instrument's, the instrument alone) as CI's scope
    reads the change (its base and patched text: a comment alone in a technique's Java reaches nothing,
    so CI would never measure it), and changes nothing but comments and the name of one identifier: its
    removed code lines, with that one name replaced, are its added ones. Every technique and the instrument have one, and no name is also a
    regression patch's (lab/gate_pass.py finds both by name)."""
    neutral = sorted((SCRIPTS / "tests" / "neutral").glob("*.patch"))
    regressions = {p.stem for p in (SCRIPTS / "tests" / "regressions").glob("*.patch")}
    prefixes = {p.stem.split("-")[0] for p in neutral}
    assert {t.id for t in suite.techniques} | {"instrument"} <= prefixes
    for patch in neutral:
        assert patch.stem not in regressions, patch.name
        text = patch.read_text()
        removed, added = _code_lines(text, "-"), _code_lines(text, "+")
        assert len(removed) == len(added), f"{patch.name}: adds or removes code, not only a comment or a name"
        if removed:
            old = {w for line in removed for w in re.findall(r"\b[A-Za-z_]\w*\b", line)}
            new = {w for line in added for w in re.findall(r"\b[A-Za-z_]\w*\b", line)}
            assert len(old - new) == 1 and len(new - old) == 1, f"{patch.name}: renames more than one name"
            (a,), (b,) = old - new, new - old
            assert [re.sub(rf"\b{a}\b", b, line) for line in removed] == added, patch.name
        else:
            assert any(line.startswith("+") and line[1:].strip().startswith("//") for line in text.splitlines()), patch.name
        want = patch.stem.split("-")[0]
        assert_applies_and_reaches(patch, None if want == "instrument" else want, suite)


def test_the_workflow_calls_the_scripts_ci_run_calls():
    """.github/workflows/bench.yml runs .ci/run itself for pull requests and each night (so every script
    .ci/run calls runs there too), the nightly matrix over JDK 17 and 25 with HPB_NIGHT and HPB_JDK, and
    every script it names exists; .ci/run checks it with actionlint."""
    wf = (REPO / ".github" / "workflows" / "bench.yml").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    assert "actionlint .github/workflows/" in ci and "go install" in ci
    assert wf.count("run: bash .ci/run") == 2
    called = set(re.findall(r"scripts/[a-z_]+\.py", ci))
    assert {"scripts/ci_plan.py", "scripts/gate.py", "scripts/compare.py", "scripts/readiness.py"} <= called
    named = set(re.findall(r"scripts/[a-z_]+\.py", wf))
    assert named and all((REPO / p).is_file() for p in named | called)
    assert "HPB_NIGHT" in wf and "HPB_JDK" in wf and 'jdk: ["17", "25"]' in wf
    assert "HPB_NIGHT" in ci and "HPB_NIGHT" in (SCRIPTS / "ci_plan.py").read_text()
    assert "upload-artifact" in wf and "download-artifact" in wf and "scripts/report.py" in wf
    assert "python3 scripts/ci_plan.py --claims-log" in ci and "--claims-log --base" in wf
    # as many scheduled runs a day as the rotation counts on, each taking the next night of it
    a_day = json.loads((SCRIPTS / "suite.json").read_text())["ci"]["scheduled"]["runs_a_day"]
    hours = re.search(r'cron: "\d+ ([\d,]+) \* \* \*"', wf).group(1).split(",")
    assert len(hours) == a_day and f"/ {86400 // a_day} ))" in wf


def test_the_claims_log_names_every_removed_or_loosened_claim():
    before = {"a": {"id": "a", "min_speedup": 2, "method": "m"}, "b": {"id": "b", "max_ratio": 0.3},
              "c": {"id": "c", "min_speedup": 2}, "d": {"id": "d", "within_pct": 5, "ci": "x"}}
    after = {"a": {"id": "a", "min_speedup": 1.5, "method": "m"}, "b": {"id": "b", "max_ratio": 0.2},
             "d": {"id": "d", "within_pct": 5, "ci": "y"}}
    got = {cid: what for cid, _, _, what in ci_plan.loosened(before, after)}
    assert got == {"a": "loosened", "c": "removed"}, "a tightened bar or a renamed pass needs no entry"
    moved = dict(after, a={"id": "a", "min_speedup": 1.5, "method": "other"})
    assert ci_plan.loosened(after, moved)[0][3].startswith("redefined (method")
    p = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py"), "--claims-log"], cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("claims log: "), p.stdout + p.stderr


def test_the_gate_pass_takes_the_figures_of_the_techniques_in_scope(suite):
    from hpb import breadth, scope
    base, head = "0" * 40, "1" * 40
    line = lambda s, kind="gate": [x for x in ci_plan.plan(suite, base, s, head) if x[1] == kind]  # noqa: E731
    (name, kind, ids, args), = line(scope.Scope(frozenset({"split"}), {"split": "x"}))
    assert set(ci_plan.headline_ids(suite.by_id("split"))) <= set(ids) <= {s["id"] for s in breadth.subjects(suite.by_id("split"))}
    assert args[:3] == [f"-Djmh.against={base}", "-Djmh.gate", f"-Djmh.claims={','.join(ids)}"]
    gate_args = suite.ci_passes["gate"]["args"]
    assert args[-len(gate_args):] == gate_args
    (name, kind, ids, args), = line(scope.Scope(frozenset(), {}), "unchanged")
    assert "-Djmh.gate" not in args, "an unchanged tree's run judges nothing"
    every = ci_plan.plan(suite, base, scope.Scope(frozenset({scope.EVERY}), {scope.EVERY: "pom.xml"}), head)
    assert [k for _, k, _, _ in every if k in ("gate", "instrument")] == ["instrument"], "every technique: A/A, the rest nightly"
    (name, kind, ids, args), = [x for x in every if x[1] == "instrument"]
    assert args[:2] == [f"-Djmh.against={head}", "-Djmh.gate"] and ids == suite.raw["ci"]["instrument"]["claims"]
    plugin = ci_plan.plan(suite, base, scope.Scope(frozenset({"keys"}), {"keys": "x"}, instrument="jmh-maven-plugin/x"), head)
    assert [k for _, k, _, _ in plugin if k != "claims"] == ["instrument", "gate"]


def test_a_new_technique_is_judged_on_this_commit_alone(suite):
    from hpb import scope
    plan = ci_plan.plan(suite, "0" * 40, scope.Scope(frozenset({"keys", "latency"}), {}, new=frozenset({"latency"})), "1" * 40)
    gate = [x for x in plan if x[1] == "gate"][0]
    assert not any(i.startswith("latency") for i in gate[2]), "the base lacks it: nothing to compare"
    (name, kind, ids, args), = [x for x in plan if x[1] == "new"]
    assert ids == [c["id"] for c in suite.by_id("latency").claims] and args[0].startswith("-Djmh.claims=")
    assert args[1:] == suite.ci_passes["new"]["args"]
    assert not [x for x in plan if x[1] == "claims" and any(i.startswith("latency") for i in x[2])]


def test_a_claims_pass_keeps_the_claims_of_the_techniques_in_scope_and_is_left_out_without_any(suite):
    from hpb import scope
    claims = lambda s: [x for x in ci_plan.plan(suite, "0" * 40, s, "1" * 40) if x[1] == "claims"]  # noqa: E731
    assert claims(scope.Scope(frozenset(), {})) == [], "a change reaching no technique makes no claims pass"
    (name, _, ids, args), = claims(scope.Scope(frozenset({"keys"}), {}))
    keys_ids = [c["id"] for c in suite.by_id("keys").claims if c["ci"] == name]
    assert keys_ids and ids == keys_ids and args[0] == f"-Djmh.claims={','.join(keys_ids)}"
    assert claims(scope.Scope(frozenset({"validation"}), {})) == [], "the validator has no footprint claim"


def test_minutes_and_the_rotation_come_from_measured_forks(suite):
    minutes = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"])
    assert minutes.window == (100, 0.1)
    # a technique added since the newest full runs has no measured forks yet: it waits, said so
    measured = [t for t in suite.techniques if minutes.configurations(t, ci_plan.all_ids(t))]
    assert len(measured) >= 6
    for t in measured:
        whole, head = minutes.minutes(t, ci_plan.all_ids(t), 10), minutes.minutes(t, ci_plan.headline_ids(t), 10)
        assert whole is not None and head is not None and 0 < head <= whole, t.id
        assert minutes.minutes(t, ci_plan.all_ids(t), 20) == pytest.approx(2 * whole)
    nights, unplaced = ci_plan.rotation(suite, minutes)
    cap = suite.raw["ci"]["scheduled"]["night_minutes"]
    assert all(ci_plan.jdk_minutes(n, jdk) <= cap for n in nights for jdk in suite.raw["ci"]["scheduled"]["jdks"]), \
        "each JDK's share of a night fits its runner's minutes"
    assert all(u[1] not in {t.id for t in measured} and u[3] == "no full run measured its configurations" for u in unplaced)
    placed = {(jdk, tid, i) for n in nights for jdk, tid, ids, _ in n for i in ids}
    assert placed == {(jdk, t.id, i) for jdk in suite.raw["ci"]["scheduled"]["jdks"] for t in measured
                      for i in ci_plan.all_ids(t)}, "every figure on every JDK, once"
    sc = suite.raw["ci"]["scheduled"]
    assert len(nights) <= sc["nights"] * sc["runs_a_day"], "every figure on both JDKs weekly"
    # each JDK's share is timed from that JDK's own forks where it has them, so no technique's two figures are one
    # (latency's JDK 17 minutes now come from its gate passes in its class's window, JDK 25's from its full runs)
    on25 = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"], "25")
    for t in measured:
        assert on25.minutes(t, ci_plan.all_ids(t), 10) != pytest.approx(minutes.minutes(t, ci_plan.all_ids(t), 10)), t.id
    timed = {(jdk, tid, tuple(ids)): m for n in nights for jdk, tid, ids, m in n}
    for (jdk, tid, ids), m in timed.items():
        own = on25 if jdk == "25" else minutes
        assert m == pytest.approx(own.minutes(suite.by_id(tid), list(ids), sc["trials"])) or m == sc["night_minutes"], (jdk, tid)
    lines = ci_plan.night_lines(suite, nights, 1, "0" * 40)
    assert lines and all(k == "gate" and "-Djmh.gate" in a and any(x.startswith("-Djmh.budget=") for x in a)
                         for _, k, _, a in lines)


def test_ci_plan_says_on_stderr_what_the_gate_takes_and_all_gates_everything():
    p = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py")], cwd=REPO, capture_output=True, text=True,
                       env={k: v for k, v in os.environ.items() if k != "HPB_GATE"})
    assert p.returncode == 0 and p.stderr.startswith("ci_plan: gate scope: ")
    full = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py"), "--all"], cwd=REPO, capture_output=True, text=True)
    assert full.returncode == 0 and "\tgate\t" in full.stdout
    for flag in ("--minutes", "--scheduled"):
        out = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py"), flag], cwd=REPO, capture_output=True, text=True)
        assert out.returncode == 0 and out.stdout, flag


def test_a_change_whose_gate_would_not_fit_ci_is_treated_as_reaching_every_technique(suite):
    """Each technique's checks fit its 30 minutes, but all of them together would overrun CI's 90: the
    plan falls back to the every-technique treatment (the instrument's A/A pass, the figures nightly)."""
    from hpb import scope

    class Fixed:
        def __init__(self, each):
            self.each = each

        def minutes(self, t, ids, trials):
            return self.each

    ids = frozenset(t.id for t in suite.techniques[:3])
    s = scope.Scope(ids, {i: "x" for i in ids})
    cap = float(suite.raw["ci"]["pr"]["total_minutes"])
    fits = ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=Fixed(cap / 3 - 1))
    assert {k for _, k, _, _ in fits if k in ("gate", "instrument")} == {"gate"}
    notes: list = []
    over = ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=Fixed(cap / 3 + 1), notes=notes)
    assert [k for _, k, _, _ in over if k in ("gate", "instrument")] == ["instrument"]
    (_, _, _, args), = [x for x in over if x[1] == "instrument"]
    assert args[0] == f"-Djmh.against={'1' * 40}"
    assert any("treated as a change reaching every technique" in n for n in notes)


def test_a_gate_over_the_minutes_whole_is_cut_to_each_techniques_headline_before_it_gives_up(suite):
    """Techniques that fit their own minutes whole but not the pull request's together are judged on their
    headline and gated claims; only when those do not fit either is the change sent to the scheduled run."""
    from hpb import scope

    class ByIds:
        def __init__(self, whole, head):
            self.whole, self.head = whole, head

        def minutes(self, t, ids, trials):
            return self.whole if list(ids) == ci_plan.all_ids(t) else self.head

    ids = frozenset({"keys", "redis"})
    s = scope.Scope(ids, {i: "x" for i in ids})
    cap = float(suite.raw["ci"]["pr"]["total_minutes"])
    each = float(suite.raw["ci"]["pr"]["minutes_per_technique"])
    notes: list = []
    cut = ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=ByIds(min(each, cap / 2 + 1), cap / 2 - 1), notes=notes)
    (gate,) = [x for x in cut if x[1] == "gate"]
    assert set(gate[2]) == set(ci_plan.headline_ids(suite.by_id("keys")) + ci_plan.headline_ids(suite.by_id("redis")))
    assert any("each is judged on its headline and gated claims" in n for n in notes)
    over = ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=ByIds(min(each, cap / 2 + 1), cap / 2 + 1))
    assert [k for _, k, _, _ in over if k in ("gate", "instrument")] == ["instrument"]


def test_a_technique_with_its_own_gate_window_gets_its_own_gate_pass(suite):
    """A technique file's gate_window replaces the gate's -Djmh.i and -Djmh.r in a pass of its own, and the
    gate's budget is shared between the passes by their minutes; the others keep the gate's window."""
    from hpb import scope
    own = [t for t in suite.techniques if t.raw.get("gate_window")]
    assert own, "G1 measures its rates over its class's window"
    t = own[0]
    plain = next(u for u in suite.techniques if not u.raw.get("gate_window") and ci_plan.headline_ids(u))
    ids = frozenset({t.id, plain.id})
    s = scope.Scope(ids, {i: "x" for i in ids})

    class Fixed:
        def minutes(self, t, ids, trials):
            return 10.0

    passes = [x for x in ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=Fixed()) if x[1] == "gate"]
    assert len(passes) == 2
    mine = next(p for p in passes if set(p[2]) <= set(ci_plan.all_ids(t)))
    other = next(p for p in passes if p is not mine)
    w = t.raw["gate_window"]
    if "iterations" in w:
        assert f"-Djmh.i={w['iterations']}" in mine[3] and f"-Djmh.r={w['time']}" in mine[3]
    else:  # the classes' own window
        assert not any(a.startswith(("-Djmh.i=", "-Djmh.r=")) for a in mine[3])
    assert mine[0] != "gate" and "-Djmh.gateFigure=mean" in mine[3], "few iterations: judged by fork means"
    assert ci_plan.judge_options(suite, mine[3]) == [o for o in suite.gate_judge() if o not in ("--fork-figure", "best")]
    assert "-Djmh.i=100" in other[3] and other[0] == "gate" and "-Djmh.gateFigure=best" in other[3]
    assert ci_plan.judge_options(suite, other[3]) == suite.gate_judge()
    gate_budget = next(a for a in suite.ci_passes["gate"]["args"] if a.startswith("-Djmh.budget="))
    budgets = [int(next(a for a in p[3] if a.startswith("-Djmh.budget="))[13:-1]) for p in passes]
    assert sum(budgets) <= int(gate_budget[13:-1]) and all(b >= 5 for b in budgets)


def test_a_gate_fork_lasts_at_least_one_operation_an_iteration_and_real_gate_passes_come_first(suite):
    """The estimate of a gate fork: a real gate pass's forks where one timed the configuration at that
    window; else the full run's fork with its measured iterations replaced by the gate's, each at least
    one operation long (latency's 560 ms summary makes a 100 x 100 ms fork last about a minute)."""
    minutes = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"])
    key = ("k", ())
    minutes.forks[key] = [(20.0, 5 * 1.0, 0.001)]  # 5 x 1 s measured, 1 ms an operation, 20 s a fork
    assert minutes.fork(key, (100, 0.1)) == pytest.approx(20 - 5 + 10)
    minutes.forks[key] = [(5.0, 6 * 0.56, 0.56)]  # 6 x 500 ms measured, each 560 ms: one operation
    assert minutes.fork(key, (100, 0.1)) == pytest.approx(5 - 6 * 0.56 + 100 * 0.56)
    assert minutes.fork(key, None) == pytest.approx(5.0), "the classes' own window: the fork as it ran"
    minutes.observed[(key, (100, 0.1))] = [59.0, 61.0]
    assert minutes.fork(key, (100, 0.1)) == pytest.approx(60.0)
    assert ci_plan._op_seconds({"mode": "thrpt", "threads": 2, "primaryMetric": {"score": 4.0, "scoreUnit": "ops/us"}}) \
        == pytest.approx(0.5e-6)
    assert ci_plan._op_seconds({"mode": "avgt", "primaryMetric": {"score": 561.5, "scoreUnit": "ms/op"}}) == pytest.approx(0.5615)
    assert ci_plan._op_seconds({"mode": "ss", "primaryMetric": {"score": 3.0, "scoreUnit": "s/op"}}) == 0.0
    timed = [k for (k, w) in minutes.observed if w == (100, 0.1) and k in minutes.forks]
    assert timed, "the committed gate passes timed some configurations at the gate's window"


def test_the_minutes_model_lies_near_every_real_gate_pass_that_timed_a_configuration(suite):
    """Where a committed gate pass timed a configuration, the full-run model (used where none did) is within
    a factor of two of its forks' median (as the model takes them), at the window the gate now measures that technique in: a model
    that missed work (latency's 560 ms summaries, the cache's and G1's waits for JFR) by 4x planned a
    pull request's minutes wrong (docs/gate.md, Minutes). Passes made in the classes' own window (G1's, the
    cache's `gate_window`) count too: their summaries carry no -Djmh.i or -Djmh.r."""
    minutes = ci_plan.Minutes(suite, suite.ci_passes["gate"]["args"])
    compared, own = 0, 0
    for (key, window), seen in list(minutes.observed.items()):
        t = suite.technique(key[0].rsplit(".", 1)[0])
        if key not in minutes.forks or window != ci_plan.gate_window(t, minutes.gate_args):
            continue  # a window the gate no longer measures this technique in (the cache's 100 x 100 ms)
        del minutes.observed[(key, window)]
        model = minutes.fork(key, window)
        minutes.observed[(key, window)] = seen
        assert 0.5 <= model / statistics.median(seen) <= 2.0, (key, window, model, seen)
        compared, own = compared + 1, own + (window is None)
    assert compared >= 10 and own >= 2


def test_a_night_of_the_rotation_is_run_one_jdk_at_a_time():
    """The nightly workflow runs each JDK's share of a night on a runner of its own: HPB_NIGHT without
    HPB_JDK is refused in one line (both shares in one run would take twice a night's minutes)."""
    env = {k: v for k, v in os.environ.items() if k not in ("HPB_GATE", "HPB_JDK")}
    p = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py")], cwd=REPO, capture_output=True, text=True,
                       env={**env, "HPB_NIGHT": "1"})
    assert p.returncode == 2 and "HPB_JDK" in p.stderr and "Traceback" not in p.stderr
    ok = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py")], cwd=REPO, capture_output=True, text=True,
                        env={**env, "HPB_NIGHT": "1", "HPB_JDK": "25"})
    assert ok.returncode == 0 and ok.stdout and all("-jdk25\t" in line for line in ok.stdout.splitlines())


def test_the_plans_do_not_depend_on_the_hash_seed():
    """A plan is a function of the committed files: the minutes once summed fork seconds in a set's order, so
    a night's whole-minute budget moved with PYTHONHASHSEED (seeds 3 and 7 gave 84m where others gave 85m)."""
    env = {k: v for k, v in os.environ.items() if k not in ("HPB_GATE", "HPB_JDK", "HPB_NIGHT")}

    def nights(seed):
        out = []
        for night in (5, 6):  # the nights whose budgets moved
            p = subprocess.run([sys.executable, str(SCRIPTS / "ci_plan.py"), "--scheduled", "--night", str(night)],
                               cwd=REPO, capture_output=True, text=True, env={**env, "PYTHONHASHSEED": str(seed)})
            assert p.returncode == 0, p.stderr
            out.append(p.stdout)
        return out

    assert nights(0) == nights(3) == nights(7)


def test_a_command_whose_reader_stops_early_ends_without_a_traceback():
    """`ci_plan.py --scheduled | head -1`: the reader closes the pipe; the command stops quietly."""
    p = subprocess.run(f"{sys.executable} {SCRIPTS / 'ci_plan.py'} --scheduled | head -1", shell=True, cwd=REPO,
                       capture_output=True, text=True)
    assert p.stdout.startswith("scheduled rotation:") and "Traceback" not in p.stderr and "Error" not in p.stderr


def test_a_technique_too_big_for_a_pull_request_fills_its_minutes_after_its_headline(suite):
    """Over its minutes whole, a technique is judged on its headline and gated claims, then on its other
    figures in their file's order while they fit; the scheduled run takes the rest."""
    from hpb import scope
    t = next(x for x in suite.techniques if len(ci_plan.all_ids(x)) - len(ci_plan.headline_ids(x)) >= 3)
    each = float(suite.raw["ci"]["pr"]["minutes_per_technique"])

    class PerId:
        def minutes(self, tech, ids, trials):
            return len(set(ids)) * each / (len(ci_plan.headline_ids(t)) + 2.5)

    s = scope.Scope(frozenset({t.id}), {t.id: "x"})
    (gate,) = [x for x in ci_plan.plan(suite, "0" * 40, s, "1" * 40, minutes=PerId()) if x[1] == "gate"]
    head = ci_plan.headline_ids(t)
    rest = [i for i in ci_plan.all_ids(t) if i not in head]
    assert gate[2] == head + rest[:2], "two more fit the technique's minutes, the third would not"
