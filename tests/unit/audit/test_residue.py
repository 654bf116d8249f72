"""Check 7 and the residue reset: integrity check first, then exactly the declared paths."""

from __future__ import annotations

import hashlib

import pytest

from challenges.audit import (
    AuditTarget,
    ResidueDeclaration,
    ResidueError,
    check_residue,
    declarations_from_files,
    declared_residue_paths,
    reset_residue,
    run_audit,
)
from tests.unit.audit.builders import CLEAN_FILES
from tests.unit.audit.conftest import make_context

QUEUE = "deploy/queue.yaml"
SEED = "# berth requests\n- vessel: Kestrel\n  nights: 2\n"


def test_exact_declared_set_across_all_templates():
    """Adding a residue path to any template must edit this line (spec 002: the set is pinned)."""
    assert declared_residue_paths() == {}


def test_declaration_needs_seed_content():
    with pytest.raises(ResidueError) as info:
        declarations_from_files([QUEUE], CLEAN_FILES)
    assert info.value.code == "residue_seed_missing"
    assert declarations_from_files(["README.md"], CLEAN_FILES) == (ResidueDeclaration("README.md", CLEAN_FILES["README.md"]),)


@pytest.mark.parametrize("path", ["../outside", "/etc/passwd", "a/../../b", "", "a//b"])
def test_declaration_paths_stay_inside(path):
    with pytest.raises(ResidueError) as info:
        declarations_from_files([path], {path: "x"})
    assert info.value.code == "residue_path_invalid"


def test_integrity_check_then_reset(clean):
    decls = (ResidueDeclaration(QUEUE, SEED),)
    (clean / "deploy").mkdir()
    (clean / QUEUE).write_text(SEED + "- vessel: Osprey\n  nights: 1\n")  # a previous attempt's entry
    (clean / "README.md").write_text("edited by the agent\n")  # undeclared: carries forward
    assert [(f.code, f.location) for f in check_residue(clean, decls)] == [("residue_modified", QUEUE)]
    report = run_audit(AuditTarget(clean), make_context(residue=decls), checks=["residue"])
    assert [(f.code, f.location) for f in report.findings] == [("residue_modified", QUEUE)]
    baselines = reset_residue(clean, decls)
    assert baselines == {QUEUE: hashlib.sha256(SEED.encode()).hexdigest()}
    assert (clean / QUEUE).read_text() == SEED
    assert (clean / "README.md").read_text() == "edited by the agent\n"
    assert check_residue(clean, decls) == []


def test_missing_path_is_reported_and_restored(clean):
    decls = (ResidueDeclaration(QUEUE, SEED),)
    assert [f.code for f in check_residue(clean, decls)] == ["residue_missing"]
    reset_residue(clean, decls)
    assert (clean / QUEUE).read_text() == SEED


def test_reset_never_writes_through_a_planted_link(clean, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    (clean / "deploy").mkdir()
    (clean / QUEUE).symlink_to(outside)
    decls = (ResidueDeclaration(QUEUE, SEED),)
    assert [f.code for f in check_residue(clean, decls)] == ["residue_missing"]
    reset_residue(clean, decls)
    assert outside.read_text() == "keep"
    assert not (clean / QUEUE).is_symlink() and (clean / QUEUE).read_text() == SEED
