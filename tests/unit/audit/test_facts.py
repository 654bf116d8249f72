"""Check 3: fact tokens appear only in their anchor files."""

from __future__ import annotations

from challenges.audit import AuditTarget, FactToken, run_audit
from tests.unit.audit.builders import CLEAN_FILES, CommitSpec, RepoSpec, clean_history, write_repo
from tests.unit.audit.conftest import make_context


def audit(target, **context):
    return run_audit(target, make_context(**context), checks=["facts"])


def test_token_in_its_anchor_is_allowed(clean):
    assert "a departure frees the berth" in (clean / "tidewater" / "ledger.py").read_text()
    assert audit(AuditTarget(clean)).findings == ()


def test_token_in_a_fixture_is_caught(clean):
    (clean / "tests" / "fixtures").mkdir()
    (clean / "tests" / "fixtures" / "berths.yaml").write_text(
        "# Consumed by the berth bot.\n# Remember: A Departure\n#   frees the berth the same night.\n")
    findings = audit(AuditTarget(clean)).findings
    assert [(f.code, f.location) for f in findings] == [("fact_token", "tests/fixtures/berths.yaml:2")]


def test_token_in_history_of_another_path_is_caught(tmp_path):
    commits = clean_history()
    commits[1] = CommitSpec({**commits[1].files, "docs/berths.txt": "a departure frees the berth\n"}, "Docs")
    root = write_repo(tmp_path / "ws", RepoSpec(commits))
    findings = audit(AuditTarget(root)).findings
    assert len(findings) == 1 and findings[0].location.endswith(":docs/berths.txt:1")


def test_token_outside_files_is_caught(clean):
    target = AuditTarget(clean, payload={"hint": "a departure frees the berth"}, texts={"prompt": "x"})
    assert [f.location for f in audit(target).findings] == ["payload:2"]


def test_token_without_anchors_is_forbidden_everywhere(clean):
    token = FactToken("self._index[booking.berth].discard(vessel)")
    (clean / "tidewater" / "ledger.py").write_text(CLEAN_FILES["tidewater/ledger.py"] +
                                                  "        self._index[booking.berth].discard(vessel)\n")
    findings = audit(AuditTarget(clean), fact_tokens=(token,)).findings
    line = CLEAN_FILES["tidewater/ledger.py"].count("\n") + 1
    assert [f.location for f in findings] == [f"tidewater/ledger.py:{line}"]
