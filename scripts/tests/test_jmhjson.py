import json
import math

import pytest

import jmhjson as J


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


def test_load_real_run_with_provenance(fixtures):
    run = J.load(fixtures / "throwaway-i3.json")
    assert len(run.results) == 16
    assert run.provenance["jmh"]["version"] == "1.37"
    assert run.cpu == "AMD EPYC x2"
    modes = {r.mode for r in run.results}
    assert modes == {"thrpt", "avgt", "sample", "ss"}
    sample = [r for r in run.results if r.mode == "sample"][0]
    assert sample.primary.unit == "us/op" and sample.primary.known
    r = run.results[0]
    assert r.primary.lo == pytest.approx(r.primary.score - 5.773744388867093)
    assert "gc.alloc.rate.norm" in r.secondary


def test_nan_strings_give_unknown_interval(fixtures):
    run = J.load(fixtures / "throwaway-i1.json")
    r = run.results[0]
    assert math.isfinite(r.primary.score) and not r.primary.known
    assert J.fmt_metric(r.primary).endswith("± n/a ops/us")


def test_summed_metrics_get_interval_from_raw_data(fixtures):
    run = J.load(fixtures / "throwaway-i3.json")
    r = [r for r in run.results if r.method == "alloc" and "gc.time" in r.secondary][0]
    gct = r.secondary["gc.time"]
    assert gct.known and gct.lo <= gct.score <= gct.hi
    # gc.time missing while the gc profiler ran reads as zero
    r0 = [r for r in run.results if r.method == "alloc" and "gc.time" not in r.secondary][0]
    assert r0.metric("gc.time").score == 0


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


def test_grouping_by_params_and_default_baseline(fixtures):
    run = J.load(fixtures / "throwaway-i3.json")
    groups = J.group_results(run.results)
    assert len(groups) == 8  # 4 methods x 2 sizes
    for g in groups:
        assert [lbl for lbl, _ in g.rows] == ["SLOW", "FAST"]
        assert g.baseline == "SLOW"  # first value in the file
        assert set(g.params) == {"seed", "size"}
    cfg = {"techniques": {"io.hotpathbench.zzthrowaway.ThrowawayBenchmark": {"baseline": "FAST"}}}
    assert all(g.baseline == "FAST" and g.rows[0][0] == "FAST" for g in J.group_results(run.results, cfg))


def test_method_pairs_from_config(fixtures):
    run = J.load(fixtures / "throwaway-i3.json")
    cfg = {"techniques": {"io.hotpathbench.zzthrowaway.ThrowawayBenchmark": {
        "variant_param": "none", "method_pairs": [{"baseline": "sum", "methods": ["sampled"]}]}}}
    groups = [g for g in J.group_results(run.results, cfg) if g.label_kind == "method"]
    assert len(groups) == 8  # different modes never pair
    for r in run.results:
        if r.method == "sampled":
            r.mode = "thrpt"
    groups = [g for g in J.group_results(run.results, cfg) if g.label_kind == "method"]
    assert len(groups) == 4  # 2 sizes x 2 variants (params keep 'variant')
    for g in groups:
        assert [lbl for lbl, _ in g.rows] == ["sum", "sampled"] and g.baseline == "sum"


def test_select_max_param(fixtures):
    run = J.load(fixtures / "throwaway-i3.json")
    rs = J.select(run.results, {"benchmark": "ThrowawayBenchmark", "method": "sum", "params": {"size": "max"}})
    assert {r.params["size"] for r in rs} == {"100000"}
    rs = J.select(run.results, {"benchmark": "ThrowawayBenchmark", "metric": "bytesPerEntry"})
    assert {r.method for r in rs} == {"alloc"}


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
