import copy
import subprocess
import sys
from pathlib import Path

import pytest

import chart
import gate
import jmhjson as J
import report
from conftest import COLD, I1, I3, KEYS, SAMPLE, SCRIPTS, SPLIT, copy_run, md_cells, md_tables

TECHNIQUES = J.load_config(J.DEFAULT_TECHNIQUES)
CLAIMS = J.load_config(J.DEFAULT_CLAIMS)
NOT_ESTABLISHED = "not established (point clears the bar, interval does not)"


def assert_tables_well_formed(text):
    """Every row of every Markdown table has as many cell separators as its header."""
    tables = md_tables(text)
    assert tables
    for t in tables:
        n = len(md_cells(t[0]))
        assert all(len(md_cells(line)) == n for line in t), "\n".join(t)


def table_after(text, heading):
    """The first Markdown table after the line `heading`, as lists of cells (header first)."""
    rest = text[text.index(heading + "\n"):]
    return [md_cells(line) for line in md_tables(rest)[0]]


def test_every_chart_written_non_empty(tmp_path):
    results = J.load_many([I3, SAMPLE, COLD]).results
    made = chart.write_charts(results, tmp_path, TECHNIQUES)
    assert {(m[1], m[2], m[3]) for m in made} == {
        ("access", "thrpt", "bars"), ("lookup", "thrpt", "bars"), ("lookup", "thrpt", "size"),
        ("split", "thrpt", "bars"), ("jdkSplitFirst", "thrpt", "bars"),  # the method pair
        ("validate", "avgt", "bars"), ("validate", "sample", "bars"), ("coldStart", "ss", "bars")}
    assert {m[-1].name for m in made} == {
        "CacheBenchmark-access.png", "MapKeyBenchmark-lookup.png", "MapKeyBenchmark-lookup-by-size.png",
        "SplitBenchmark-split.png", "SplitBenchmark-jdkSplitFirst.png", "ValidatorBenchmark-validate-avgt.png",
        "ValidatorBenchmark-validate-sample.png", "ValidatorBenchmark-coldStart.png"}
    for *_, png in made:
        for ext in ("png", "svg"):
            f = png.with_suffix("." + ext)
            assert f.stat().st_size > 1000
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_chart_with_unknown_intervals(tmp_path):
    made = chart.write_charts(J.load(I1).results, tmp_path, TECHNIQUES)
    assert {(m[1], m[2]) for m in made} == {("split", "thrpt"), ("validate", "avgt")}
    assert all(m[-1].stat().st_size > 1000 for m in made)


def test_report_table_ratios_and_published_not_run(tmp_path):
    out = tmp_path / "REPORT.md"
    assert report.main([str(I3), "--out", str(out), "--charts", str(tmp_path / "charts")]) == 0
    text = out.read_text()
    assert "AMD EPYC, 2 CPUs" in text and "JMH 1.37" in text
    # lookup size=1000000: STRING_KEY 7.267 [5.608, 8.926] ops/us, LONG_KEY 23.685 [18.878, 28.492]
    r, lo, hi = 23.685047304336532 / 7.267359541265449, 18.878420094343088 / 8.92638958827706, 28.491674514329976 / 5.60832949425384
    assert J.fmt_ratio(r, lo, hi) == "3.26x [2.11, 5.08]"
    assert f"| missPercent=0, seed=42, size=1000000 | LONG_KEY | 23.7 ± 4.81 ops/us | {J.fmt_ratio(r, lo, hi)} |" in text
    # a '|' delimiter is quoted and escaped in the params cell
    assert '| delimiter="\\|", fields=16, poolSize=256, seed=42 | INDEX_OF | 5.28 ± 1.64 ops/us | 1.21x [0.709, 1.91] |' in text
    assert "| Validator built once vs per call: 10x over the first 100 calls (2,772 ms vs 278 ms), cold start as the write-up measured | 10x |  | not run | not run |" in text
    assert "![MapKeyBenchmark.lookup bars](charts/MapKeyBenchmark-lookup.png)" in text
    assert "![SplitBenchmark.jdkSplitFirst bars](charts/SplitBenchmark-jdkSplitFirst.png)" in text
    assert_tables_well_formed(text)
    # REPORT.md keeps every variant the README leaves out
    split = [c for c in table_after(text, "### split (thrpt)")[1:] if c[0] != "---"]
    assert [(c[0].split(",")[0], c[1].split()[0]) for c in split] == [
        (d, v) for d in ('delimiter="\\|"', 'delimiter="\\|\\|"')
        for v in ("JDK_SPLIT", "JDK_PATTERN", "COMMONS_LANG", "GUAVA", "INDEX_OF")]
    assert len([c for c in table_after(text, "### access (thrpt)")[2:]]) == 4


def test_published_verdict_comes_from_numbers():
    results = J.load(I3).results
    sel = lambda v: {"benchmark": "MapKeyBenchmark", "method": "lookup", "params": {"variant": v, "size": "max"}}

    def verdict(published, tol=1.3):
        cfg = {"published": [{"id": "x", "claim": "c", "published": published, "tolerance": tol,
                              "measure": {"kind": "speedup", "after": sel("LONG_KEY"), "before": sel("STRING_KEY")},
                              "why": {"agrees": "A", "higher": "H", "lower": "L"}}]}
        return report.published_rows(results, cfg)[0]

    # measured 3.26x [2.11, 5.08]
    assert verdict(3.2)["measured"] == "3.26x [2.11, 5.08] (n=1+1)"
    assert verdict(3.2)["verdict"] == "agrees" and verdict(3.2)["why"] == "A"
    assert verdict(1.0)["verdict"] == "does not agree (measured higher)" and verdict(1.0)["why"] == "H"
    assert verdict(10.0)["verdict"] == "does not agree (measured lower)" and verdict(10.0)["why"] == "L"
    # band 1.54..2.6: the interval overlaps it but the point lies above it
    wide = verdict(2.0)
    assert wide["verdict"] == "inconclusive (interval too wide)" and "The point lies higher than the band: H" in wide["why"]
    row = report.published_rows(J.load(I1).results, {"published": [{
        "id": "x", "claim": "c", "published": 2, "measure": {"kind": "speedup",
        "after": {"method": "split", "params": {"variant": "INDEX_OF"}},
        "before": {"method": "split", "params": {"variant": "JDK_SPLIT"}}}}]})[0]
    assert row["verdict"] == "inconclusive" and row["measured"] == "2.87x [n/a] (n=1+1)"
    # sample mode: SHARED vs PER_CALL 463.9x [358.8, 617.0], far above the write-up's 10x
    steady = [r for r in report.published_rows(J.load(SAMPLE).results, TECHNIQUES) if r["id"] == "validator-10x-steady"][0]
    assert steady["measured"] == "463.9x [358.8, 617.0] (n=1+1)" and steady["verdict"] == "does not agree (measured higher)"


def test_amdahl_bounds_end_to_end_gain():
    assert report._amdahl(2.0, 0.2) == pytest.approx(1 / 0.9)
    assert report._amdahl(float("inf"), 0.2) == pytest.approx(1.25)


KEYS_HEADLINE = ("| Weight map: String keys vs long keys | MapKeyBenchmark.lookup (thrpt) | missPercent=0, size=1000000 "
                 "| STRING_KEY: 7.27 ± 1.66 ops/us | LONG_KEY: 23.7 ± 4.81 ops/us | 3.26x [2.11, 5.08] |")


def test_readme_block_rewritten_between_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\nbefore\n<!-- figures:start -->\nold\n<!-- figures:end -->\nafter\n")
    res = tmp_path / "results"
    assert report.main([str(I3), "--out", str(res / "REPORT.md"), "--charts", str(res / "charts"), "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert text.startswith("# T\n\nbefore\n<!-- figures:start -->") and text.endswith("<!-- figures:end -->\nafter\n")
    assert "\nold\n" not in text and "(results/charts/SplitBenchmark-split.png)" in text
    assert KEYS_HEADLINE in text
    assert_tables_well_formed(text)
    # idempotent
    report.main([str(I3), "--out", str(res / "REPORT.md"), "--no-charts", "--readme", str(readme)])
    again = readme.read_text()
    assert again.count("figures:start") == 1 and again.count("figures:end") == 1 and KEYS_HEADLINE in again


def headline_rows(block):
    table = [md_cells(line) for line in md_tables(block)[0]]
    assert table[0][:3] == ["technique", "benchmark", "params"]
    return [dict(zip(["technique", "benchmark", "params", "before", "after", "ratio", "alloc"], c)) for c in table[2:]]


def test_readme_headline_rows_follow_the_techniques_selectors():
    results = J.load(I3).results
    block = report.figures_block(results, TECHNIQUES, [], Path("README.md"))
    # a '|' delimiter param must not break the table: every row has the header's cell count
    assert_tables_well_formed(block)
    rows = headline_rows(block)
    assert {r["benchmark"] for r in rows} == {"MapKeyBenchmark.lookup (thrpt)", "SplitBenchmark.jdkSplitFirst (thrpt)",
                                              "SplitBenchmark.split (thrpt)", "ValidatorBenchmark.validate (avgt)"}
    # SplitBenchmark.split: only INDEX_OF at fields=16, against the JDK_SPLIT baseline, both delimiters
    split = [r for r in rows if r["benchmark"] == "SplitBenchmark.split (thrpt)"]
    assert [(r["params"], r["before"].split(":")[0], r["after"].split(":")[0]) for r in split] == [
        ('delimiter="\\|", fields=16, poolSize=256', "JDK_SPLIT", "INDEX_OF"),
        ('delimiter="\\|\\|", fields=16, poolSize=256', "JDK_SPLIT", "INDEX_OF")]
    assert not any(v in block for v in ("JDK_PATTERN", "COMMONS_LANG", "GUAVA"))
    pairs = [r["after"].split(":")[0] for r in rows if r["benchmark"] == "SplitBenchmark.jdkSplitFirst (thrpt)"]
    assert pairs == ["jdkSplitLimitFirst", "splitFirst"] * 2
    # the Cache selector asks for entries=4000000, which this run does not have
    assert not [r for r in rows if r["benchmark"].startswith("CacheBenchmark")]
    # MapKey selects missPercent=0 (every row here); Validator has no selector, so every non-baseline row
    assert len([r for r in rows if r["benchmark"].startswith("MapKeyBenchmark")]) == 4
    assert [r["after"].split(":")[0] for r in rows if r["benchmark"].startswith("Validator")] == ["SHARED", "HAND_WRITTEN"]
    assert KEYS_HEADLINE in block
    # a selector on the delimiter param
    tech = copy.deepcopy(TECHNIQUES)
    tech["techniques"][SPLIT]["readme"] = [{"method": "split", "params": {"delimiter": "||"}, "variants": ["INDEX_OF"]}]
    split = [r for r in headline_rows(report.figures_block(results, tech, [], Path("README.md")))
             if r["benchmark"].startswith("SplitBenchmark")]
    assert [(r["params"], r["after"].split(":")[0], r["ratio"]) for r in split] == [
        ('delimiter="\\|\\|", fields=16, poolSize=256', "INDEX_OF", "3.41x [0, 14.9]")]


def targets(results, claims_cfg):
    table = [c for c in (md_cells(line) for line in report.targets_table(results, claims_cfg, TECHNIQUES)[4:]
                         if line.startswith("|")) if c[0] != "---"]
    head, rows = table[0], table[1:]
    assert head == ["goal", "CI", "params", "baseline", "variant", "ratio [interval]", "verdict", "why"]
    return [dict(zip(head, c)) for c in rows]


def test_targets_verdicts_come_from_the_gate():
    results = J.load(I3).results
    rows = targets(results, CLAIMS)
    by_goal = {}
    for r in rows:
        by_goal.setdefault(r["goal"].split(":")[0], []).append(r)
    assert len(by_goal) == len(CLAIMS["claims"]) + len(CLAIMS["targets"])
    assert [r["CI"] for r in rows] == ["yes"] * 6 + ["no"] * 5
    keys_bytes = by_goal["keys-long-bytes-0.3x"]
    assert [(r["params"], r["ratio [interval]"], r["verdict"]) for r in keys_bytes] == [
        ("missPercent=0, seed=42, size=1000000", "0.253x [0.253, 0.253]", "met")]
    assert [r["verdict"] for r in by_goal["split-indexof-floor-1.1x"]] == ["met", "met"]
    lookup = by_goal["keys-long-lookup-4x"]
    assert [(r["ratio [interval]"], r["verdict"]) for r in lookup] == [("3.26x [2.11, 5.08]", "missed")]
    assert "At 10M entries" in lookup[0]["why"]  # a missed goal says why
    # splitFirst vs jdkSplitFirst >= 10x: "|" 18.1x [8.09, 40.5], "||" 63.3x [21, 130.2]
    assert [(r["params"].split(",")[0], r["verdict"]) for r in by_goal["split-first-10x"]] == [
        ('delimiter="\\|"', NOT_ESTABLISHED), ('delimiter="\\|\\|"', "met")]
    # each verdict is the gate's, mapped
    for c in CLAIMS["claims"] + CLAIMS["targets"]:
        judged = gate.check_claims(results, {"claims": [c], "deterministic_metrics": CLAIMS["deterministic_metrics"]},
                                   TECHNIQUES, allow_missing=True)
        expect = [{"PASS": "met", "FAIL": NOT_ESTABLISHED if g["point_clears"] else "missed"}[g["verdict"]] for g in judged]
        assert [r["verdict"] for r in by_goal[c["id"]]] == expect


def test_targets_verdict_mapping():
    lookup = {"benchmark": KEYS, "method": "lookup", "params": {"size": "max"}, "variant": "LONG_KEY",
              "baseline": "STRING_KEY", "why": "the reason"}
    cfg = {"claims": [dict(lookup, id="ci-2x", min_speedup=2)],
           "targets": [dict(lookup, id="t-3x", min_speedup=3),  # point 3.26 clears 3, pessimistic 2.11 does not
                       dict(lookup, id="t-4x", min_speedup=4),  # point 3.26 below 4
                       dict(lookup, id="t-gone", benchmark="io.hotpathbench.nope.NopeBenchmark", min_speedup=2)],
           "deterministic_metrics": ["gc.alloc.rate.norm"]}
    rows = targets(J.load(I3).results, cfg)
    assert [(r["goal"].split(":")[0], r["CI"], r["verdict"]) for r in rows] == [
        ("ci-2x", "yes", "met"), ("t-3x", "no", NOT_ESTABLISHED), ("t-4x", "no", "missed"), ("t-gone", "no", "not run")]
    assert "the reason" not in rows[0]["why"] and all("the reason" in r["why"] for r in rows[1:])
    # one measurement iteration: no interval
    split = {"id": "i1", "benchmark": SPLIT, "method": "split", "variant": "INDEX_OF", "baseline": "JDK_SPLIT", "min_speedup": 2}
    rows = targets(J.load(I1).results, {"claims": [split]})
    assert [(r["ratio [interval]"], r["verdict"]) for r in rows] == [("2.87x [n/a]", "inconclusive")]


def test_report_has_a_targets_section(tmp_path):
    out = tmp_path / "REPORT.md"
    assert report.main([str(I3), "--out", str(out), "--no-charts"]) == 0
    text = out.read_text()
    assert text.count("\n## Targets\n") == 1
    rows = [dict(zip(["goal", "CI", "params", "baseline", "variant", "ratio", "verdict", "why"], c))
            for c in table_after(text, "## Targets")[2:]]
    assert {r["verdict"] for r in rows} == {"met", "missed", NOT_ESTABLISHED}
    assert ("keys-long-bytes-0.3x: LONG_KEY vs STRING_KEY bytesPerEntry (lookup)", "yes", "met") in \
        [(r["goal"], r["CI"], r["verdict"]) for r in rows]


def test_readme_without_markers_is_bad_input(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# no markers\n")
    with pytest.raises(SystemExit) as e:
        report.main([str(I3), "--out", str(tmp_path / "R.md"), "--no-charts", "--readme", str(readme)])
    assert e.value.code == 2 and "README.md" in capsys.readouterr().err


def test_compare_two_runs(tmp_path):
    import compare

    def slower_validate(data):
        for r in data:
            if r["mode"] == "avgt":
                m = r["primaryMetric"]
                m["score"] *= 2
                m["scoreError"] *= 2
                m["scoreConfidence"] = [x * 2 for x in m["scoreConfidence"]]
    slow = copy_run(I3, tmp_path / "new.json", slower_validate)
    text = compare.compare(J.load(I3), J.load(slow))
    row = [l for l in text.splitlines() if l.startswith("| ValidatorBenchmark.validate (avgt) [invalidPercent=25, seed=42, variant=PER_CALL] |")]
    assert len(row) == 1 and "| 0.5x [" in row[0] and "| 873,229 -> 873,229 |" in row[0]
    assert '| SplitBenchmark.split (thrpt) [delimiter="\\|", fields=16, poolSize=256, seed=42, variant=INDEX_OF] |' in text
    assert text.count("| 1x [") == 29 - 3  # the others unchanged
    assert "only in" not in text and "differs" not in text
    assert_tables_well_formed(text)
    # runs with different benchmarks: the validate rows compare, the rest are listed
    text = compare.compare(J.load(I3), J.load(I1))
    assert len([l for l in text.splitlines() if l.startswith("| ValidatorBenchmark.validate")]) == 3
    assert text.count("- only in suite-i1.json: io.hotpathbench.split.SplitBenchmark.split") == 5
    assert text.count("- only in suite-i3.json:") == 29 - 3


@pytest.mark.parametrize("script", ["report.py", "chart.py", "compare.py"])
@pytest.mark.parametrize("bad", ["empty.json", "notjson.json", "notjmh.json", "noprimary.json", "missing.json"])
def test_cli_bad_input_one_line_exit_2(fixtures, tmp_path, script, bad):
    args = [str(fixtures / bad)] if script != "compare.py" else [str(I3), str(fixtures / bad)]
    p = subprocess.run([sys.executable, str(SCRIPTS / script), *args], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and bad in lines[0] and "Traceback" not in p.stderr


def test_report_default_is_newest_run(tmp_path):
    res = tmp_path / "results"
    res.mkdir()
    copy_run(I1, res / "20260101T000000Z-aaaaaaa.json")
    copy_run(I3, res / "20260102T000000Z-bbbbbbb.json")
    p = subprocess.run([sys.executable, str(SCRIPTS / "report.py")], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = (res / "REPORT.md").read_text()
    assert "from `20260102T000000Z-bbbbbbb.json`" in text and "20260101T000000Z-aaaaaaa" not in text
    assert (res / "charts" / "SplitBenchmark-split.png").stat().st_size > 0
    assert (res / "charts" / "MapKeyBenchmark-lookup-by-size.png").stat().st_size > 0
