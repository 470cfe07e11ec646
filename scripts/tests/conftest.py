import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent
REPO = SCRIPTS.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(SCRIPTS))

# Real runs of this suite (scripts/tests/fixtures/make-fixtures.sh says what each holds).
I3 = FIXTURES / "suite-i3.json"  # 3 measured iterations: Split, splitFirst pair, MapKey lookup, Cache access, Validator validate
I1 = FIXTURES / "suite-i1.json"  # -Djmh.quick: one iteration, every scoreError "NaN"
SAMPLE = FIXTURES / "suite-sample.json"  # Validator validate in sample mode
COLD = FIXTURES / "suite-cold.json"  # Validator coldStart, single shot, 3 forks
# Committed full runs of the suite (class defaults), from results/.
FULL_OLD = REPO / "results" / "20261122T062640Z-9e08ceb.json"
FULL_AMD = REPO / "results" / "20261123T082102Z-a796d13.json"

SPLIT = "io.hotpathbench.split.SplitBenchmark"
KEYS = "io.hotpathbench.keys.MapKeyBenchmark"
CACHE = "io.hotpathbench.cache.CacheBenchmark"
VALIDATOR = "io.hotpathbench.validation.ValidatorBenchmark"


@pytest.fixture
def fixtures():
    return FIXTURES


@pytest.fixture(scope="session")
def committed_pass(tmp_path_factory):
    """A gate pass of results/ci/ as its raw JMH files (result and provenance), read back from the
    commit its summary names: the tree keeps one summary a pass (lab/README.md), the history the raw
    files. Skips the test where this clone lacks that history (a shallow clone)."""
    out = tmp_path_factory.mktemp("committed")

    def raw(name: str) -> Path:
        summary = REPO / "results" / "ci" / f"{name}.summary.json"
        commit = json.loads(summary.read_text())["raw"]["commit"]
        for suffix in (".json", ".provenance.json"):
            if not (out / f"{name}{suffix}").exists():
                shown = subprocess.run(["git", "show", f"{commit}:results/ci/{name}{suffix}"], cwd=REPO, capture_output=True)
                if shown.returncode != 0:
                    pytest.skip(f"results/ci/{name}{suffix} is not in this clone's history at {commit[:7]}")
                (out / f"{name}{suffix}").write_bytes(shown.stdout)
        return out / f"{name}.json"
    return raw


@pytest.fixture
def suite():
    from hpb import config
    return config.load_suite()


def copy_run(src: Path, dst: Path, edit=None, provenance=True) -> Path:
    """Copy a real run (and its provenance) to dst, applying edit(list_of_results) to the JSON."""
    data = json.loads(src.read_text())
    if edit:
        edit(data)
    dst.write_text(json.dumps(data))
    prov = src.with_name(src.name[:-5] + ".provenance.json")
    if provenance and prov.exists():
        shutil.copy(prov, dst.with_name(dst.name[:-5] + ".provenance.json"))
    return dst


def is_(method, **params):
    """Match a raw JMH result (a dict from the JSON) by method name and some of its params."""
    return lambda r: r["benchmark"].endswith("." + method) and all(r["params"].get(k) == v for k, v in params.items())


def edit_results(match, fn):
    """Edit: apply fn(result dict) to every result that match(result); at least one must match."""
    def edit(data):
        hit = [r for r in data if match(r)]
        assert hit, "the edit matched no result"
        for r in hit:
            fn(r)
    return edit


def scale(match, factor, metric="primaryMetric"):
    """Edit: multiply score and interval of the results that match(result) by factor."""
    def fn(r):
        m = r[metric] if metric == "primaryMetric" else r["secondaryMetrics"][metric]
        m["score"] *= factor
        if m["scoreError"] != "NaN":
            m["scoreError"] *= factor
            m["scoreConfidence"] = [x * factor for x in m["scoreConfidence"]]
    return edit_results(match, fn)


def add_bytes(match, nbytes):
    """Edit: nbytes more allocated per operation (gc.alloc.rate.norm) in the results that match."""
    def fn(r):
        m = r["secondaryMetrics"]["gc.alloc.rate.norm"]
        m["score"] += nbytes
        m["scoreConfidence"] = [x + nbytes for x in m["scoreConfidence"]]
    return edit_results(match, fn)


def techniques_copy(tmp_path: Path, edit=None) -> Path:
    """A copy of scripts/techniques/ to change in a test; edit(dict of id -> technique JSON)."""
    d = tmp_path / "techniques"
    shutil.copytree(SCRIPTS / "techniques", d)
    if edit:
        files = {f.stem: json.loads(f.read_text()) for f in d.glob("*.json")}
        edit(files)
        for f in d.glob("*.json"):
            f.unlink()
        for k, v in files.items():
            (d / f"{k}.json").write_text(json.dumps(v))
    return d


CELL_SEP = re.compile(r"(?<!\\)\|")


def md_tables(text: str) -> list:
    """The Markdown tables in text: runs of consecutive lines starting with '|', as lists of lines."""
    tables, cur = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cur.append(line)
        elif cur:
            tables.append(cur)
            cur = []
    return tables


def md_cells(line: str) -> list:
    """The cells of one Markdown table row, split on unescaped '|'."""
    return [c.strip() for c in CELL_SEP.split(line)[1:-1]]


def assert_tables_well_formed(text):
    """Every row of every Markdown table has as many cells as its header."""
    tables = md_tables(text)
    assert tables
    for t in tables:
        n = len(md_cells(t[0]))
        assert all(len(md_cells(line)) == n for line in t), "\n".join(t)
