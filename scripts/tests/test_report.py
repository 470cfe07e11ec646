import json
import subprocess
import sys

import pytest

import chart
import jmhjson as J
import report
from conftest import SCRIPTS, copy_run


def test_every_chart_written_non_empty(fixtures, tmp_path):
    results = J.load(fixtures / "throwaway-i3.json").results
    made = chart.write_charts(results, tmp_path)
    kinds = {(m[1], m[3]) for m in made}
    assert kinds == {(n, k) for n in ("sum", "alloc", "sampled", "cold") for k in ("bars", "size")}
    for *_, png in made:
        for ext in ("png", "svg"):
            f = png.with_suffix("." + ext)
            assert f.stat().st_size > 1000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_chart_with_unknown_intervals(fixtures, tmp_path):
    made = chart.write_charts(J.load(fixtures / "throwaway-i1.json").results, tmp_path)
    assert made and all(m[-1].stat().st_size > 1000 for m in made)


def test_report_table_ratios_and_published_not_run(fixtures, tmp_path):
    out = tmp_path / "REPORT.md"
    assert report.main([str(fixtures / "throwaway-i3.json"), "--out", str(out), "--charts", str(tmp_path / "charts")]) == 0
    text = out.read_text()
    assert "AMD EPYC, 2 CPUs" in text and "JMH 1.37" in text
    # sampled size=100000: SLOW 66.919 [58.229, 75.610] us/op, FAST 34.387 [30.407, 38.366]
    r, lo, hi = 66.91925203771764 / 34.38669737295732, 58.22894521325375 / 38.366087274641636, 75.60955886218153 / 30.40730747127301
    assert J.fmt_ratio(r, lo, hi) in text
    assert J.fmt_ratio(r, lo, hi) == "1.95x [1.52, 2.49]"
    assert "| Validator built once vs per call: 10x over the first 100 calls (2,772 ms vs 278 ms), cold start as the write-up measured | 10x |  | not run | not run |" in text
    assert "![ThrowawayBenchmark.alloc bars](charts/ThrowawayBenchmark-alloc.png)" in text


def test_published_verdict_comes_from_numbers(fixtures):
    results = J.load(fixtures / "throwaway-i3.json").results
    sel = lambda v: {"benchmark": "ThrowawayBenchmark", "method": "sampled", "params": {"variant": v, "size": "max"}}

    def verdict(published, tol=1.2):
        cfg = {"published": [{"id": "x", "claim": "c", "published": published, "tolerance": tol,
                              "measure": {"kind": "speedup", "after": sel("FAST"), "before": sel("SLOW")},
                              "why": {"agrees": "A", "higher": "H", "lower": "L"}}]}
        return report.published_rows(results, cfg)[0]

    # measured 1.95x [1.52, 2.49]
    assert verdict(2.0)["verdict"] == "agrees" and verdict(2.0)["why"] == "A"
    assert verdict(1.0)["verdict"] == "does not agree (measured higher)" and verdict(1.0)["why"] == "H"
    assert verdict(5.0)["verdict"] == "does not agree (measured lower)"
    row = report.published_rows(J.load(fixtures / "throwaway-i1.json").results, {"published": [{
        "id": "x", "claim": "c", "published": 2, "measure": {"kind": "speedup",
        "after": {**sel("FAST"), "method": "alloc"}, "before": {**sel("SLOW"), "method": "alloc"}}}]})[0]
    assert row["verdict"] == "inconclusive" and "[n/a]" in row["measured"]


def test_amdahl_bounds_end_to_end_gain():
    assert report._amdahl(2.0, 0.2) == pytest.approx(1 / 0.9)
    assert report._amdahl(float("inf"), 0.2) == pytest.approx(1.25)


def test_readme_block_rewritten_between_markers(fixtures, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\nbefore\n<!-- figures:start -->\nold\n<!-- figures:end -->\nafter\n")
    res = tmp_path / "results"
    assert report.main([str(fixtures / "throwaway-i3.json"), "--out", str(res / "REPORT.md"),
                        "--charts", str(res / "charts"), "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert text.startswith("# T\n\nbefore\n<!-- figures:start -->") and text.endswith("<!-- figures:end -->\nafter\n")
    assert "\nold\n" not in text and "(results/charts/ThrowawayBenchmark-sum.png)" in text
    assert "| ThrowawayBenchmark | ThrowawayBenchmark.sampled (sample) | seed=42, size=100000 | SLOW | FAST | 1.95x [1.52, 2.49] |" in text
    # idempotent
    report.main([str(fixtures / "throwaway-i3.json"), "--out", str(res / "REPORT.md"), "--no-charts", "--readme", str(readme)])
    assert readme.read_text().count("figures:start") == 1


def test_readme_without_markers_is_bad_input(fixtures, tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# no markers\n")
    with pytest.raises(SystemExit) as e:
        report.main([str(fixtures / "throwaway-i3.json"), "--out", str(tmp_path / "R.md"), "--no-charts", "--readme", str(readme)])
    assert e.value.code == 2 and "README.md" in capsys.readouterr().err


def test_compare_two_runs(fixtures, tmp_path):
    import compare
    slow = copy_run(fixtures / "throwaway-i3.json", tmp_path / "new.json",
                    lambda d: [r["primaryMetric"].update(score=r["primaryMetric"]["score"] * 2) for r in d if r["mode"] == "avgt"])
    text = compare.compare(J.load(fixtures / "throwaway-i3.json"), J.load(slow))
    assert "| ThrowawayBenchmark.alloc (avgt) [seed=42, size=1000, variant=SLOW] |" in text
    assert "| 0.5x [" in text


@pytest.mark.parametrize("script", ["report.py", "chart.py", "compare.py"])
@pytest.mark.parametrize("bad", ["empty.json", "notjson.json", "notjmh.json", "noprimary.json", "missing.json"])
def test_cli_bad_input_one_line_exit_2(fixtures, tmp_path, script, bad):
    args = [str(fixtures / bad)] if script != "compare.py" else [str(fixtures / "throwaway-i3.json"), str(fixtures / bad)]
    p = subprocess.run([sys.executable, str(SCRIPTS / script), *args], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and bad in lines[0] and "Traceback" not in p.stderr


def test_report_default_is_newest_run(fixtures, tmp_path):
    res = tmp_path / "results"
    res.mkdir()
    copy_run(fixtures / "throwaway-i1.json", res / "20260101T000000Z-aaaaaaa.json")
    copy_run(fixtures / "throwaway-i3.json", res / "20260102T000000Z-bbbbbbb.json")
    p = subprocess.run([sys.executable, str(SCRIPTS / "report.py")], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "from `20260102T000000Z-bbbbbbb.json`" in (res / "REPORT.md").read_text()
    assert (res / "charts" / "ThrowawayBenchmark-sum.png").stat().st_size > 0
