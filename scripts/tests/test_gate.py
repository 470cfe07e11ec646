import json
import subprocess
import sys

import pytest

import gate
import jmhjson as J
from conftest import CACHE, COLD, I1, I3, KEYS, SCRIPTS, SPLIT, copy_run, is_


def claims_file(tmp_path, claims, regression=None):
    p = tmp_path / "claims.json"
    p.write_text(json.dumps({"claims": claims, "regression": regression or {"threshold_pct": 10},
                             "deterministic_metrics": ["gc.alloc.rate.norm", "bytesPerEntry", "allocFloor"]}))
    return str(p)


def run_gate(capsys, *args):
    code = gate.main([str(a) for a in args])
    out = capsys.readouterr().out
    return code, out


def scale(match, factor, metric="primaryMetric"):
    """Edit: multiply score and interval of the results that match(result) by factor."""
    def edit(data):
        hit = 0
        for r in data:
            if match(r):
                m = r[metric] if metric == "primaryMetric" else r["secondaryMetrics"][metric]
                m["score"] *= factor
                m["scoreError"] *= factor
                m["scoreConfidence"] = [x * factor for x in m["scoreConfidence"]]
                hit += 1
        assert hit, "the edit matched no result"
    return edit


def add_bytes(match, nbytes):
    """Edit: nbytes more allocated per operation (gc.alloc.rate.norm) in the results that match."""
    def edit(data):
        hit = 0
        for r in data:
            if match(r):
                m = r["secondaryMetrics"]["gc.alloc.rate.norm"]
                m["score"] += nbytes
                m["scoreConfidence"] = [x + nbytes for x in m["scoreConfidence"]]
                hit += 1
        assert hit, "the edit matched no result"
    return edit


def primary(path, method, **params):
    return J.select(J.load(path).results, {"method": method, "params": params})[0].primary


# jdkSplitFirst, delimiter "||": 1.216 +- 0.274 ops/us, so half of it lies well outside the interval
SLOW_2X = is_("jdkSplitFirst", delimiter="||")
SLOW_2X_WHAT = 'SplitBenchmark.jdkSplitFirst (thrpt) [delimiter="||", fields=16, poolSize=256, seed=42]'
# splitFirst, delimiter "|": 56.469 B/op with an interval of +- 0.00005 B/op
PLUS_16 = is_("splitFirst", delimiter="|")


def test_same_run_passes(tmp_path, capsys):
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    assert code == 0 and out.strip().splitlines()[-1].startswith("GATE PASSED")
    assert "REGRESSION" not in out and out.count("\ntime ") == 29


def test_injected_2x_slowdown_caught(tmp_path, capsys):
    cur = copy_run(I3, tmp_path / "cur.json", scale(SLOW_2X, 0.5))
    assert not gate._overlap(primary(I3, "jdkSplitFirst", delimiter="||"), primary(cur, "jdkSplitFirst", delimiter="||"))
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    assert code == 1
    bad = [l for l in out.splitlines() if "REGRESSION" in l]
    assert len(bad) == 1 and bad[0].startswith("time") and SLOW_2X_WHAT in bad[0]
    assert "0.5x [" in bad[0] and "100% worse" in bad[0]
    assert out.strip().splitlines()[-1].startswith("GATE FAILED")
    # the same slowdown with --time-warn-only (short runs) is a warning only
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []), "--time-warn-only")
    assert code == 0 and "REGRESSION" not in out
    assert [l for l in out.splitlines() if SLOW_2X_WHAT in l and " WARN " in l]


def test_change_inside_noise_not_caught(tmp_path, capsys):
    # validate PER_CALL: 2,573 +- 4,390 us/op. 15% slower is above the 10% threshold, but the
    # two intervals still overlap, so the gate calls it noise.
    per_call = is_("validate", variant="PER_CALL")
    cur = copy_run(I3, tmp_path / "cur.json", scale(per_call, 1.15))
    assert gate._overlap(primary(I3, "validate", variant="PER_CALL"), primary(cur, "validate", variant="PER_CALL"))
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    assert code == 0
    row = [l for l in out.splitlines()
           if l.startswith("time") and "ValidatorBenchmark.validate (avgt) [invalidPercent=25, seed=42, variant=PER_CALL]" in l]
    assert len(row) == 1 and " OK " in row[0] and "15% worse, within noise" in row[0]
    # jdkSplitLimitFirst "|" (18.62 +- 0.67 ops/us) 8% slower: the intervals part, but the change
    # stays below the 10% threshold
    tight = is_("jdkSplitLimitFirst", delimiter="|")
    cur = copy_run(I3, tmp_path / "cur2.json", scale(tight, 0.92))
    assert not gate._overlap(primary(I3, "jdkSplitLimitFirst", delimiter="|"), primary(cur, "jdkSplitLimitFirst", delimiter="|"))
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    assert code == 0
    row = [l for l in out.splitlines() if l.startswith("time") and 'SplitBenchmark.jdkSplitLimitFirst (thrpt) [delimiter="|",' in l]
    assert len(row) == 1 and " OK " in row[0] and "9% worse" in row[0]


def test_extra_16_bytes_per_op_caught(tmp_path, capsys):
    cur = copy_run(I3, tmp_path / "cur.json", add_bytes(PLUS_16, 16))
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []), "--time-warn-only")
    assert code == 1
    bad = [l for l in out.splitlines() if "REGRESSION" in l]
    assert len(bad) == 1 and bad[0].startswith("B/op")
    assert 'SplitBenchmark.splitFirst (thrpt) [delimiter="|", fields=16, poolSize=256, seed=42]' in bad[0]
    assert "+16.0 B/op (+28%)" in bad[0]  # 16 / 56.47
    # 8 bytes more is below the 16-byte floor
    cur = copy_run(I3, tmp_path / "cur8.json", add_bytes(PLUS_16, 8))
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    assert code == 0 and "+8.0 B/op" in out


def test_allocation_gates_even_when_environment_differs(tmp_path, capsys):
    def edit(data):
        scale(SLOW_2X, 0.5)(data)
        add_bytes(PLUS_16, 16)(data)
    cur = copy_run(I3, tmp_path / "cur.json", edit)
    prov = tmp_path / "cur.provenance.json"
    p = json.loads(prov.read_text())
    p["host"]["cpuModel"] = "Other CPU"
    prov.write_text(json.dumps(p))
    code, out = run_gate(capsys, cur, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    assert code == 1
    assert [l.split()[0] for l in out.splitlines() if "REGRESSION" in l] == ["B/op"]
    slow = [l for l in out.splitlines() if l.startswith("time") and SLOW_2X_WHAT in l]
    assert len(slow) == 1 and " WARN " in slow[0]
    assert "environments differ (CPU AMD EPYC x2 vs Other CPU x2)" in out


# MapKey lookup at size=1000000: LONG_KEY vs STRING_KEY 3.26x [2.11, 5.08];
# bytesPerEntry LONG_KEY / STRING_KEY: 42.24 / 133.86 = 0.316 at 100000, 33.58 / 132.93 = 0.253 at 1000000
LOOKUP = {"id": "fast", "benchmark": KEYS, "method": "lookup", "params": {"size": "max"},
          "variant": "LONG_KEY", "baseline": "STRING_KEY", "min_speedup": 2}
BYTES = {"id": "mem", "benchmark": KEYS, "metric": "bytesPerEntry", "variant": "LONG_KEY", "baseline": "STRING_KEY",
         "max_ratio": 0.32}


def test_claims_pass_and_broken_claim_caught(tmp_path, capsys):
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claims", claims_file(tmp_path, [LOOKUP, BYTES]))
    assert code == 0 and out.count(" PASS ") == 3  # one speed-up row, two bytesPerEntry rows (two sizes)
    # the point estimate 3.26 clears 3, the pessimistic end 2.11 does not; 0.316 and 0.253 are above 0.25
    broken = [dict(LOOKUP, min_speedup=3), dict(BYTES, max_ratio=0.25)]
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claims", claims_file(tmp_path, broken))
    assert code == 1 and " PASS " not in out
    fails = [l for l in out.splitlines() if " FAIL " in l]
    assert len(fails) == 3 and "3.26x [2.11, 5.08]" in fails[0] and "size=1000000" in fails[0]
    assert "0.316x [0.316, 0.316]" in fails[1] and "0.253x [0.253, 0.253]" in fails[2]


def test_claim_rows_say_whether_the_point_clears_the_bar():
    def rows(claim, path=I3):
        return gate.check_claims(J.load(path).results, {"claims": [claim]}, {})
    assert [(r["verdict"], r["point_clears"]) for r in rows(LOOKUP)] == [("PASS", True)]
    assert [(r["verdict"], r["point_clears"]) for r in rows(dict(LOOKUP, min_speedup=3))] == [("FAIL", True)]
    assert [(r["verdict"], r["point_clears"]) for r in rows(dict(LOOKUP, min_speedup=4))] == [("FAIL", False)]
    # max_ratio: 0.253 clears 0.3 at size 1000000, 0.316 does not at 100000
    assert [(r["verdict"], r["point_clears"]) for r in rows(dict(BYTES, max_ratio=0.3))] == [("FAIL", False), ("PASS", True)]
    # an unknown interval: INCONCLUSIVE although the point 2.87x clears 1x
    split = {"id": "t", "benchmark": SPLIT, "method": "split", "variant": "INDEX_OF", "baseline": "JDK_SPLIT", "min_speedup": 1}
    assert [(r["verdict"], r["point_clears"]) for r in rows(split, I1)] == [("INCONCLUSIVE", True)]
    gone = rows({"id": "g", "benchmark": "io.hotpathbench.nope.NopeBenchmark", "variant": "B", "baseline": "A", "min_speedup": 2})
    assert len(gone) == 1 and gone[0]["verdict"] == "NOT RUN" and not gone[0].get("point_clears")


FLOOR = {"id": "floor", "metric": "gc.alloc.rate.norm", "baseline_metric": "allocFloor", "variant": "INDEX_OF",
         "baseline": "INDEX_OF", "max_ratio": 1.1, "method": "split", "benchmark": SPLIT}


def raise_index_of_alloc(data):
    scale(is_("split", variant="INDEX_OF"), 1.2, "gc.alloc.rate.norm")(data)


def test_baseline_metric_claim_compares_a_variant_with_its_allocation_floor(tmp_path, capsys):
    # INDEX_OF allocates 1008.97 B/op against its floor of 1008.97 B (both delimiters)
    rows = gate.check_claims(J.load(I3).results, {"claims": [FLOOR]}, {})
    assert [r["verdict"] for r in rows] == ["PASS", "PASS"]
    assert rows[0]["what"] == 'floor: INDEX_OF gc.alloc.rate.norm vs INDEX_OF allocFloor [delimiter="|", fields=16, poolSize=256, seed=42]'
    assert rows[1]["what"].endswith('[delimiter="||", fields=16, poolSize=256, seed=42]')
    assert all(r["change"] == "1x [1, 1]" and r["baseline"] == "1,009 ± 0 #" for r in rows)
    # 20% more allocated per split: 1.2x the floor, above 1.1
    cur = copy_run(I3, tmp_path / "cur.json", raise_index_of_alloc)
    rows = gate.check_claims(J.load(cur).results, {"claims": [FLOOR]}, {})
    assert [(r["verdict"], r["change"], r["point_clears"]) for r in rows] == [("FAIL", "1.2x [1.2, 1.2]", False)] * 2
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claims", claims_file(tmp_path, [FLOOR]))
    assert code == 0 and out.count(" PASS ") == 2
    code, out = run_gate(capsys, cur, "--baseline", cur, "--claims", claims_file(tmp_path, [FLOOR]))
    assert code == 1 and out.count(" FAIL ") == 2
    # the shipped claim is the same check
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claim-ids", "split-indexof-floor-1.1x")
    assert code == 0 and out.count(" PASS ") == 2 and "split-indexof-floor-1.1x" in out
    code, out = run_gate(capsys, cur, "--baseline", cur, "--claim-ids", "split-indexof-floor-1.1x")
    assert code == 1 and out.count(" FAIL ") == 2


def test_missing_benchmark_reported(tmp_path, capsys):
    claims = claims_file(tmp_path, [{"id": "gone", "benchmark": "io.hotpathbench.nope.NopeBenchmark", "method": "x",
                                     "variant": "B", "baseline": "A", "min_speedup": 2}])
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claims", claims)
    assert code == 1 and "NOT RUN" in out and "NopeBenchmark.x not in this run" in out
    code, out = run_gate(capsys, I3, "--baseline", I3, "--claims", claims, "--allow-missing")
    assert code == 0 and "NopeBenchmark.x not in this run" in out
    # a benchmark present in only one of the two files is listed
    def drop_validate(data):
        data[:] = [r for r in data if not r["benchmark"].endswith(".validate")]
    sub = copy_run(I3, tmp_path / "sub.json", drop_validate)
    code, out = run_gate(capsys, sub, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    only = [l for l in out.splitlines() if l.startswith("only in baseline")]
    assert code == 0 and len(only) == 3
    for line, variant in zip(only, ["PER_CALL", "SHARED", "HAND_WRITTEN"]):
        assert f"ValidatorBenchmark.validate (avgt) [invalidPercent=25, seed=42, variant={variant}]" in line and " WARN " in line


def test_unknown_interval_time_claim_is_inconclusive(tmp_path, capsys):
    # suite-i1: one measurement iteration. INDEX_OF vs JDK_SPLIT 2.87x [n/a]; B/op 1009 / 1897 = 0.532
    claims = claims_file(tmp_path, [{"id": "t", "benchmark": SPLIT, "method": "split", "variant": "INDEX_OF",
                                     "baseline": "JDK_SPLIT", "min_speedup": 1.0},
                                    {"id": "m", "benchmark": SPLIT, "metric": "gc.alloc.rate.norm", "method": "split",
                                     "variant": "INDEX_OF", "baseline": "JDK_SPLIT", "max_ratio": 0.6}])
    code, out = run_gate(capsys, I1, "--baseline", I1, "--claims", claims)
    assert code == 1
    t = [l for l in out.splitlines() if l.startswith("claim") and "t: INDEX_OF vs JDK_SPLIT" in l]
    assert len(t) == 1 and "2.87x [n/a]" in t[0] and "INCONCLUSIVE" in t[0]
    m = [l for l in out.splitlines() if l.startswith("claim") and "m: INDEX_OF" in l]
    assert len(m) == 1 and "0.532x [n/a]" in m[0] and " PASS " in m[0] and "deterministic metric" in m[0]
    # and against the baseline, an unknown interval never makes a time regression
    slow = copy_run(I1, tmp_path / "slow.json", lambda d: [r["primaryMetric"].update(score=r["primaryMetric"]["score"] / 2) for r in d])
    code, out = run_gate(capsys, slow, "--baseline", I1, "--claims", claims_file(tmp_path, []))
    assert code == 0 and "REGRESSION" not in out and out.count("interval unknown") == 8


def test_default_baseline_absent_is_warning(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run_gate(capsys, I3, "--claims", claims_file(tmp_path, []))
    assert code == 0 and "warning: no baseline" in out


@pytest.mark.parametrize("bad", ["empty.json", "notjson.json", "notjmh.json", "noprimary.json", "missing.json"])
@pytest.mark.parametrize("where", ["current", "baseline"])
def test_malformed_input_exits_2_with_one_line(fixtures, tmp_path, bad, where):
    good = str(I3)
    args = [str(fixtures / bad), "--baseline", good] if where == "current" else [good, "--baseline", str(fixtures / bad)]
    p = subprocess.run([sys.executable, str(SCRIPTS / "gate.py"), *args], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and bad in lines[0] and "Traceback" not in p.stderr


def test_shipped_claims_and_techniques_are_valid():
    claims = J.load_config(J.DEFAULT_CLAIMS)
    for c in claims["claims"] + claims.get("targets", []):
        assert {"id", "benchmark", "variant", "baseline"} <= set(c)
        assert len({"min_speedup", "max_ratio", "min_ratio"} & set(c)) == 1
    tech = J.load_config(J.DEFAULT_TECHNIQUES)
    for p in tech["published"]:
        assert p["technique"] in tech["techniques"] and p["measure"]["kind"] in ("speedup", "ratio")


def test_several_current_files_are_merged_and_duplicates_rejected(tmp_path, capsys):
    # CI runs coldStart in a pass of its own: the two files are one run
    merged = J.load_many([I3, COLD])
    assert len(merged.results) == 29 + 3 and merged.path == I3
    assert {r.method for r in merged.results[29:]} == {"coldStart"}
    code, out = run_gate(capsys, I3, COLD, "--baseline", I3, "--claims", claims_file(tmp_path, []))
    only = [l for l in out.splitlines() if l.startswith("only in current")]
    assert code == 0 and len(only) == 3 and all("ValidatorBenchmark.coldStart (ss)" in l for l in only)
    # one file split in two reads back whole
    data = json.loads(I3.read_text())
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(data[:10]))
    b.write_text(json.dumps(data[10:]))
    assert [r.key for r in J.load_many([a, b]).results] == [r.key for r in J.load(I3).results]
    with pytest.raises(J.InputError, match="is also in"):
        J.load_many([a, a])
    with pytest.raises(SystemExit) as e:
        gate.main([str(I3), str(I3), "--claims", claims_file(tmp_path, [])])
    assert e.value.code == 2


def test_point_score_claim_judged_on_point_ratio():
    # Cache access, writePercent=100: gc.time OHC_OFF_HEAP 1 ms (one iteration collected, no interval)
    # vs CAFFEINE_HEAP 383 ms; without point_score the unknown interval leaves the claim inconclusive
    results = J.load(I3).results
    claim = {"id": "gc", "benchmark": CACHE, "metric": "gc.time", "params": {"writePercent": "100"},
             "variant": "OHC_OFF_HEAP", "baseline": "CAFFEINE_HEAP", "max_ratio": 0.1}
    wide = gate.check_claims(results, {"claims": [claim]}, {})
    pointed = gate.check_claims(results, {"claims": [dict(claim, point_score="why")]}, {})
    assert [r["verdict"] for r in wide] == ["INCONCLUSIVE"]
    assert [r["verdict"] for r in pointed] == ["PASS"]
    assert pointed[0]["change"] == "0.00261x [n/a]" and "on the point score (why)" in pointed[0]["note"]
    # the point score still has to clear the bar
    assert [r["verdict"] for r in gate.check_claims(results, {"claims": [dict(claim, point_score="why", max_ratio=0.001)]}, {})] == ["FAIL"]


def test_shipped_claims_hold_on_the_committed_baseline_run():
    """The suite's own full run (results/baseline.json) against the shipped claims: every claim ran and passed."""
    baseline = SCRIPTS.parent / "results" / "baseline.json"
    run = J.load(baseline)
    rows = gate.check_claims(run.results, J.load_config(J.DEFAULT_CLAIMS), J.load_config(J.DEFAULT_TECHNIQUES))
    ids = {r["what"].split(":")[0] for r in rows}
    assert ids == {"validator-shared-50x", "split-indexof-2char-2x", "split-indexof-floor-1.1x", "keys-long-bytes-0.3x",
                   "cache-ohc-gc-0.1x"}
    assert all(r["verdict"] == "PASS" for r in rows), [(r["what"], r["verdict"]) for r in rows]


def test_claim_ids_select_claims_and_unknown_id_is_bad_input(capsys):
    baseline = str(SCRIPTS.parent / "results" / "baseline.json")
    assert gate.main([baseline, "--baseline", baseline, "--claim-ids", "keys-long-bytes-0.3x"]) == 0
    out = capsys.readouterr().out
    assert "keys-long-bytes-0.3x" in out and "validator-shared-50x" not in out
    with pytest.raises(SystemExit) as e:
        gate.main([baseline, "--claim-ids", "no-such-claim"])
    assert e.value.code == 2
