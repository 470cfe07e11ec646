"""Loading and checking JMH JSON (hpb.model), the statistics (hpb.stats), grouping (hpb.select)."""
import json
import math
import statistics

import pytest

from conftest import CACHE, COLD, FULL_AMD, I1, I3, SAMPLE, SPLIT, copy_run, edit_results, is_
from hpb import stats
from hpb.markdown import cell, fmt_metric, fmt_params, fmt_ratio, table, write_atomic
from hpb.model import NAN, InputError, Metric, convert, higher_is_better, load, load_many, newest_run, unit_kind
from hpb.select import group_results, select


def test_units_convert_and_compare():
    assert convert(2.0, "ops/us", "ops/s") == pytest.approx(2e6)
    assert convert(3.0, "ns/op", "s/op") == pytest.approx(3e-9)
    assert convert(1.0, "ms/op", "us/op") == pytest.approx(1000)
    assert convert(1.0, "ops/ms", "ops/us") == pytest.approx(0.001)
    assert higher_is_better("ops/us") and not higher_is_better("ns/op") and not higher_is_better("B/op")
    with pytest.raises(ValueError):
        convert(1.0, "ops/s", "s/op")
    with pytest.raises(ValueError):
        convert(1.0, "B/op", "ms")
    assert unit_kind("furlongs")[0] == "unknown" and unit_kind("MB/sec")[0] != "rate"


def test_ratio_interval_is_conservative():
    a, b = Metric(10, 8, 12, "ops/us"), Metric(5, 4, 6, "ops/us")
    assert tuple(stats.ratio(a, b)) == pytest.approx((2.0, 8 / 6, 12 / 4))
    assert tuple(stats.ratio(a, Metric(5000, 4000, 6000, "ops/ms"))) == pytest.approx((2.0, 8 / 6, 3.0))
    before, after = Metric(100, 90, 110, "ns/op"), Metric(50, 45, 55, "ns/op")
    assert tuple(stats.speedup(after, before)) == pytest.approx((2.0, 90 / 55, 110 / 45))
    r = stats.ratio(Metric(2, 1, 3, "ops/s"), Metric(1, -0.5, 2.5, "ops/s"))
    assert r.value == 2 and r.lo == pytest.approx(0.4) and math.isinf(r.hi)
    r = stats.ratio(Metric(2, NAN, NAN, "ops/s"), Metric(1, 0.5, 1.5, "ops/s"))
    assert r.value == 2 and not r.known and fmt_ratio(*r) == "2x [n/a]"


def test_change_estimates_and_equivalence():
    # a gain of 3.5x [3.37, 3.70] that became 2.1x [2.0, 2.2]: at most 0.65x of what it was
    moved = stats.change(stats.Figure(3.5, 3.37, 3.70), stats.Figure(2.1, 2.0, 2.2))
    assert tuple(moved) == pytest.approx((0.6, 2.0 / 3.70, 2.2 / 3.37))
    # two independent estimates: the difference's standard error adds in quadrature, Welch's degrees of freedom
    a, b = stats.Estimate(1.0, 0.1, 4, 5), stats.Estimate(0.5, 0.2, 9, 10)
    d = stats.difference(a, b)
    assert d.mean == 0.5 and d.se == pytest.approx(math.sqrt(0.05))
    assert d.df == pytest.approx(0.05 ** 2 / (0.01 ** 2 / 4 + 0.04 ** 2 / 9))
    avg = stats.average([a, b])
    assert avg.mean == 0.75 and avg.se == pytest.approx(math.sqrt(0.05) / 2) and avg.df == pytest.approx(d.df)
    assert stats.welch([0.0, 0.2], [0.1, 0.3]).mean == pytest.approx(-0.1)
    assert not stats.difference(a, stats.Estimate(0.5, math.nan, math.nan, 1)).figure().known
    # how many trials a figure would need: the half-width t(0.975, n-1) * sd / sqrt(n) below the distance
    n = stats.trials_needed(0.1, 0.05)
    assert stats.t_quantile(0.975, n - 1) * 0.1 / math.sqrt(n) < 0.05 <= stats.t_quantile(0.975, n - 2) * 0.1 / math.sqrt(n - 1)
    assert stats.trials_needed(0.1, 0.0) is None and stats.trials_needed(10.0, 0.01) is None  # never, or beyond the cap
    assert stats.equivalent(stats.Figure(1.0, 0.97, 1.03), 5)
    assert not stats.equivalent(stats.Figure(1.0, 0.94, 1.03), 5) and not stats.equivalent(stats.Figure(1.0), 5)
    assert stats.amdahl(2.0, 0.2) == pytest.approx(1 / 0.9) and stats.amdahl(math.inf, 0.2) == pytest.approx(1.25)


def test_load_real_run_environment_from_the_json():
    run = load(I3)
    assert len(run.results) == 29 and run.cpu == "AMD EPYC x2"
    assert run.jdk == "OpenJDK 64-Bit Server VM 17.0.15"
    r = run.results[0]  # CacheBenchmark.access CAFFEINE_HEAP writePercent=0: 0.333 +- 2.866 ops/us
    assert r.benchmark == CACHE + ".access" and r.params["variant"] == "CAFFEINE_HEAP"
    assert r.primary.lo < 0 and r.primary.known  # JMH's interval, below zero for a noisy score
    assert r.env.jdk == "17.0.15" and r.env.jvm_args == ("-Xms4g", "-Xmx4g", "-XX:+UseG1GC") and r.env.jdk_major == "17"
    assert [x.primary.unit for x in run.results if x.method == "validate"] == ["us/op"] * 3


def test_a_file_without_provenance_is_described_by_its_own_json(tmp_path):
    bare = load(copy_run(I3, tmp_path / "bare.json", provenance=False))
    with_prov = load(I3)
    assert bare.provenance is None and bare.cpu == ""
    assert bare.jdk == with_prov.jdk
    assert [r.env.jdk for r in bare.results] == [r.env.jdk for r in with_prov.results]


def test_sample_and_single_shot_modes_load():
    run = load(SAMPLE)
    per_call, shared = run.results[0], run.results[1]
    assert per_call.mode == "sample" and per_call.primary.unit == "us/op" and per_call.primary.known
    median = per_call.secondary["p0.50"]
    assert median.known and median.lo < median.score < median.hi
    assert fmt_ratio(*stats.speedup(shared.primary, per_call.primary)) == "463.9x [358.8, 617.0]"
    cold = load(COLD)
    raw = json.loads(COLD.read_text())[0]["primaryMetric"]["rawData"]
    assert len(raw) == 3 and cold.results[0].primary.score == pytest.approx(sum(v for f in raw for v in f) / 3)


def test_nan_strings_give_unknown_interval():
    run = load(I1)
    r = run.results[0]
    assert math.isfinite(r.primary.score) and not r.primary.known
    assert fmt_metric(r.primary) == "1.19 ± n/a ops/us"
    assert fmt_ratio(*stats.speedup(run.results[4].primary, r.primary)) == "2.87x [n/a]"


def test_summed_metrics_get_interval_from_raw_data():
    run = load(I3)
    r = select(run.results, {"method": "split", "params": {"delimiter": "|", "variant": "INDEX_OF"}})[0]
    gct = r.secondary["gc.time"]
    vals = [8.0, 7.0, 5.0]
    half = 31.5990546 * statistics.stdev(vals) / math.sqrt(3) * 3  # t(0.9995, 2): JMH's 99.9%
    assert gct.score == 20 and (gct.lo, gct.hi) == pytest.approx((20 - half, 20 + half))
    lookup = select(run.results, {"method": "lookup"})
    assert lookup and all("gc.time" not in x.secondary and x.metric("gc.time").score == 0 for x in lookup)


def test_a_trials_run_gives_summed_metrics_per_fork_not_summed_over_forks():
    """EventShares posts bytesPerEntry as shares that add up to the figure over one fork's
    iterations; a trials run merges forks that each ran alone, so JMH's merged score is the fork
    count times the figure. The loader gives each fork's sum and their mean: the same figure as a
    run in JMH's own fork order on the same machine."""
    from conftest import REPO
    trials = load(REPO / "results/20261124T001429Z-7fea29b.json")
    jmh = load(REPO / "results/20261123T175712Z-ab8d12e.json")
    assert trials.protocol == "trials" and jmh.protocol == "jmh-forks"
    want = {"method": "lookup", "params": {"missPercent": "0", "size": "10000000", "variant": "STRING_KEY"}}
    t = [r for r in select(trials.results, want) if "bytesPerEntry" in r.secondary][0]
    j = [r for r in select(jmh.results, want) if "bytesPerEntry" in r.secondary]
    sums = t.fork_values["bytesPerEntry"]
    assert len(sums) == t.forks == 7 and max(sums) - min(sums) < 0.01
    assert t.secondary["bytesPerEntry"].score == pytest.approx(statistics.mean(sums))
    assert j and all(r.secondary["bytesPerEntry"].score == pytest.approx(t.secondary["bytesPerEntry"].score, abs=1.5)
                     for r in j)
    # an averaged metric keeps JMH's own score
    alloc = t.secondary["gc.alloc.rate.norm"]
    assert t.fork_values["gc.alloc.rate.norm"] and alloc.score < 2 * max(t.fork_values["gc.alloc.rate.norm"])


def test_grouping_and_method_pairs(suite):
    run = load(I3)
    by = {}
    for g in group_results(run.results, suite):
        by.setdefault((g.simple_class, g.name, g.label_kind), []).append(g)
    for g in by[("SplitBenchmark", "split", "variant")]:
        assert g.labels == ["JDK_SPLIT", "JDK_PATTERN", "COMMONS_LANG", "GUAVA", "INDEX_OF"] and g.baseline == "JDK_SPLIT"
    pairs = by[("SplitBenchmark", "jdkSplitFirst", "method")]
    assert [g.labels for g in pairs] == [["jdkSplitFirst", "jdkSplitLimitFirst", "splitFirst"]] * 2
    splitfirst = pairs[0]
    assert fmt_ratio(*stats.speedup(splitfirst.result("splitFirst").primary, splitfirst.base_result().primary)) == "18.1x [8.09, 40.5]"
    assert all(g.baseline == "STRING_KEY" for g in by[("MapKeyBenchmark", "lookup", "variant")])
    # without a suite the first variant seen is the baseline and there are no method pairs
    plain = group_results(run.results)
    assert not [g for g in plain if g.label_kind == "method"]


def test_select_max_and_lists():
    results = load(I3).results
    rs = select(results, {"benchmark": "MapKeyBenchmark", "method": "lookup", "params": {"size": "max"}})
    assert {r.params["size"] for r in rs} == {"1000000"} and len(rs) == 3
    rs = select(results, {"benchmark": SPLIT, "method": "split", "params": {"delimiter": ["||", "::"], "variant": "INDEX_OF"}})
    assert [r.params["delimiter"] for r in rs] == ["||"]


def test_formatting_quotes_and_escapes():
    assert fmt_params({"delimiter": "||", "fields": "16"}) == 'delimiter="||", fields=16'
    assert fmt_params({"variant": "INDEX_OF", "shift": "-1"}) == "variant=INDEX_OF, shift=-1"
    assert cell('a|b') == "a\\|b" and cell("two\nlines") == "two lines" and cell(16) == "16"
    lines = table(["a", "b"], [["x|y", "1\n2"]])
    assert lines == ["| a | b |", "|---|---|", "| x\\|y | 1 2 |"]


def test_newest_run_skips_provenance_baseline_hidden(tmp_path):
    for n in ["20260101T000000Z-aaa.json", "20260102T000000Z-bbb.json", "20260102T000000Z-bbb.provenance.json",
              "baseline.json", ".20260103T000000Z-ccc.json.partial", ".hidden.json", "cited.json", "readiness-jdk25.json"]:
        (tmp_path / n).write_text("[]")
    assert newest_run(tmp_path).name == "20260102T000000Z-bbb.json"
    with pytest.raises(InputError):
        newest_run(tmp_path / "nope")


def test_write_atomic_leaves_no_temp(tmp_path):
    p = tmp_path / "sub" / "f.md"
    write_atomic(p, "hello")
    write_atomic(p, "world")
    assert p.read_text() == "world" and [x.name for x in p.parent.iterdir()] == ["f.md"]


# ---------------------------------------------------------------- every rule, by a mutated real run

def primary_of(r):
    return r["primaryMetric"]


def set_primary(**kv):
    return lambda r: primary_of(r).update(kv)


SPLIT_INDEX_OF = is_("split", variant="INDEX_OF", delimiter="||", fields="16")
ALLOC_OF = lambda r: r["secondaryMetrics"]["gc.alloc.rate.norm"]  # noqa: E731

RULES = [
    ("infinite score", set_primary(score="Infinity"), "is not a finite number"),
    ("NaN score", set_primary(score="NaN"), "is not a finite number"),
    ("zero throughput", set_primary(score=0.0, scoreError=0.0, scoreConfidence=[0.0, 0.0]), "is not positive"),
    ("negative throughput", set_primary(score=-1.0, scoreError=0.1, scoreConfidence=[-1.1, -0.9]), "is not positive"),
    ("score outside its interval", lambda r: primary_of(r).update(scoreConfidence=[primary_of(r)["score"] * 2, primary_of(r)["score"] * 3]),
     "outside its own interval"),
    ("interval not ordered", lambda r: primary_of(r).update(scoreConfidence=[primary_of(r)["score"] + 1, primary_of(r)["score"] - 1]),
     "is not ordered"),
    ("negative error", set_primary(scoreError=-0.5), "scoreError"),
    ("no unit", lambda r: primary_of(r).pop("scoreUnit"), "without a unit"),
    ("empty unit", set_primary(scoreUnit=""), "without a unit"),
    ("unknown unit", set_primary(scoreUnit="furlongs/op"), "is not a throughput"),
    ("B/op as a primary", set_primary(scoreUnit="B/op"), "is not a throughput"),
    ("negative B/op", lambda r: ALLOC_OF(r).update(score=-8.0, scoreConfidence=[-9.0, -7.0]), "is negative"),
    ("secondary without a unit", lambda r: ALLOC_OF(r).pop("scoreUnit"), "without a unit"),
    ("params not an object", lambda r: r.update(params=["delimiter", "||"]), "params is not an object"),
    ("param value an object", lambda r: r["params"].update(delimiter={"x": 1}), "params is not an object"),
    ("threads zero", lambda r: r.update(threads=0), "threads"),
    ("unknown mode", lambda r: r.update(mode="fast"), "unknown mode"),
    ("jvmArgs a string", lambda r: r.update(jvmArgs="-Xmx1g"), "jvmArgs"),
    ("confidence not a pair", set_primary(scoreConfidence=[1.0]), "scoreConfidence"),
]


@pytest.mark.parametrize("name,mutate,needle", RULES, ids=[r[0] for r in RULES])
def test_every_number_and_unit_is_checked(tmp_path, name, mutate, needle):
    bad = copy_run(I3, tmp_path / "bad.json", edit_results(SPLIT_INDEX_OF, mutate))
    with pytest.raises(InputError) as e:
        load(bad)
    msg = str(e.value)
    assert needle in msg and "bad.json" in msg and "SplitBenchmark.split" in msg and "\n" not in msg


def test_duplicates_are_bad_input_in_any_file(tmp_path):
    data = json.loads(I3.read_text())
    dup = tmp_path / "dup.json"
    dup.write_text(json.dumps(data + [data[3]]))
    with pytest.raises(InputError, match="measured twice"):
        load(dup)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(data[:10]))
    b.write_text(json.dumps(data[9:]))
    with pytest.raises(InputError, match="is also in"):
        load_many([a, b])
    b.write_text(json.dumps(data[10:]))
    assert [r.key for r in load_many([a, b]).results] == [r.key for r in load(I3).results]


def test_deeply_nested_json_is_bad_input(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(InputError, match="nested too deeply"):
        load(deep)


@pytest.mark.parametrize("name,needle", [("empty.json", "empty file"), ("notjson.json", "not JSON"),
                                         ("notjmh.json", "not a JMH result file"),
                                         ("noprimary.json", "without primaryMetric"),
                                         ("missing.json", "no such file")])
def test_bad_input_names_file_and_problem(fixtures, name, needle):
    with pytest.raises(InputError) as e:
        load(fixtures / name)
    assert name in str(e.value) and needle in str(e.value) and "\n" not in str(e.value)


def test_committed_full_run_passes_every_rule():
    run = load(FULL_AMD)
    assert len(run.results) == 162 and all(r.primary.score > 0 for r in run.results)


def test_a_result_keeps_the_warm_up_its_forks_ran():
    run = load(I3)
    assert {r.warmup for r in run.results} == {(2, "500 ms")}, "suite-i3.json was run at 2 x 500 ms of warm-up"
