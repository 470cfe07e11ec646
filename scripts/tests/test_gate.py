import json
import subprocess
import sys

import pytest

import gate
from conftest import SCRIPTS, copy_run

CLS = "io.hotpathbench.zzthrowaway.ThrowawayBenchmark"


def claims_file(tmp_path, claims, regression=None):
    p = tmp_path / "claims.json"
    p.write_text(json.dumps({"claims": claims, "regression": regression or {"threshold_pct": 10},
                             "deterministic_metrics": ["gc.alloc.rate.norm", "bytesPerEntry"]}))
    return str(p)


def run_gate(capsys, *args):
    code = gate.main([str(a) for a in args])
    out = capsys.readouterr().out
    return code, out


def scale(match, factor, metric="primaryMetric"):
    """Edit: multiply score and interval of the results that match(result) by factor."""
    def edit(data):
        for r in data:
            if match(r):
                m = r[metric] if metric == "primaryMetric" else r["secondaryMetrics"][metric]
                m["score"] *= factor
                m["scoreError"] *= factor
                m["scoreConfidence"] = [x * factor for x in m["scoreConfidence"]]
    return edit


def is_(method, size, variant):
    return lambda r: r["benchmark"].endswith("." + method) and r["params"]["size"] == size and r["params"]["variant"] == variant


def test_same_run_passes(fixtures, tmp_path, capsys):
    f = fixtures / "throwaway-i3.json"
    code, out = run_gate(capsys, f, "--baseline", f, "--claims", claims_file(tmp_path, []))
    assert code == 0 and out.strip().splitlines()[-1].startswith("GATE PASSED")


def test_injected_2x_slowdown_caught(fixtures, tmp_path, capsys):
    # sum size=100000 SLOW: 0.02097 +- 0.00077 ops/us; throughput halves
    cur = copy_run(fixtures / "throwaway-i3.json", tmp_path / "cur.json", scale(is_("sum", "100000", "SLOW"), 0.5))
    code, out = run_gate(capsys, cur, "--baseline", fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []))
    assert code == 1
    bad = [l for l in out.splitlines() if "REGRESSION" in l]
    assert len(bad) == 1 and "ThrowawayBenchmark.sum (thrpt) [seed=42, size=100000, variant=SLOW]" in bad[0]
    assert "0.5x [" in bad[0] and "100% worse" in bad[0]
    assert out.strip().splitlines()[-1].startswith("GATE FAILED")
    # the same slowdown on a different JDK is a warning only
    code, out = run_gate(capsys, cur, "--baseline", fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []),
                         "--time-warn-only")
    assert code == 0 and "REGRESSION" not in out


def test_change_inside_noise_not_caught(fixtures, tmp_path, capsys):
    # 15% slower (above the 10% threshold) but the two intervals still overlap
    cur = copy_run(fixtures / "throwaway-i3.json", tmp_path / "cur.json", scale(is_("sampled", "100000", "SLOW"), 1.15))
    code, out = run_gate(capsys, cur, "--baseline", fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []))
    assert code == 0
    row = [l for l in out.splitlines() if l.startswith("time") and "sampled (sample) [seed=42, size=100000, variant=SLOW]" in l][0]
    assert "OK" in row and "within noise" in row
    # 5% slower on a tight benchmark: below the threshold
    cur = copy_run(fixtures / "throwaway-i3.json", tmp_path / "cur2.json", scale(is_("sum", "100000", "SLOW"), 0.95))
    assert run_gate(capsys, cur, "--baseline", fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []))[0] == 0


def test_extra_16_bytes_per_op_caught(fixtures, tmp_path, capsys):
    def edit(data):
        for r in data:
            if is_("alloc", "1000", "FAST")(r):
                m = r["secondaryMetrics"]["gc.alloc.rate.norm"]
                m["score"] += 16
                m["scoreConfidence"] = [x + 16 for x in m["scoreConfidence"]]
    cur = copy_run(fixtures / "throwaway-i3.json", tmp_path / "cur.json", edit)
    code, out = run_gate(capsys, cur, "--baseline", fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []),
                         "--time-warn-only")
    assert code == 1
    bad = [l for l in out.splitlines() if "REGRESSION" in l]
    assert len(bad) == 1 and bad[0].startswith("B/op") and "+16.0 B/op (+100%)" in bad[0]


def test_allocation_gates_even_when_environment_differs(fixtures, tmp_path, capsys):
    def edit(data):
        scale(is_("sum", "100000", "SLOW"), 0.5)(data)
        for r in data:
            if is_("alloc", "1000", "FAST")(r):
                m = r["secondaryMetrics"]["gc.alloc.rate.norm"]
                m["score"] += 16
                m["scoreConfidence"] = [x + 16 for x in m["scoreConfidence"]]
    cur = copy_run(fixtures / "throwaway-i3.json", tmp_path / "cur.json", edit)
    prov = tmp_path / "cur.provenance.json"
    p = json.loads(prov.read_text())
    p["host"]["cpuModel"] = "Other CPU"
    prov.write_text(json.dumps(p))
    code, out = run_gate(capsys, cur, "--baseline", fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []))
    assert code == 1
    assert [l.split()[0] for l in out.splitlines() if "REGRESSION" in l] == ["B/op"]
    assert "environments differ (CPU AMD EPYC x2 vs Other CPU x2)" in out


def test_claims_pass_and_broken_claim_caught(fixtures, tmp_path, capsys):
    f = fixtures / "throwaway-i3.json"
    # sampled size=100000: FAST vs SLOW 1.95x [1.52, 2.49]; bytesPerEntry 48/144 = 0.333 (deterministic)
    ok = [{"id": "fast", "benchmark": CLS, "method": "sampled", "params": {"size": "max"},
           "variant": "FAST", "baseline": "SLOW", "min_speedup": 1.5},
          {"id": "mem", "benchmark": CLS, "metric": "bytesPerEntry", "variant": "FAST", "baseline": "SLOW", "max_ratio": 0.34}]
    code, out = run_gate(capsys, f, "--baseline", f, "--claims", claims_file(tmp_path, ok))
    assert code == 0 and out.count(" PASS ") == 3  # one speed-up row, two bytesPerEntry rows (two sizes)
    # point estimate 1.95 clears 1.6, the pessimistic end 1.52 does not
    broken = [dict(ok[0], min_speedup=1.6), dict(ok[1], max_ratio=0.3)]
    code, out = run_gate(capsys, f, "--baseline", f, "--claims", claims_file(tmp_path, broken))
    assert code == 1
    fails = [l for l in out.splitlines() if " FAIL " in l]
    assert len(fails) == 3 and "1.95x [1.52, 2.49]" in fails[0]


def test_missing_benchmark_reported(fixtures, tmp_path, capsys):
    f = fixtures / "throwaway-i3.json"
    claims = claims_file(tmp_path, [{"id": "gone", "benchmark": "io.hotpathbench.nope.NopeBenchmark", "method": "x",
                                     "variant": "B", "baseline": "A", "min_speedup": 2}])
    code, out = run_gate(capsys, f, "--baseline", f, "--claims", claims)
    assert code == 1 and "NOT RUN" in out and "NopeBenchmark.x not in this run" in out
    code, out = run_gate(capsys, f, "--baseline", f, "--claims", claims, "--allow-missing")
    assert code == 0 and "NopeBenchmark.x not in this run" in out
    # a benchmark present in only one of the two files is listed
    sub = copy_run(f, tmp_path / "sub.json", lambda d: d.__delitem__(slice(0, 2)))
    code, out = run_gate(capsys, sub, "--baseline", f, "--claims", claims_file(tmp_path, []))
    only = [l for l in out.splitlines() if l.startswith("only in baseline")]
    assert code == 0 and len(only) == 2 and "ThrowawayBenchmark.sum (thrpt) [seed=42, size=1000" in only[0]


def test_unknown_interval_time_claim_is_inconclusive(fixtures, tmp_path, capsys):
    f = fixtures / "throwaway-i1.json"
    claims = claims_file(tmp_path, [{"id": "t", "benchmark": CLS, "method": "alloc", "variant": "FAST",
                                     "baseline": "SLOW", "min_speedup": 1.0},
                                    {"id": "m", "benchmark": CLS, "metric": "gc.alloc.rate.norm", "method": "alloc",
                                     "variant": "FAST", "baseline": "SLOW", "max_ratio": 0.5}])
    code, out = run_gate(capsys, f, "--baseline", f, "--claims", claims)
    assert code == 1 and "INCONCLUSIVE" in out
    assert [l for l in out.splitlines() if l.startswith("claim") and "m: FAST" in l and "PASS" in l]


def test_default_baseline_absent_is_warning(fixtures, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_gate(capsys, fixtures / "throwaway-i3.json", "--claims", claims_file(tmp_path, []))
    assert code == 0 and "warning: no baseline" in out


@pytest.mark.parametrize("bad", ["empty.json", "notjson.json", "notjmh.json", "noprimary.json", "missing.json"])
@pytest.mark.parametrize("where", ["current", "baseline"])
def test_malformed_input_exits_2_with_one_line(fixtures, tmp_path, bad, where):
    good = str(fixtures / "throwaway-i3.json")
    args = [str(fixtures / bad), "--baseline", good] if where == "current" else [good, "--baseline", str(fixtures / bad)]
    p = subprocess.run([sys.executable, str(SCRIPTS / "gate.py"), *args], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and bad in lines[0] and "Traceback" not in p.stderr


def test_shipped_claims_and_techniques_are_valid():
    import jmhjson as J
    claims = J.load_config(J.DEFAULT_CLAIMS)
    for c in claims["claims"]:
        assert {"id", "benchmark", "variant", "baseline"} <= set(c)
        assert len({"min_speedup", "max_ratio", "min_ratio"} & set(c)) == 1
    tech = J.load_config(J.DEFAULT_TECHNIQUES)
    for p in tech["published"]:
        assert p["technique"] in tech["techniques"] and p["measure"]["kind"] in ("speedup", "ratio")


def test_several_current_files_are_merged_and_duplicates_rejected(tmp_path):
    import jmhjson as J
    from conftest import FIXTURES
    data = json.loads((FIXTURES / "throwaway-i3.json").read_text())
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(data[:1]))
    b.write_text(json.dumps(data[1:]))
    merged = J.load_many([a, b])
    assert len(merged.results) == len(data)
    with pytest.raises(J.InputError, match="is also in"):
        J.load_many([a, a])


def test_point_score_claim_judged_on_point_ratio():
    import jmhjson as J
    from conftest import FIXTURES
    run = J.load(FIXTURES / "throwaway-i3.json")
    techniques = J.load_config(J.DEFAULT_TECHNIQUES)
    groups = [g for g in J.group_results(run.results, techniques) if len(g.rows) >= 2]
    g = groups[0]
    (base, _), (var, _) = g.rows[0], g.rows[1]
    claim = {"id": "t", "benchmark": g.cls, "method": g.name, "metric": "primary", "variant": var,
             "baseline": base, "max_ratio": 1e9}
    wide = gate.check_claims(run.results, {"claims": [claim]}, techniques)
    pointed = gate.check_claims(run.results, {"claims": [dict(claim, point_score="why")]}, techniques)
    assert pointed and all(r["verdict"] == "PASS" and "point score" in r["note"] for r in pointed)
    assert len(wide) == len(pointed)


def test_shipped_claims_hold_on_the_committed_baseline_run():
    """The suite's own full run (results/baseline.json) against the shipped claims: every claim ran and passed."""
    import jmhjson as J
    baseline = SCRIPTS.parent / "results" / "baseline.json"
    run = J.load(baseline)
    rows = gate.check_claims(run.results, J.load_config(J.DEFAULT_CLAIMS), J.load_config(J.DEFAULT_TECHNIQUES))
    ids = {r["what"].split(":")[0] for r in rows}
    assert ids == {"validator-shared-50x", "split-indexof-2char-2x", "keys-long-bytes-0.3x", "cache-ohc-gc-0.1x"}
    assert all(r["verdict"] == "PASS" for r in rows), [(r["what"], r["verdict"]) for r in rows]


def test_claim_ids_select_claims_and_unknown_id_is_bad_input(capsys):
    baseline = str(SCRIPTS.parent / "results" / "baseline.json")
    assert gate.main([baseline, "--baseline", baseline, "--claim-ids", "keys-long-bytes-0.3x"]) == 0
    out = capsys.readouterr().out
    assert "keys-long-bytes-0.3x" in out and "validator-shared-50x" not in out
    with pytest.raises(SystemExit) as e:
        gate.main([baseline, "--claim-ids", "no-such-claim"])
    assert e.value.code == 2
