import json
import math
import statistics

import pytest

import jmhjson as J
from conftest import CACHE, COLD, I1, I3, SAMPLE, SPLIT


def test_units_convert_to_base():
    assert J.to_base(2.0, "ops/us") == pytest.approx(2e6)
    assert J.to_base(2.0, "ops/ms") == pytest.approx(2e3)
    assert J.to_base(2.0, "ops/ns") == pytest.approx(2e9)
    assert J.to_base(2.0, "ops/s") == 2.0
    assert J.to_base(3.0, "ns/op") == pytest.approx(3e-9)
    assert J.to_base(3.0, "us/op") == pytest.approx(3e-6)
    assert J.to_base(3.0, "ms/op") == pytest.approx(3e-3)
    assert J.to_base(3.0, "s/op") == 3.0
    assert J.convert(1.0, "ms/op", "us/op") == pytest.approx(1000)
    assert J.convert(1.0, "ops/ms", "ops/us") == pytest.approx(0.001)
    assert J.higher_is_better("ops/us") and not J.higher_is_better("ns/op")
    assert not J.higher_is_better("B/op")
    with pytest.raises(ValueError):
        J.convert(1.0, "ops/s", "s/op")


def test_ratio_interval_is_conservative():
    a = J.Metric(10, 8, 12, "ops/us")
    b = J.Metric(5, 4, 6, "ops/us")
    r, lo, hi = J.ratio(a, b)
    assert (r, lo, hi) == pytest.approx((2.0, 8 / 6, 12 / 4))
    # across units: 5 ops/us == 5000 ops/ms
    r2 = J.ratio(a, J.Metric(5000, 4000, 6000, "ops/ms"))
    assert r2 == pytest.approx((2.0, 8 / 6, 3.0))


def test_speedup_follows_unit_direction():
    before = J.Metric(100, 90, 110, "ns/op")
    after = J.Metric(50, 45, 55, "ns/op")
    assert J.speedup(after, before) == pytest.approx((2.0, 90 / 55, 110 / 45))
    assert J.speedup(J.Metric(4, 3, 5, "ops/s"), J.Metric(2, 1, 3, "ops/s")) == pytest.approx((2.0, 1.0, 5.0))


def test_nonpositive_lower_bound_is_unbounded_and_nan_is_unknown():
    r, lo, hi = J.ratio(J.Metric(2, 1, 3, "ops/s"), J.Metric(1, -0.5, 2.5, "ops/s"))
    assert r == 2 and lo == pytest.approx(0.4) and math.isinf(hi)
    r, lo, hi = J.ratio(J.Metric(2, J.NAN, J.NAN, "ops/s"), J.Metric(1, 0.5, 1.5, "ops/s"))
    assert r == 2 and math.isnan(lo) and math.isnan(hi)
    assert J.fmt_ratio(r, lo, hi) == "2x [n/a]"


def test_load_real_run_with_provenance():
    run = J.load(I3)
    assert len(run.results) == 29
    assert run.provenance["jmh"]["version"] == "1.37"
    assert run.cpu == "AMD EPYC x2" and run.jdk == "Debian 17.0.15+6-Debian-1deb12u1"
    assert {r.mode for r in run.results} == {"thrpt", "avgt"}
    assert {r.simple_class for r in run.results} == {"SplitBenchmark", "MapKeyBenchmark", "CacheBenchmark", "ValidatorBenchmark"}
    r = run.results[0]  # CacheBenchmark.access CAFFEINE_HEAP writePercent=0: 0.333 +- 2.866 ops/us
    assert r.benchmark == CACHE + ".access" and r.params["variant"] == "CAFFEINE_HEAP"
    assert r.primary.lo == pytest.approx(r.primary.score - 2.865882000278894)
    assert r.primary.lo < 0 and r.primary.known  # JMH's interval, below zero for a noisy score
    assert "gc.alloc.rate.norm" in r.secondary and "liveHeapBytes" in r.secondary
    assert [r.primary.unit for r in run.results if r.method == "validate"] == ["us/op"] * 3


def test_sample_mode_loads():
    raw = json.loads(SAMPLE.read_text())
    assert "rawDataHistogram" in raw[0]["primaryMetric"] and "rawData" not in raw[0]["primaryMetric"]
    run = J.load(SAMPLE)
    assert [(r.mode, r.params["variant"]) for r in run.results] == [("sample", "PER_CALL"), ("sample", "SHARED"),
                                                                    ("sample", "HAND_WRITTEN")]
    per_call, shared = run.results[0], run.results[1]
    assert per_call.primary.unit == "us/op" and per_call.primary.known
    assert (per_call.primary.lo, per_call.primary.hi) == pytest.approx((4448.691066813568, 5251.317418809438))
    # the percentiles come as secondary metrics; JMH gives them no error, so the interval is rebuilt
    # from the per-iteration percentiles
    assert {"p0.00", "p0.50", "p0.99", "p1.00"} <= set(per_call.secondary)
    median = per_call.secondary["p0.50"]
    assert median.unit == "us/op" and median.score == pytest.approx(4292.608)
    assert median.known and median.lo < median.score < median.hi
    # SHARED 10.45 [8.51, 12.40] us/op vs PER_CALL 4,850 [4,449, 5,251] us/op
    assert J.fmt_ratio(*J.speedup(shared.primary, per_call.primary)) == "463.9x [358.8, 617.0]"


def test_single_shot_forks_load():
    run = J.load(COLD)
    assert {r.mode for r in run.results} == {"ss"} and {r.method for r in run.results} == {"coldStart"}
    per_call = run.results[0]
    assert per_call.primary.unit == "ms/op" and per_call.primary.known
    raw = json.loads(COLD.read_text())[0]["primaryMetric"]["rawData"]
    assert len(raw) == 3  # one value per fork
    assert per_call.primary.score == pytest.approx(sum(v for fork in raw for v in fork) / 3)
    assert J.to_base(per_call.primary.score, "ms/op") == pytest.approx(0.011607114393333333)


def test_nan_strings_give_unknown_interval():
    raw = json.loads(I1.read_text())[0]["primaryMetric"]
    assert raw["scoreError"] == "NaN" and raw["scoreConfidence"] == ["NaN", "NaN"]
    run = J.load(I1)
    r = run.results[0]  # split JDK_SPLIT, delimiter "::"
    assert r.method == "split" and r.params["variant"] == "JDK_SPLIT"
    assert math.isfinite(r.primary.score) and not r.primary.known
    assert J.fmt_metric(r.primary) == "1.19 ± n/a ops/us"
    assert not r.secondary["gc.alloc.rate.norm"].known and J.fmt_metric(r.secondary["gc.alloc.rate.norm"]) == "1,897 ± n/a B/op"
    assert all(not x.primary.known for x in run.results)
    assert J.fmt_ratio(*J.speedup(run.results[4].primary, r.primary)) == "2.87x [n/a]"


def test_summed_metrics_get_interval_from_raw_data():
    run = J.load(I3)
    r = J.select(run.results, {"method": "split", "params": {"delimiter": "|", "variant": "INDEX_OF"}})[0]
    raw = [x for x in json.loads(I3.read_text()) if x["benchmark"] == r.benchmark and x["params"] == r.params][0]
    gc_time = raw["secondaryMetrics"]["gc.time"]
    assert gc_time["scoreError"] == "NaN" and gc_time["scoreConfidence"] == [20.0, 20.0]  # JMH gives no interval
    vals = gc_time["rawData"][0]
    assert vals == [8.0, 7.0, 5.0]
    gct = r.secondary["gc.time"]
    assert gct.score == sum(vals) == 20
    # the t-interval of the per-iteration mean (99.9%, 2 degrees of freedom), scaled to the sum
    half = 31.599 * statistics.stdev(vals) / math.sqrt(3) * 3
    assert gct.known and (gct.lo, gct.hi) == pytest.approx((20 - half, 20 + half))
    assert (gct.lo, gct.hi) == pytest.approx((-63.603, 103.603), abs=1e-3)
    # a single collecting iteration gives no interval
    ohc = J.select(run.results, {"benchmark": "CacheBenchmark", "params": {"variant": "OHC_OFF_HEAP", "writePercent": "100"}})[0]
    assert ohc.secondary["gc.time"].score == 1 and not ohc.secondary["gc.time"].known
    # gc.count 0 in every iteration: a known zero
    lookup = J.select(run.results, {"method": "lookup"})
    assert all(x.secondary["gc.count"].known and x.secondary["gc.count"].hi == 0 for x in lookup)
    # gc.time missing while the gc profiler ran reads as zero
    assert lookup and all("gc.time" not in x.secondary and x.metric("gc.time").score == 0 for x in lookup)
    assert J.load(COLD).results[1].metric("gc.time").score == 0


def test_legacy_dot_names_no_params_and_json_nan(tmp_path):
    p = tmp_path / "old.json"
    p.write_text('[{"benchmark": "x.Y.z", "mode": "avgt", "primaryMetric": {"score": 2.0, "scoreError": NaN,'
                 ' "scoreUnit": "ms/op"}, "secondaryMetrics": {"\u00b7gc.alloc.rate.norm":'
                 ' {"score": "24.0", "scoreError": "0.5", "scoreUnit": "B/op"}}}]')
    run = J.load(p)
    r = run.results[0]
    assert r.params == {} and r.secondary["gc.alloc.rate.norm"].score == 24.0
    assert r.secondary["gc.alloc.rate.norm"].lo == 23.5
    assert not r.primary.known
    g = J.group_results(run.results)
    assert len(g) == 1 and g[0].baseline is None


def test_grouping_by_params_and_default_baseline():
    run = J.load(I3)
    groups = J.group_results(run.results)
    variants = {(g.simple_class, g.name): g for g in groups if g.baseline is not None}
    by = {}
    for g in groups:
        by.setdefault((g.simple_class, g.name), []).append(g)
    # one group per param set: 2 writePercents, 2 sizes, 2 delimiters, 1; without a configured pair the
    # splitFirst methods stand alone, one group per delimiter each
    assert {k: len(v) for k, v in by.items()} == {
        ("CacheBenchmark", "access"): 2, ("MapKeyBenchmark", "lookup"): 2, ("SplitBenchmark", "split"): 2,
        ("ValidatorBenchmark", "validate"): 1, ("SplitBenchmark", "jdkSplitFirst"): 2,
        ("SplitBenchmark", "jdkSplitLimitFirst"): 2, ("SplitBenchmark", "splitFirst"): 2}
    assert set(variants) == {("CacheBenchmark", "access"), ("MapKeyBenchmark", "lookup"), ("SplitBenchmark", "split"),
                             ("ValidatorBenchmark", "validate")}
    # the default baseline is the first value of the class in the file (JMH runs enum constants in order)
    for g in by[("SplitBenchmark", "split")]:
        assert [lbl for lbl, _ in g.rows] == ["JDK_SPLIT", "JDK_PATTERN", "COMMONS_LANG", "GUAVA", "INDEX_OF"]
        assert g.baseline == "JDK_SPLIT" and set(g.params) == {"delimiter", "fields", "poolSize", "seed"}
    assert [g.params["delimiter"] for g in by[("SplitBenchmark", "split")]] == ["|", "||"]
    assert [g.params["size"] for g in by[("MapKeyBenchmark", "lookup")]] == ["100000", "1000000"]
    assert all(g.baseline == "STRING_KEY" for g in by[("MapKeyBenchmark", "lookup")])
    assert all(g.baseline == "CAFFEINE_HEAP" and set(g.params) == {"entries", "garbageBytes", "seed", "writePercent"}
               for g in by[("CacheBenchmark", "access")])
    assert by[("ValidatorBenchmark", "validate")][0].baseline == "PER_CALL"
    # a configured baseline comes first
    cfg = {"techniques": {SPLIT: {"baseline": "INDEX_OF"}}}
    split = [g for g in J.group_results(run.results, cfg) if g.name == "split"]
    assert len(split) == 2 and all(g.baseline == "INDEX_OF" and g.rows[0][0] == "INDEX_OF" for g in split)


def test_method_pairs_from_config():
    run = J.load(I3)
    cfg = J.load_config(J.DEFAULT_TECHNIQUES)  # jdkSplitFirst paired with jdkSplitLimitFirst and splitFirst
    groups = [g for g in J.group_results(run.results, cfg) if g.label_kind == "method"]
    assert len(groups) == 2  # one per delimiter
    for g, d in zip(groups, ["|", "||"]):
        assert [lbl for lbl, _ in g.rows] == ["jdkSplitFirst", "jdkSplitLimitFirst", "splitFirst"]
        assert g.baseline == "jdkSplitFirst" and g.name == "jdkSplitFirst" and g.params["delimiter"] == d
    # splitFirst "|": 78.7 [48.4, 109.0] vs jdkSplitFirst 4.34 [2.69, 5.99] ops/us
    b, r = groups[0].base_result(), dict(groups[0].rows)["splitFirst"]
    assert J.fmt_ratio(*J.speedup(r.primary, b.primary)) == "18.1x [8.09, 40.5]"
    # different modes never pair
    for r in run.results:
        if r.method == "splitFirst":
            r.mode = "avgt"
    groups = [g for g in J.group_results(run.results, cfg) if g.label_kind == "method"]
    assert len(groups) == 4
    assert sorted([lbl for lbl, _ in g.rows] for g in groups) == [["jdkSplitFirst", "jdkSplitLimitFirst"]] * 2 + [["splitFirst"]] * 2
    assert all(g.baseline is None for g in groups if g.mode == "avgt")


def test_select_max_param():
    results = J.load(I3).results
    rs = J.select(results, {"benchmark": "MapKeyBenchmark", "method": "lookup", "params": {"size": "max"}})
    assert {r.params["size"] for r in rs} == {"1000000"} and len(rs) == 3
    rs = J.select(results, {"benchmark": "MapKeyBenchmark", "params": {"size": "min", "variant": "LONG_KEY"}})
    assert [r.params["size"] for r in rs] == ["100000"]
    # "max" is the largest value present, compared as numbers
    rs = J.select(results, {"benchmark": "CacheBenchmark", "params": {"writePercent": "max"}})
    assert {r.params["writePercent"] for r in rs} == {"100"} and len(rs) == 2
    rs = J.select(results, {"benchmark": SPLIT, "method": "split", "params": {"delimiter": ["||", "::"], "variant": "INDEX_OF"}})
    assert [r.params["delimiter"] for r in rs] == ["||"]
    assert {r.method for r in J.select(results, {"metric": "bytesPerEntry"})} == {"lookup"}
    assert {r.method for r in J.select(results, {"metric": "allocFloor"})} == {"split"}
    assert J.select(results, {"benchmark": "ValidatorBenchmark", "method": "coldStart"}) == []


def test_fmt_params_quotes_values_that_are_not_plain():
    assert J.fmt_params({"delimiter": "||", "fields": "16"}) == 'delimiter="||", fields=16'
    assert J.fmt_params({"delimiter": ","}) == 'delimiter=","'
    assert J.fmt_params({"delimiter": "::"}) == 'delimiter="::"'
    assert J.fmt_params({"delimiter": "a b"}) == 'delimiter="a b"'
    assert J.fmt_params({"variant": "INDEX_OF", "size": "1000000", "ratio": "0.5", "shift": "-1"}) == \
        "variant=INDEX_OF, size=1000000, ratio=0.5, shift=-1"
    assert J.fmt_params({}) == ""
    # on real results: the delimiter reads unambiguously inside the comma-separated list
    r = J.select(J.load(I3).results, {"method": "splitFirst", "params": {"delimiter": "|"}})[0]
    assert J.fmt_params(r.params) == 'delimiter="|", fields=16, poolSize=256, seed=42'


def test_md_cell_escapes_pipes():
    assert J.md_cell('delimiter="||", fields=16') == 'delimiter="\\|\\|", fields=16'
    assert J.md_cell("a|b") == "a\\|b" and J.md_cell("plain") == "plain" and J.md_cell(16) == "16"


def test_geomean_interval_contains_members():
    m = J.geomean_metric([J.Metric(4, 2, 8, "ns/op"), J.Metric(1, 0.5, 2, "ns/op")])
    assert m.score == pytest.approx(2e-9) and m.lo == pytest.approx(1e-9) and m.hi == pytest.approx(4e-9)


@pytest.mark.parametrize("name,needle", [("empty.json", "empty file"), ("notjson.json", "not JSON"),
                                         ("notjmh.json", "not a JMH result file"),
                                         ("noprimary.json", "without primaryMetric"),
                                         ("missing.json", "no such file")])
def test_bad_input_names_file_and_problem(fixtures, name, needle):
    with pytest.raises(J.InputError) as e:
        J.load(fixtures / name)
    assert name in str(e.value) and needle in str(e.value) and "\n" not in str(e.value)


def test_newest_run_skips_provenance_baseline_hidden(tmp_path):
    for n in ["20260101T000000Z-aaa.json", "20260102T000000Z-bbb.json", "20260102T000000Z-bbb.provenance.json",
              "baseline.json", ".20260103T000000Z-ccc.json.partial", ".hidden.json"]:
        (tmp_path / n).write_text("[]")
    assert J.newest_run(tmp_path).name == "20260102T000000Z-bbb.json"
    with pytest.raises(J.InputError):
        J.newest_run(tmp_path / "nope")


def test_write_atomic_leaves_no_temp(tmp_path):
    p = tmp_path / "sub" / "f.md"
    J.write_atomic(p, "hello")
    J.write_atomic(p, "world")
    assert p.read_text() == "world" and [x.name for x in p.parent.iterdir()] == ["f.md"]
