"""What the lab's tests share: the paths, and the committed gate passes by name."""
import sys
from pathlib import Path

LAB = Path(__file__).resolve().parent.parent
REPO = LAB.parent
SCRIPTS = REPO / "scripts"
RESULTS = REPO / "results"
sys.path.insert(0, str(LAB))
import labpath  # noqa: E402,F401  puts scripts/ on the path


def ci_run(stamp: str) -> Path:
    """The gate pass in results/ci/ whose name holds `stamp` (its summary, or its raw file before it had one)."""
    from runs import run_files
    found = [p for p in run_files(RESULTS / "ci") if stamp in p.name]
    assert len(found) == 1, (stamp, found)
    return found[0]
