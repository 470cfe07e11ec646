"""readiness.py on real surefire reports of the readiness profile (JDK 25, Unsafe memory access denied)."""
import json
import shutil
import subprocess
import sys

import readiness
from conftest import FIXTURES, SCRIPTS

REPORTS = FIXTURES / "readiness"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPTS / "readiness.py"), *map(str, args)], capture_output=True, text=True)


def test_each_variant_is_told_apart_and_failures_show_their_cause(tmp_path):
    out = tmp_path / "readiness-jdk25.json"
    p = run("--reports", REPORTS, "--out", out)
    assert p.returncode == 0, p.stderr
    d = json.loads(out.read_text())
    assert d["jdk"].startswith("25") and d["option"] == "--sun-misc-unsafe-memory-access=deny"
    cache = d["techniques"]["io.hotpathbench.cache.FeatureCacheTest"]["variants"]
    assert {v: i["works"] for v, i in cache.items()} == {"CAFFEINE_HEAP": True, "OHC_OFF_HEAP": False,
                                                         "OHC_ZERO_COPY": False, "EHCACHE_OFF_HEAP": True}
    assert "objectFieldOffset" in cache["OHC_OFF_HEAP"]["failures"][0]  # the root cause, not just NoClassDefFoundError
    keys = d["techniques"]["io.hotpathbench.keys.MapKeyBenchmarkTest"]
    assert all(i["works"] for i in keys["variants"].values())
    assert [o["test"] for o in keys["other"] if not o["works"]] == ["crossHashEqualsZeroAllocationHashing"]


def test_check_catches_a_variant_that_changed(tmp_path):
    out = tmp_path / "readiness-jdk25.json"
    assert run("--reports", REPORTS, "--out", out).returncode == 0
    assert run("--reports", REPORTS, "--out", out, "--check").returncode == 0
    d = json.loads(out.read_text())
    d["techniques"]["io.hotpathbench.cache.FeatureCacheTest"]["variants"]["OHC_OFF_HEAP"]["works"] = True
    out.write_text(json.dumps(d))
    p = run("--reports", REPORTS, "--out", out, "--check")
    assert p.returncode == 1 and "OHC_OFF_HEAP: committed works, now fails" in p.stdout


def test_reports_of_another_jdk_or_missing_ones_are_bad_input(tmp_path):
    other = tmp_path / "reports"
    shutil.copytree(REPORTS, other)
    f = other / "TEST-io.hotpathbench.split.SplitterTest.xml"
    for g in other.glob("*.xml"):
        g.write_text(g.read_text().replace('name="java.version" value="25', 'name="java.version" value="17'))
    p = run("--reports", other, "--out", tmp_path / "r.json")
    assert p.returncode == 2 and "not 25" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    shutil.rmtree(other)
    shutil.copytree(REPORTS, other)
    f.unlink()
    p = run("--reports", other, "--out", tmp_path / "r.json")
    assert p.returncode == 2 and "no report for io.hotpathbench.split.SplitterTest" in p.stderr
    p = run("--reports", tmp_path / "none", "--out", tmp_path / "r.json")
    assert p.returncode == 2 and "no surefire reports" in p.stderr


def test_the_committed_readiness_file_matches_the_fixture_reports():
    committed = json.loads((SCRIPTS.parent / "results" / "readiness-jdk25.json").read_text())
    assert readiness.verdicts_of(committed) == readiness.verdicts_of(readiness.build(REPORTS, __import__("hpb.config").config.load_suite()))
