"""report.py and what it is built on: pooled figures, JDK comparisons, published verdicts, charts."""
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import report
from conftest import (COLD, FULL_AMD, FULL_OLD, I1, I3, SAMPLE, SCRIPTS, assert_tables_well_formed, copy_run, is_,
                      md_cells, md_tables, scale)
from hpb import charts, evidence, figures, machines, model, stats, verdicts
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
        assert png.stat().st_size > 1000
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
    # how many forks @Fork asks for is not what a fork measures; its JVM options are
    eight, three = ('@Fork(value = %d, jvmArgsAppend = {"-Xmx1g"})\nclass A {}' % n for n in (8, 3))
    assert evidence.measured_java(eight) == evidence.measured_java(three) == '@Fork(jvmArgsAppend = {"-Xmx1g"}) class A {}'
    assert evidence.measured_java("@Fork(4) @Warmup(iterations = 5)") == evidence.measured_java("@Fork(10) @Warmup(iterations = 5)")
    assert evidence.measured_java('@Fork(jvmArgsAppend = {"-Xmx2g"})') != evidence.measured_java('@Fork(jvmArgsAppend = {"-Xmx1g"})')


RESULTS = SCRIPTS.parent / "results"
AMD = [RESULTS / f for f in ("20261125T004028Z-d81400f.json", "20261125T030920Z-5ee6d28.json")]
INTEL = RESULTS / "20261127T170939Z-d22d712.json"


def test_a_machine_is_its_hardware_not_its_boot_or_the_images_host_id(tmp_path):
    """The Intel run carries the AMD runs' host id (one image): the machine key tells them apart by
    CPU, processors and memory; two boots of one AMD machine are one machine; a recorded machineKey wins."""
    amd, intel = load(AMD[1]), load(INTEL)
    assert amd.provenance["host"]["id"] == intel.provenance["host"]["id"]
    assert amd.machine != intel.machine and amd.machine == "AMD EPYC x2 24 GiB"
    older_boot = load(RESULTS / "20261124T001429Z-7fea29b.json")
    assert older_boot.machine == amd.machine and older_boot.boot != amd.boot
    prov = json.loads(AMD[1].with_name(AMD[1].stem + ".provenance.json").read_text())
    prov["host"]["machineKey"] = "dmi:1234"
    assert model.machine_key(prov) == "dmi:1234"
    assert load(copy_run(AMD[1], tmp_path / "x.json", provenance=False)).machine == "unknown:x.json"


def test_machines_are_never_pooled_and_the_figure_says_what_it_rests_on(suite):
    """Two AMD runs of one boot and the Intel run of the same code: each machine keeps its own figure;
    the figure to cite is the reference machine's (the AMD, with the most trials), its trials from
    both runs of its boot, never the Intel's."""
    evs = {e.technique.id: e for e in figures.assemble([load(f) for f in AMD + [INTEL]], suite)}
    keys = evs["keys"]
    v = next(x for x in keys.cited[id(keys.reference)] if x.id == "keys-lookup")
    amd, intel = v.extra["machine_figures"]
    assert (amd.label, amd.trials, amd.boots) == ("AMD EPYC x2", 9, 1) and intel.label == "Intel Xeon @ 2.50GHz x2"
    assert v.extra["rests_on"] == "2 machines, 2 boots, 13 trials" and v.figure == amd.figure
    assert fmt_ratio(*amd.figure) == "4x [3.63, 4.41]" and fmt_ratio(*intel.figure) == "4.07x [3.65, 4.53]"
    t = suite.by_id("keys")
    spec = next(c for c in t.cited if c["id"] == "keys-lookup")
    logs = [x for run in AMD for x in verdicts.paired_logs(*figures.pair_of(load(run).results, t, spec, suite),
                                                           t, "primary", "speedup")]
    assert amd.figure == stats.of_logs(logs).figure()  # one boot: its trials together
    # the point sits on the target's 4x bar: no number of trials decides it, and the report says so
    assert v.outcome == "undecided" and v.bar == 4 and v.extra["need"] is None
    assert v.extra["precision"] == (False, "+/-10.3%")


def test_decided_equivalent_undecided_and_the_trials_a_figure_needs():
    def m(ratio, n=9, spread=0.05):
        logs = [math.log(ratio) + d for d in (-spread, spread)] * (n // 2) + [math.log(ratio)] * (n % 2)
        return machines.machine_figure("m", "m", {"b": logs})
    assert figures.status_of([m(1.5)], 2.0, None)[0] == "decided"  # clear of 1.0x and of the 2x bar, below it
    assert figures.status_of([m(1.01, spread=0.01)], None, None)[0] == "equivalent"
    status, need, words = figures.status_of([m(1.9, n=3, spread=0.3)], 2.0, None)
    assert status == "undecided" and need > 3 and str(need) in words
    f = m(1.9, n=3, spread=0.3)
    assert stats.t_quantile(0.975, need - 1) * f.spread / math.sqrt(need) < math.log(2.0 / 1.9)
    # two machines on different sides of the bar: each decided, the figure is not
    assert figures.status_of([m(1.5), m(2.5)], 2.0, None)[:2] == ("undecided", None)


def test_a_footprint_ratio_near_zero_is_judged_in_bytes(suite):
    """HdrHistogram against int[]: 0.00225x [0, 0.00461] is all measurement resolution as a ratio;
    in bytes its half-width is a fraction of a percent of int[]'s footprint, within +/-10%."""
    evs = {e.technique.id: e for e in figures.assemble([load(f) for f in AMD], suite)}
    lat = evs["latency"]
    v = next(x for x in lat.cited[id(lat.reference)] if x.id == "latency-hdr-bytes")
    assert fmt_ratio(*v.figure) == "0.00225x [0, 0.00461]" and v.extra["bytes"] == pytest.approx(5.54, abs=0.01)
    reached, words = v.extra["precision"]
    assert reached and words.endswith("of the baseline's bytes") and v.outcome == "decided"
    assert "0.0124 B [0, 0.0256] of the baseline's 5.54 B" in report.cite_text(v)


def jdk25(factor_match=None, factor=1.0, args=None):
    """Edit: the run as if its forks had run on JDK 25 (and, optionally, one variant's forks slower)."""
    def edit(data):
        for r in data:
            r["jdkVersion"] = "25.0.1"
            r["vmVersion"] = "25.0.1+8-LTS"
            if args is not None:
                r["jvmArgs"] = args + r["jvmArgs"]
        for r in data if factor_match else []:
            if factor_match(r):
                r["primaryMetric"]["rawData"] = [[v * factor for v in fork] for fork in r["primaryMetric"]["rawData"]]
    return edit


def test_environments_are_compared_never_pooled(tmp_path, suite):
    results = tmp_path / "results"
    results.mkdir()
    a = copy_run(AMD[1], results / AMD[1].name)
    b = copy_run(AMD[1], results / "20261126T000000Z-5ee6d28.json",
                 jdk25(is_("split", variant="INDEX_OF", delimiter="||", fields="16"), 0.5))
    c = copy_run(AMD[1], results / "20261127T000000Z-5ee6d28.json", jdk25(args=["-XX:+UseCompactObjectHeaders"]))
    evs = {e.technique.id: e for e in figures.assemble([load(a), load(b), load(c)], suite)}
    s = evs["split"]
    assert [p.env.label for p in s.pools] == ["JDK 17.0.15 -XX:+UseG1GC", "JDK 25.0.1 -XX:+UseG1GC",
                                              "JDK 25.0.1 -XX:+UseCompactObjectHeaders -XX:+UseG1GC"]
    comps = {p.env.label: {v.id: v for v in vs} for p, vs in s.comparisons}
    half = comps["JDK 25.0.1 -XX:+UseG1GC"]["split-2char"]
    assert half.outcome == "shrank" and fmt_ratio(*half.figure).startswith("0.5x")
    keys = {p.env.label: {v.id: v for v in vs} for p, vs in evs["keys"].comparisons}
    same = keys["JDK 25.0.1 -XX:+UseCompactObjectHeaders -XX:+UseParallelGC"]["keys-bytes"]
    assert same.outcome == "held" and same.figure.value == pytest.approx(1.0)
    # a wide interval neither held nor moved
    cache = {p.env.label: {v.id: v for v in vs} for p, vs in evs["cache"].comparisons}
    assert cache["JDK 25.0.1 -XX:+UseG1GC"]["cache-read"].outcome == "unsettled"


def test_report_end_to_end_on_committed_runs(tmp_path):
    out = tmp_path / "REPORT.md"
    assert report.main([*map(str, AMD + [INTEL]), "--out", str(out), "--charts", str(tmp_path / "charts")]) == 0
    text = out.read_text()
    assert_tables_well_formed(text)
    for heading in ("## Runs", "## Figures to cite", "### Two runs in one boot", "## JDK 17 against other JDKs and JVM options",
                    "## Ready for the next JDK", "## Published vs measured", "## Targets"):
        assert heading in text
    assert "99.9%" not in text.split("## Cache")[0]  # one interval method for every figure of a trials run
    # a '|' delimiter is quoted and escaped in the tables
    assert 'indexOf splitter vs String.split, "\\|\\|" delimiter, 16 fields' in text
    cited = {c["id"]: c for c in json.loads((tmp_path / "cited.json").read_text())}
    two = cited["validator-shared"]
    assert two["runs"] == [f.name for f in AMD + [INTEL]] and two["rests_on"] == "2 machines, 2 boots, 13 trials"
    assert [m["cpu"] for m in two["machine_figures"]] == ["AMD EPYC x2", "Intel Xeon @ 2.50GHz x2"]
    assert two["env"]["jdk_major"] == "17" and two["reference"] and two["status"] == "decided"
    assert two["value"] == two["machine_figures"][0]["value"]


def test_published_verdict_comes_from_numbers(suite):
    """A write-up's figure against ours on the reference machine: the band decides, from the same
    paired trials the cited figure uses where the configurations ran in the same trials."""
    t = suite.by_id("keys")
    pool = next(p for p in figures.pools([load(AMD[1])], suite, require_full=False) if p.technique is t)
    sel = lambda v: {"method": "lookup", "params": {"variant": v, "size": "max", "missPercent": "0"}}  # noqa: E731

    def verdict(published, tol=1.3):
        t.published = [{"id": "x", "claim": "c", "published": published, "tolerance": tol,
                        "measure": {"kind": "speedup", "after": sel("LONG_KEY"), "before": sel("STRING_KEY")},
                        "why": {"agrees": "A", "higher": "H", "lower": "L"}}]
        return figures.published(pool, t, load(AMD[1]).machine)[0]
    cited = next(v for v in figures.cited(pool, suite, load(AMD[1]).machine) if v.id == "keys-lookup")
    assert fmt_ratio(*verdict(4.0).figure) == fmt_ratio(*cited.figure) == "4.39x [3.93, 4.9]"
    assert (verdict(4.4).outcome, verdict(4.4).reason) == ("agrees", "A")
    assert (verdict(1.0).outcome, verdict(1.0).reason) == ("higher", "H")
    assert (verdict(10.0).outcome, verdict(10.0).reason) == ("lower", "L")
    wide = verdict(2.8, 1.5)
    assert wide.outcome == "too_wide" and "The point lies higher than the band: H" in wide.reason


def test_readme_blocks_rewritten_between_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# T\n\n<!-- answers:start -->\nold\n<!-- answers:end -->\nafter\n")
    (tmp_path / "docs").mkdir()
    args = [str(AMD[1]), "--out", str(tmp_path / "results" / "REPORT.md"), "--no-charts", "--readme", str(readme)]
    assert report.main(args) == 0
    text = readme.read_text()
    assert text.startswith("# T\n\n<!-- answers:start -->") and text.endswith("<!-- answers:end -->\nafter\n")
    assert "\nold\n" not in text
    assert_tables_well_formed(text)
    answers = table_after(text, "<!-- answers:start -->")
    assert answers[0] == ["technique", "figure to cite (JDK 17)", "the same on JDK 25", "which to pick"] and len(answers) == 2 + 6
    for row in answers[2:]:  # one short row per technique, linking its note
        assert row[0].startswith("[") and "](" in row[0] and len(row[1]) < 240 and len(row[3]) <= 200, row
        assert row[2] == "not measured yet"  # the AMD run is JDK 17 only
    assert report.main(args) == 0 and readme.read_text() == text  # idempotent


def test_a_benchmark_that_failed_is_skipped_and_named_not_the_whole_file(tmp_path):
    """A real run in which one benchmark failed (JMH writes its score as NaN): chart.py and report.py
    chart and report the rest, and one line on stderr names what they skipped."""
    def fail(data):
        r = next(x for x in data if is_("split", variant="GUAVA", delimiter="||", fields="16")(x))
        r["primaryMetric"].update(score="NaN", scoreError="NaN", scoreConfidence=["NaN", "NaN"],
                                  rawData=[["NaN"] * len(f) for f in r["primaryMetric"]["rawData"]])
    f = copy_run(AMD[1], tmp_path / AMD[1].name, fail)
    for script, args in (("chart.py", ["--out", str(tmp_path / "c")]),
                         ("report.py", ["--out", str(tmp_path / "R.md"), "--charts", str(tmp_path / "c2")])):
        p = subprocess.run([sys.executable, str(SCRIPTS / script), str(f), *args], capture_output=True, text=True)
        assert p.returncode == 0, (script, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1 and "SplitBenchmark.split [" in p.stderr and "NaN" in p.stderr
    assert (tmp_path / "c" / "SplitBenchmark-split.png").is_file() and "indexOf splitter" in (tmp_path / "R.md").read_text()
    with pytest.raises(model.InputError, match="is not a finite number"):
        load(f)  # the gate and the other commands still refuse it


def test_cli_bad_input_one_line_exit_2(fixtures, tmp_path):
    for script in ("report.py", "compare.py", "chart.py"):
        args = [str(fixtures / "notjson.json")] + ([str(I3)] if script == "compare.py" else [])
        if script == "report.py":
            args += ["--out", str(tmp_path / "R.md")]
        p = subprocess.run([sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True, cwd=tmp_path)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "notjson.json" in p.stderr, (script, p.stderr)
    readme = tmp_path / "R2.md"
    readme.write_text("no markers\n")
    p = subprocess.run([sys.executable, str(SCRIPTS / "report.py"), str(AMD[1]), "--out", str(tmp_path / "R.md"),
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
    evs = figures.assemble(runs, suite, True)
    readme = repo / "README.md"
    text = readme.read_text(encoding="utf-8")
    assert _block(text, "answers") == "\n".join(report.answers_block(evs, readme)).rstrip()
    readiness = report.load_readiness(report.RESULTS_DIR)
    for ev in evs:
        note = repo / ev.technique.note
        assert _block(note.read_text(encoding="utf-8"), "measured") == "\n".join(report.docs_block(ev, suite, readiness)).rstrip(), note


def test_jvm_flag_variants_of_a_method_pair_are_one_environment(tmp_path, suite):
    """A technique whose method pairs are JVM-flag variants (jvm_args_vary_by_method): each method's
    own @Fork flags are the variant, not the environment, so the pair pools together; an option all
    of its methods' forks share (a -Djmh.jvmArgsPrepend) still makes another environment."""
    def flags(prepend=()):
        def edit(data):
            for r in data:
                if r["benchmark"].endswith(".splitFirst"):
                    r["jvmArgs"] = r["jvmArgs"] + ["-XX:MaxGCPauseMillis=50"]
                elif r["benchmark"].endswith(".jdkSplitLimitFirst"):
                    r["jvmArgs"] = ["-Xms1g", "-Xmx1g", "-Xmn512m", "-XX:+UseG1GC"]
                r["jvmArgs"] = list(prepend) + r["jvmArgs"]
        return edit
    plain = load(copy_run(AMD[1], tmp_path / AMD[1].name, flags()))
    other = load(copy_run(AMD[1], tmp_path / AMD[1].name.replace("T03", "T04"), flags(["-XX:+UseCompactObjectHeaders"])))

    def split_first(t):
        pools = [p for p in figures.pools([plain, other], suite) if p.technique is t]
        return {p.env.label: next((v for v in figures.cited(p, suite, plain.machine) if v.id == "split-first"), None)
                for p in pools}
    t = suite.by_id("split")
    # as every other technique: each method's flags are its environment, so the pair is never compared
    assert not any(split_first(t).values())
    t.raw["jvm_args_vary_by_method"] = True
    by_env = split_first(t)
    assert sorted(by_env) == ["JDK 17.0.15 -XX:+UseCompactObjectHeaders -XX:+UseG1GC", "JDK 17.0.15 -XX:+UseG1GC"]
    assert all(v is not None and v.figure.value > 1 for v in by_env.values())
    # the variants' flags leave the environment whether or not the run also gave options of its own
    r = next(x for x in other.results if x.method == "jdkSplitLimitFirst")
    assert t.env_jvm_args(r, other.results) == ("-XX:+UseCompactObjectHeaders", "-Xms1g", "-Xmx1g", "-XX:+UseG1GC")
    split = next(x for x in other.results if x.method == "split")
    assert t.env_jvm_args(split, other.results) == tuple(split.env.jvm_args)


def test_the_readme_cites_the_next_jdk_beside_jdk_17(suite, tmp_path):
    """A JDK 17 and a JDK 25 default run of one machine: each technique's row gives its headline on
    JDK 25 (same JVM options), its trials, and the change against JDK 17 on that machine; a run with
    only JDK 17 says the next JDK is not measured yet."""
    jdk17, jdk25 = (RESULTS / f for f in ("20261128T054928Z-effe472.json", "20261128T112228Z-8914501.json"))
    evs = figures.assemble([load(jdk17), load(jdk25)], suite)
    rows = {r[0].split("]")[0][1:]: r for r in (md_cells(line) for line in report.answers_block(evs, tmp_path / "README.md")[4:])}
    assert len(rows) == len(evs)
    for name, row in rows.items():
        assert row[2].startswith("**") and "Intel Xeon" in row[2] and "against JDK 17 on Intel Xeon: " in row[2], row
    ev = next(e for e in evs if e.technique.id == "validation")
    v25 = next(v for p in ev.pools if p.env.jdk_major == "25" for v in ev.cited[id(p)] if v.id == ev.technique.answer["cite"])
    assert rows["Validator"][2].startswith(report.readme_text(v25))
    moved = next(c for _, cs in ev.comparisons for c in cs if c.id == v25.id)  # JDK 17 and 25 on the one machine
    jdk17_intel = next(v for v in ev.cited[id(ev.reference)] if v.id == v25.id).extra["machine_figures"][0].figure
    assert moved.extra["on"] == (jdk17_intel, v25.figure)
    assert math.isclose(moved.figure.value, v25.figure.value / jdk17_intel.value, rel_tol=1e-9)
    only17 = figures.assemble([load(jdk17)], suite)
    assert all(r[2] == "not measured yet" for r in (md_cells(line) for line in report.answers_block(only17, tmp_path / "R.md")[4:]))
