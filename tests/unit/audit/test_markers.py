"""Check 1: staging markers and harness vocabulary are caught; ordinary words are not."""

from __future__ import annotations

import pytest

from challenges.audit import AuditTarget, run_audit
from tests.unit.audit.builders import CLEAN_FILES, CommitSpec, RepoSpec, clean_history, write_repo
from tests.unit.audit.conftest import make_context


def audit(root, **context):
    return run_audit(AuditTarget(root), make_context(**context), checks=["markers"])


@pytest.mark.parametrize("path, text, line, code", [
    ("tidewater/window.py", "x = 1\n# BUG #3: off by one here\n", 2, "marker_line"),
    ("tidewater/window.py", "x = 1\n    #BUG#12\n", 2, "marker_line"),
    ("web/app.js", "const a = 1;\n// FIXME wrong bound\n", 2, "marker_line"),
    ("web/app.js", "/* XXX */\n", 1, "marker_line"),
    ("NOTES.md", "intro\n\nHACK: skip the lock\n", 3, "marker_line"),
    ("tidewater/window.py", "limit = size - 1  # HACK keep tests green\n", 1, "marker_comment"),
    ("web/index.html", "<p>x</p> <!-- FIXME -->\n", 1, "marker_comment"),
])
def test_planted_markers_are_caught(clean, path, text, line, code):
    (clean / path).parent.mkdir(parents=True, exist_ok=True)
    (clean / path).write_text(text)
    findings = audit(clean).findings
    assert [(f.code, f.location) for f in findings] == [(code, f"{path}:{line}")]


def test_marker_only_in_history_is_caught(tmp_path):
    commits = clean_history()
    commits.insert(2, CommitSpec({**commits[1].files, "tidewater/ledger.py": "# FIXME: nights start at 1\n"},
                                 "Tidy ledger"))
    root = write_repo(tmp_path / "ws", RepoSpec(commits))
    findings = audit(root).findings
    assert len(findings) == 1
    assert findings[0].code == "marker_line" and findings[0].location.endswith(":tidewater/ledger.py:1")


@pytest.mark.parametrize("text", [
    "See HACKING.md for setup.\n", "xxx_large_vessels = 0\n", "Bug reports are welcome.\n",
    "mask = 'XXX-XXXX'\n", "# fixme later is not our convention\n", "HACKATHON = True\n",
    "# The clock is injected so tests can freeze time.\n", "# A micro benchmark lives in docs/perf.md\n",
    "DEBUG = False\n", "# Bugfix release notes are in CHANGELOG.md\n",
])
def test_ordinary_text_is_not_a_marker(clean, text):
    (clean / "tidewater" / "extra.py").write_text(text)
    assert audit(clean).findings == ()


@pytest.mark.parametrize("text, term", [
    ("def test_red_herring_log(self):\n", "red herring"),
    ("HIDDEN_TESTS = ['a']\n", "hidden tests"),
    ("const goldPatch = load();\n", "gold patch"),
    ("# run the test oracle first\n", "test oracle"),
    ("canaryGuard = True\n", "canary guard"),
    ("The oracle decides.\n", "oracle"),
    ("harness = build()\n", "harness"),
    ("# this bug was injected on purpose: injected bug\n", "injected bug"),
])
def test_harness_vocabulary_is_caught_in_identifiers_and_prose(clean, text, term):
    (clean / "tidewater" / "extra.py").write_text(text)
    findings = audit(clean).findings
    assert [(f.code, f.message) for f in findings] == [("harness_vocabulary", f"harness term {term!r}")]


def test_harness_vocabulary_in_commit_message_and_path(tmp_path):
    commits = clean_history()
    commits[1] = CommitSpec({**commits[1].files, "tests/hidden_tests.py": "x = 1\n"}, "Add red herring log line")
    root = write_repo(tmp_path / "ws", RepoSpec(commits, worktree=dict(CLEAN_FILES)))
    locations = {f.location for f in audit(root).findings}
    assert any(loc.startswith("commit ") and loc.endswith("message:1") for loc in locations)
    assert any(loc.startswith("history ") and loc.endswith(":tests/hidden_tests.py") for loc in locations)


def test_domain_words_are_allowed_when_declared(clean):
    (clean / "tidewater" / "birds.py").write_text("CANARY_CAGE = 'canary'\n")
    assert [f.message for f in audit(clean).findings] == ["harness term 'canary'"]  # one per line
    assert audit(clean, allowed_words=frozenset({"canary"})).findings == ()
