"""run_audit on a clean realistic workspace: zero findings, stable report shape and order."""

from __future__ import annotations

import json

import pytest

from challenges.audit import AuditError, AuditTarget, run_audit
from challenges.audit.surface import collect
from tests.unit.audit.conftest import make_context


def test_clean_workspace_has_no_findings(clean, context):
    report = run_audit(AuditTarget(clean), context)
    assert report.findings == ()
    assert report.passed
    assert report.counts == {"markers": 0, "identifiers": 0, "facts": 0, "git": 0, "environment": 0,
                             "separation": 0, "residue": 0}


def test_clean_workspace_surface_is_actually_read(clean):
    surface = collect(AuditTarget(clean))
    kinds = {item.surface for item in surface.items}
    assert {"file", "path", "git-meta", "ref", "commit-message", "identity", "tag", "history-blob",
            "history-path"} <= kinds
    assert len(surface.commits) == 3
    assert "tidewater/ledger.py" in surface.files


def test_report_is_deterministic_and_ordered(clean, context):
    (clean / "notes.md").write_text("# FIXME rate limiter\n")
    (clean / "tidewater" / "ledger.py").write_text("# HACK\n" * 12)
    first = run_audit(AuditTarget(clean), context).to_json()
    second = run_audit(AuditTarget(clean), context).to_json()
    assert first == second
    data = json.loads(first)
    assert data["passed"] is False
    locations = [f["location"] for f in data["findings"] if f["check"] == "markers"
                 and f["location"].startswith("tidewater/ledger.py")]
    lines = [int(loc.rsplit(":", 1)[1]) for loc in locations]
    assert lines == sorted(lines) and len(lines) == 12
    checks = [f["check"] for f in data["findings"]]
    order = ["markers", "identifiers", "facts", "git", "environment", "separation", "residue"]
    assert checks == sorted(checks, key=order.index)


def test_render_names_each_finding_and_the_verdict(clean, context):
    (clean / "todo.txt").write_text("XXX remove before release\n")
    text = run_audit(AuditTarget(clean), context).render()
    assert "[markers/marker_line] todo.txt:1" in text
    assert text.splitlines()[-1].startswith("FAILED: 1 finding(s)")


def test_selected_checks_only(clean, context):
    (clean / "todo.txt").write_text("XXX rate limiter\n")
    report = run_audit(AuditTarget(clean), context, checks=["identifiers"])
    assert report.checks == ("identifiers",)
    assert {f.check for f in report.findings} == {"identifiers"}


def test_unknown_check_is_refused(clean, context):
    with pytest.raises(AuditError) as info:
        run_audit(AuditTarget(clean), context, checks=["spelling"])
    assert info.value.code == "check_unknown"


def test_unreadable_target_is_refused(tmp_path):
    with pytest.raises(AuditError) as info:
        AuditTarget(tmp_path / "missing")
    assert info.value.code == "target_unreadable" and info.value.field == "root"


def test_unsearchable_terms_are_reported_as_notes(clean):
    from challenges.audit import CatalogueTerm

    context = make_context(catalogue_terms=(CatalogueTerm("timeout", "catalogue"), CatalogueTerm("ab", "catalogue")))
    report = run_audit(AuditTarget(clean), context)
    assert report.passed
    assert any("'timeout' not searched" in note for note in report.notes)
    assert any("'ab' not searched" in note for note in report.notes)
