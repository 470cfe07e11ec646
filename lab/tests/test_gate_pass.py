"""gate_pass.py makes CI's passes for a patch as CI sees the change: committed, so that an
instrument patch gets the instrument pass CI plans (this commit's instrument on both sides)."""
import subprocess

import gate_pass
from labtest import REPO


def test_an_instrument_patch_gets_the_instrument_pass_on_its_own_commit(tmp_path):
    tree = tmp_path / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), "HEAD"], cwd=REPO, check=True, capture_output=True)
    try:
        gate_pass.commit_patch(tree, gate_pass.patches()["instrument-comment"])
        passes = gate_pass.planned_passes(tree)
        head = gate_pass.git("rev-parse", "HEAD", cwd=tree)
        assert [name for name, _ in passes] == ["instrument"]
        assert f"-Djmh.against={head}" in passes[0][1] and "-Djmh.gate" in passes[0][1]
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO, capture_output=True)


def test_a_patch_to_the_plugin_is_installed_before_its_pass():
    """Maven runs the installed plugin, not the worktree's sources: an instrument patch that was only
    applied ran the unpatched plugin (its C1-only head forks printed no C1 flag), so such a patch is
    installed for its pass; a technique's patch needs no install."""
    known = gate_pass.patches()
    assert gate_pass.changes_instrument(known["instrument-head-forks-c1-only"])
    assert gate_pass.changes_instrument(known["instrument-comment"])
    assert not gate_pass.changes_instrument(known["shared-slower-20pct"])
    assert not gate_pass.changes_instrument(None)
