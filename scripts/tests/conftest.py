import json
import re
import shutil
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(SCRIPTS))

# Real runs of this suite (scripts/tests/fixtures/make-fixtures.sh says what each holds).
I3 = FIXTURES / "suite-i3.json"  # 3 measured iterations: Split, splitFirst pair, MapKey lookup, Cache access, Validator validate
I1 = FIXTURES / "suite-i1.json"  # -Djmh.quick: one iteration, every scoreError "NaN"
SAMPLE = FIXTURES / "suite-sample.json"  # Validator validate in sample mode
COLD = FIXTURES / "suite-cold.json"  # Validator coldStart, single shot, 3 forks

SPLIT = "io.hotpathbench.split.SplitBenchmark"
KEYS = "io.hotpathbench.keys.MapKeyBenchmark"
CACHE = "io.hotpathbench.cache.CacheBenchmark"
VALIDATOR = "io.hotpathbench.validation.ValidatorBenchmark"


@pytest.fixture
def fixtures():
    return FIXTURES


def copy_run(src: Path, dst: Path, edit=None) -> Path:
    """Copy a real fixture (and its provenance) to dst, applying edit(list_of_results) to the JSON."""
    data = json.loads(src.read_text())
    if edit:
        edit(data)
    dst.write_text(json.dumps(data))
    prov = src.with_name(src.name[:-5] + ".provenance.json")
    if prov.exists():
        shutil.copy(prov, dst.with_name(dst.name[:-5] + ".provenance.json"))
    return dst


def is_(method, **params):
    """Match a raw JMH result (a dict from the JSON) by method name and some of its params."""
    return lambda r: r["benchmark"].endswith("." + method) and all(r["params"].get(k) == v for k, v in params.items())


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
