"""The default run's fork durations (the plugin's DefaultBudgetTest resource) are made from committed runs."""
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RESOURCE = REPO / "jmh-maven-plugin" / "src" / "test" / "resources" / "default-run-forks.json"


def test_the_committed_resource_is_what_the_tool_makes_from_its_sources():
    committed = json.loads(RESOURCE.read_text())
    args = [f"{name}={m['source'].replace(', ', ',')}" for name, m in committed["machines"].items()]
    p = subprocess.run([sys.executable, str(REPO / "lab" / "default_run_forks.py"), *args], cwd=REPO,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["machines"] == committed["machines"]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    p = subprocess.run([sys.executable, str(REPO / "lab" / "default_run_forks.py"), f"x={tmp_path}/none.json"],
                       cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
