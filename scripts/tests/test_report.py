"""report.py and what it is built on: pooled figures, JDK comparisons, published verdicts, charts."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import report
from conftest import (COLD, FULL_AMD, FULL_OLD, I1, I3, SAMPLE, SCRIPTS, assert_tables_well_formed, copy_run, is_,
                      md_cells, md_tables, scale)
from hpb import charts, evidence, stats, verdicts
from hpb.markdown import fmt_ratio
from hpb.model import load, load_many


def table_after(text, heading):
    rest = text[text.index(heading + "\n"):]
    return [md_cells(line) for line in md_tables(rest)[0]]


def test_every_chart_written_non_empty(tmp_path, suite):
    made = charts.write_charts(load_many([I3, SAMPLE, COLD]).results, tmp_path, suite)
    assert {(m[1], m[2], m[3]) for m in made} == {
        ("access", "thrpt", "bars"), ("lookup", "thrpt", "bars"), ("lookup", "thrpt", "size"),
        ("split", "thrpt", "bars"), ("jdkSplitFirst", "thrpt", "bars"),
        ("validate", "avgt", "bars"), ("validate", "sample", "bars"), ("coldStart", "ss", "bars")}
    for *_, png in made:
        assert png.stat().st_size > 1000 and png.with_suffix(".svg").stat().st_size > 1000
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert {(m[1], m[2]) for m in charts.write_charts(load(I1).results, tmp_path / "i1", suite)} == {("split", "thrpt"), ("validate", "avgt")}


def test_full_runs_and_code_identity():
    assert evidence.full_run(load(FULL_AMD)) == (True, "")
    full, why = evidence.full_run(load(I3))
    assert not full and "-Djmh.f" in why
    assert evidence.full_run(load(copy_run(FULL_AMD, Path("/tmp") / "hpb-noprov.json", provenance=False)))[1] == "no provenance beside it"
    # comments and blank space do not change the code a run measured
    assert evidence.normalize_java("int a; // note\n/* block\n */ String s = \"// kept\";") == 'int a; String s = "// kept";'


def test_pooling_two_runs_of_the_same_code(suite):
    """The two committed full runs measured the same validator code: pooled, with the run envelope."""
    runs = [load(FULL_OLD), load(FULL_AMD)]
    ev = {e.technique.id: e for e in verdicts.assemble(runs, suite)}
    v = next(x for x in ev["validation"].cited[id(ev["validation"].reference)] if x.id == "validator-shared")
    per_run = [f for _, f, _, _ in v.extra["runs"]]
    assert [fmt_ratio(*f) for f in per_run] == ["114.3x [104.4, 125.3]", "129.3x [117.9, 141.8]"]
    assert fmt_ratio(*v.figure) == "121.6x [104.4, 141.8]"
    assert "2 runs that recorded no host id" in v.reason
    # split changed between the two runs: only the newer run is its current code
    s = ev["split"]
    assert [len(p.runs) for p in s.pools] == [1]
    single = next(x for x in s.cited[id(s.reference)] if x.id == "split-2char")
    assert fmt_ratio(*single.figure) == "3.53x [3.37, 3.7]" and single.reason.startswith("single run")


def test_coverage_words():
    class R:
        def __init__(self, name, host):
            self.name, self.host = name, host
    assert verdicts.coverage([R("a", "x/1")]).startswith("single run")
    assert verdicts.coverage([R("a", "x/1"), R("b", "x/1")]).startswith("2 runs on one machine")
    assert verdicts.coverage([R("a", "x/1"), R("b", "y/2")]).startswith("2 runs on 2 machines")
    assert "at least 2" in verdicts.coverage([R("a", "x/1"), R("b", "cpu:AMD EPYC x2")])


def jdk25(factor_match=None, factor=1.0, args=None):
    """Edit: the run as if its forks had run on JDK 25 (and, optionally, one variant slower)."""
    def edit(data):
        for r in data:
            r["jdkVersion"] = "25.0.1"
            r["vmVersion"] = "25.0.1+8-LTS"
            if args is not None:
                r["jvmArgs"] = args + r["jvmArgs"]
        if factor_match:
            scale(factor_match, factor)(data)
    return edit


def test_environments_are_compared_never_pooled(tmp_path, suite):
    results = tmp_path / "results"
    results.mkdir()
    a = copy_run(FULL_AMD, results / "20261123T082102Z-a796d13.json")
    b = copy_run(FULL_AMD, results / "20261124T000000Z-a796d13.json",
                 jdk25(is_("split", variant="INDEX_OF", delimiter="||", fields="16"), 0.5))
    c = copy_run(FULL_AMD, results / "20261125T000000Z-a796d13.json",
                 jdk25(args=["-XX:+UseCompactObjectHeaders"]))
    evs = {e.technique.id: e for e in verdicts.assemble([load(a), load(b), load(c)], suite)}
    s = evs["split"]
    assert [p.env.label for p in s.pools] == ["JDK 17.0.15 -XX:+UseG1GC", "JDK 25.0.1 -XX:+UseG1GC",
                                              "JDK 25.0.1 -XX:+UseCompactObjectHeaders -XX:+UseG1GC"]
    comps = {p.env.label: {v.id: v for v in vs} for p, vs in s.comparisons}
    half = comps["JDK 25.0.1 -XX:+UseG1GC"]["split-2char"]
    assert half.outcome == "shrank" and fmt_ratio(*half.figure).startswith("0.5x")
    same = comps["JDK 25.0.1 -XX:+UseCompactObjectHeaders -XX:+UseG1GC"]["split-2char"]
    assert same.outcome == "held" and same.figure.value == pytest.approx(1.0)
    # a wide interval neither held nor moved
    cache = {p.env.label: {v.id: v for v in vs} for p, vs in evs["cache"].comparisons}
    assert cache["JDK 25.0.1 -XX:+UseG1GC"]["cache-read"].outcome == "unsettled"


def test_report_end_to_end_on_committed_runs(tmp_path):
    out = tmp_path / "REPORT.md"
    assert report.main([str(FULL_OLD), str(FULL_AMD), "--out", str(out), "--charts", str(tmp_path / "charts")]) == 0
    text = out.read_text()
    assert_tables_well_formed(text)
    for heading in ("## Runs", "## Figures to cite", "## JDK 17 against other JDKs and JVM options",
                    "## Ready for the next JDK", "## Published vs measured", "## Targets"):
        assert heading in text
    # a '|' delimiter is quoted and escaped in the tables
    assert 'indexOf splitter vs String.split, "\\|\\|" delimiter, 16 fields' in text
    cited = json.loads((tmp_path / "cited.json").read_text())
    two = next(c for c in cited if c["id"] == "validator-shared")
    assert two["runs"] == [FULL_OLD.name, FULL_AMD.name] and two["lo"] == pytest.approx(104.426, abs=1e-3)
    assert two["env"]["jdk_major"] == "17" and two["reference"]


def test_published_verdict_comes_from_numbers(suite):
    t = suite.by_id("keys")
    results = load(I3).results
    sel = lambda v: {"method": "lookup", "params": {"variant": v, "size": "max"}}  # noqa: E731

    def verdict(published, tol=1.3):
        t.published = [{"id": "x", "claim": "c", "published": published, "tolerance": tol,
                        "measure": {"kind": "speedup", "after": sel("LONG_KEY"), "before": sel("STRING_KEY")},
                        "why": {"agrees": "A", "higher": "H", "lower": "L"}}]
        return verdicts.judge_published([results], suite, t)[0]
    # measured 3.26x [2.11, 5.08]
    assert fmt_ratio(*verdict(3.2).figure) == "3.26x [2.11, 5.08]"
    assert (verdict(3.2).outcome, verdict(3.2).reason) == ("agrees", "A")
    assert (verdict(1.0).outcome, verdict(1.0).reason) == ("higher", "H")
    assert (verdict(10.0).outcome, verdict(10.0).reason) == ("lower", "L")
    wide = verdict(2.0)
    assert wide.outcome == "too_wide" and "The point lies higher than the band: H" in wide.reason


def test_readme_blocks_rewritten_between_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\n<!-- answers:start -->\nold\n<!-- answers:end -->\nmiddle\n"
                      "<!-- budget:start -->\n<!-- budget:end -->\n"
                      "<!-- figures:start -->\nold\n<!-- figures:end -->\nafter\n")
    (tmp_path / "docs").mkdir()
    args = [str(FULL_AMD), "--out", str(tmp_path / "results" / "REPORT.md"), "--charts", str(tmp_path / "results" / "charts"),
            "--readme", str(readme)]
    assert report.main(args) == 0
    text = readme.read_text()
    assert text.startswith("# T\n\n<!-- answers:start -->") and text.endswith("<!-- figures:end -->\nafter\n")
    assert "\nold\n" not in text and "\nmiddle\n" in text
    assert_tables_well_formed(text)
    answers = table_after(text, "<!-- answers:start -->")
    assert answers[0] == ["technique", "figure to cite", "against the write-up", "which to pick"]
    assert report.main(args) == 0 and readme.read_text() == text  # idempotent


def test_cli_bad_input_one_line_exit_2(fixtures, tmp_path):
    for script in ("report.py", "compare.py", "chart.py"):
        args = [str(fixtures / "notjson.json")] + ([str(I3)] if script == "compare.py" else [])
        if script == "report.py":
            args += ["--out", str(tmp_path / "R.md")]
        p = subprocess.run([sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True, cwd=tmp_path)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "notjson.json" in p.stderr, (script, p.stderr)
    readme = tmp_path / "R2.md"
    readme.write_text("no markers\n")
    p = subprocess.run([sys.executable, str(SCRIPTS / "report.py"), str(FULL_AMD), "--out", str(tmp_path / "R.md"),
                        "--no-charts", "--readme", str(readme)], capture_output=True, text=True)
    assert p.returncode == 2 and "no '<!-- answers:start -->'" in p.stderr


def test_compare_two_runs(tmp_path):
    import compare
    out = tmp_path / "cmp.md"
    assert compare.main([str(FULL_OLD), str(FULL_AMD), "--out", str(out)]) == 0
    text = out.read_text()
    assert_tables_well_formed(text)
    assert "## Each pair's gain, old and new" in text
    row = [line for line in text.splitlines() if "ValidatorBenchmark.validate (avgt) SHARED vs PER_CALL" in line]
    assert len(row) == 1 and "114.3x [104.4, 125.3]" in row[0] and "129.3x [117.9, 141.8]" in row[0]


def test_shipped_report_is_generated_from_the_committed_runs(tmp_path):
    """results/REPORT.md and results/cited.json are what report.py makes of results/ now."""
    out = tmp_path / "REPORT.md"
    assert report.main(["--out", str(out), "--no-charts"]) == 0
    shipped = SCRIPTS.parent / "results" / "cited.json"
    assert json.loads((tmp_path / "cited.json").read_text()) == json.loads(shipped.read_text())


def _block(text: str, name: str) -> str:
    start, end = f"<!-- {name}:start -->\n", f"\n<!-- {name}:end -->"
    return text[text.index(start) + len(start):text.index(end)]


def test_shipped_readme_and_notes_blocks_are_generated_from_the_committed_runs(suite):
    """The README's and the notes' generated blocks are what `report.py --readme README.md --docs docs`
    makes of results/ now: a hand edit, or a run added without regenerating, fails here."""
    repo = SCRIPTS.parent
    runs = [load(f) for f in report.result_files()]
    evs = verdicts.assemble(runs, suite, True)
    readme = repo / "README.md"
    text = readme.read_text(encoding="utf-8")
    assert _block(text, "answers") == "\n".join(report.answers_block(evs, readme)).rstrip()
    assert _block(text, "figures") == "\n".join(report.figures_block(evs, [], readme)).rstrip()
    assert _block(text, "budget") == "\n".join(report.budget_block(runs)).rstrip()
    readiness = report.load_readiness(report.RESULTS_DIR)
    for ev in evs:
        note = repo / ev.technique.note
        assert _block(note.read_text(encoding="utf-8"), "measured") == "\n".join(report.docs_block(ev, suite, readiness)).rstrip(), note
