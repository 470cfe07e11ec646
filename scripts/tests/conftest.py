import json
import shutil
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(SCRIPTS))


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
