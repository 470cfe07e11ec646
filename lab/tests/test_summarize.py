"""summarize.py and runs.py: a run's summary loads back to exactly the per-fork numbers its raw run
gives, on real runs that stay in the repository raw; a summary that would not is refused."""
import json
import math
import shutil
import subprocess
import sys

import pytest

import runs
import summarize
from labtest import LAB, REPO, RESULTS, SCRIPTS

from hpb.forks import fork_iterations
from hpb.model import ALLOC, BEST, ITERATIONS, load

KEPT_RAW = [
    RESULTS / "pilot" / "20261125T080338Z-57b366d.json",  # a -Djmh.gate A/A pass: both sides, gate block
    RESULTS / "pilot" / "fast-state" / "20261125T153526Z-ef43f14.json",  # two-commit, 100 x 100 ms forks
    SCRIPTS / "tests" / "fixtures" / "real" / "20261124T222738Z-811280e-dirty.json",  # trials, one commit
    SCRIPTS / "tests" / "fixtures" / "real" / "sample-time.json",  # sample mode: histograms, percentiles
]


def copied(src, dst_dir, record=None):
    """The raw run (and its provenance) copied into dst_dir, with a pass record when given."""
    out = dst_dir / src.name
    shutil.copy(src, out)
    prov = src.with_name(src.name[:-5] + ".provenance.json")
    if prov.exists():
        shutil.copy(prov, dst_dir / prov.name)
    if record is not None:
        (dst_dir / (src.name[:-5] + ".pass.json")).write_text(json.dumps(record))
    return out


@pytest.mark.parametrize("raw", KEPT_RAW, ids=lambda p: p.name)
def test_a_summary_loads_back_to_the_per_fork_numbers_of_its_raw_run(raw, tmp_path):
    path = copied(raw, tmp_path)
    summary = summarize.summarize(path, "none")
    assert summary.stat().st_size < path.stat().st_size / 3
    back = runs.load_summary(summary)
    assert runs.differences(runs.load_run(path, within=True), back) == []
    assert back.name == raw.name and back.provenance == _with_schedule(load(raw).provenance)
    # and those numbers are the raw JSON's own: each fork's mean, best and count of its iterations,
    # its allocation, the trial it ran in
    data = json.loads(raw.read_text())
    sched = ((load(raw).provenance or {}).get("trials") or {}).get("schedule") or []
    for res, r in zip(back.results, data):
        pm = r["primaryMetric"]
        its = fork_iterations(pm.get("rawData") if pm.get("rawData") is not None else pm.get("rawDataHistogram"))
        assert res.forks_of("primary") == [sum(f) / len(f) for f in its]
        if r["mode"] in ("thrpt", "avgt"):
            assert res.forks_of(BEST) == [(max if r["mode"] == "thrpt" else min)(f) for f in its]
            assert res.forks_of(ITERATIONS) == [len(f) for f in its]
            assert res.forks_of(runs.WITHIN) == [runs.log_sd(f) for f in its]
        alloc = r["secondaryMetrics"].get(ALLOC)
        if alloc:
            assert res.forks_of(ALLOC) == [sum(f) / len(f) for f in alloc["rawData"]]
        mine = [e for e in sched if e["benchmark"] == r["benchmark"] and e["side"] == r["params"].get("side")
                and all(r["params"][k] == v for k, v in e["params"].items())]
        assert list(res.trials) == [e["trial"] for e in sorted(mine, key=lambda e: e["fork"])]


def _with_schedule(prov):
    out = runs.slim_provenance(prov)
    if out is not None and "trials" in out:
        out["trials"]["schedule"] = prov["trials"]["schedule"]
    return out


def test_what_a_summary_leaves_out_is_only_the_iterations_and_what_the_results_repeat(tmp_path):
    raw = KEPT_RAW[0]
    summary = json.loads(summarize.summarize(copied(raw, tmp_path), "none").read_text())
    assert summary["format"] == runs.FORMAT and "\n" not in summary and summary["raw"]["commit"] is None
    prov = json.loads(raw.with_name(raw.name[:-5] + ".provenance.json").read_text())
    kept = summary["provenance"]
    assert set(prov) == set(kept) and kept["forks"] == prov["forks"] and kept["jdk"] == prov["jdk"]
    assert kept["host"] == prov["host"] and kept["gate"] == prov["gate"] and kept["against"] == prov["against"]
    assert kept["jmh"]["arguments"] == prov["jmh"]["arguments"]
    assert kept["jmh"]["mavenProperties"] == prov["jmh"]["mavenProperties"]
    assert [g["ended"] for g in kept["trials"]["groups"]] == [g["ended"] for g in prov["trials"]["groups"]]
    assert len(summary["schedule"]) == len(prov["trials"]["schedule"])
    text = (tmp_path / (raw.name[:-5] + ".summary.json")).read_text()
    assert text.count("\n") == 1 and ": " not in text, "compact: one line, no indentation"


def test_a_summary_that_does_not_load_back_the_same_is_told_apart(tmp_path):
    path = copied(KEPT_RAW[1], tmp_path)
    raw_run = runs.load_run(path, within=True)
    summary = summarize.summarize(path, "none")
    d = json.loads(summary.read_text())
    d["results"][0]["perFork"]["primary"][0] *= 1 + 1e-12
    d["schedule"][0][2] += 1  # a fork moved to another trial
    summary.write_text(json.dumps(d))
    diff = runs.differences(raw_run, runs.load_summary(summary))
    assert any(x.endswith(": fork_values") for x in diff) and "provenance" in diff
    assert any(x.endswith(": trials") for x in diff)
    d["results"][0]["perFork"]["primary"][0] = math.nan  # NaN is no number JSON allows: written as null
    with pytest.raises(ValueError):
        runs.dumps(d)


def test_a_pass_record_goes_into_the_summary_and_delete_removes_the_raw_files(tmp_path):
    record = {"kind": "A/A", "patch": None, "expect": "pass", "head": "abc", "args": ["-Djmh.gate"], "judge": []}
    path = copied(KEPT_RAW[0], tmp_path, record)
    p = subprocess.run([sys.executable, str(LAB / "summarize.py"), str(path), "--commit", "none", "--delete"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == [path.name[:-5] + ".summary.json"]
    summary = tmp_path / (path.name[:-5] + ".summary.json")
    assert runs.pass_record(summary) == record
    assert runs.run_files(tmp_path) == [summary] and runs.raw_name(summary) == path.name
    assert json.loads(summary.read_text())["raw"]["files"] == [str(tmp_path / f) for f in (
        path.name, path.name[:-5] + ".provenance.json", path.name[:-5] + ".pass.json")]


def test_a_committed_raw_file_is_named_by_the_commit_that_holds_it():
    raw = KEPT_RAW[0]
    commit = runs.git_commit_of(raw)
    if commit is None:
        pytest.skip("no git history of results/ here")
    rel = raw.relative_to(REPO)
    shown = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=REPO, capture_output=True)
    assert shown.returncode == 0 and shown.stdout == raw.read_bytes()


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{")
    for args in ([str(bad)], [str(KEPT_RAW[0].with_name(KEPT_RAW[0].name[:-5] + ".provenance.json"))]):
        p = subprocess.run([sys.executable, str(LAB / "summarize.py"), *args], capture_output=True, text=True)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    (tmp_path / "y.summary.json").write_text('{"format": "other"}')
    with pytest.raises(Exception, match="not a run summary"):
        runs.load_summary(tmp_path / "y.summary.json")


def test_every_committed_pass_is_a_summary_that_names_where_its_raw_files_are():
    ci = RESULTS / "ci"
    found = runs.run_files(ci)
    assert found and all(runs.is_summary(p) for p in found), "results/ci/ keeps summaries, not raw runs"
    assert sum(runs.pass_record(p) is not None for p in found) >= 75
    wanted = []
    for p in sorted(RESULTS.glob("**/*" + runs.SUFFIX)):
        d = json.loads(p.read_text())
        assert d["format"] == runs.FORMAT and d["run"] == runs.raw_name(p)
        if d["raw"]["commit"] is None:  # made since the lab began: its raw files stay on the machine that made it
            assert d["raw"]["files"][0] == str((p.parent / "raw" / d["run"]).relative_to(REPO)), p.name
            continue
        assert len(d["raw"]["commit"]) == 40 and d["raw"]["files"][0] == str(p.relative_to(REPO).with_name(d["run"]))
        wanted += [f"{d['raw']['commit']}:{f}" for f in d["raw"]["files"]]
    check = subprocess.run(["git", "cat-file", "--batch-check"], cwd=REPO, input="\n".join(wanted) + "\n",
                           capture_output=True, text=True)
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=REPO, capture_output=True,
                             text=True).stdout.strip() != "false"
    if check.returncode != 0 or ("missing" in check.stdout and shallow):
        pytest.skip("no full git history here to read the raw files back from")
    assert "missing" not in check.stdout, [w for w, line in zip(wanted, check.stdout.splitlines()) if "missing" in line]
