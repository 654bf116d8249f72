"""The statement leak checks and the hint audit (pure)."""

from __future__ import annotations

from challenges.audit.statement import hint_findings, region_identifiers, statement_findings

GOLD_PATCH = """--- a/app/ledger.py
+++ b/app/ledger.py
@@ -10,2 +10,2 @@
-    return start_a < end_b and start_b <= end_a
+    return start_a < end_b and start_b < end_a
"""
REGION = "def windows_overlap(start_a, end_a, start_b, end_b):\n    return start_a < end_b and start_b < end_a\n"


def _findings(text, tier=4, **kw):
    return statement_findings(text, gold_patch=GOLD_PATCH, region=REGION, language="python", tier=tier, **kw)


def test_a_clean_statement_passes():
    assert _findings("Back-to-back bookings are refused as conflicts.") == []


def test_an_empty_statement_is_refused():
    assert "no task statement" in _findings("  \n")[0]


def test_word_runs_of_the_fix_are_refused():
    found = _findings("Perhaps start a end b should be compared differently.")
    assert any("shares 2 3-word run(s)" in f and "'a end b'" in f for f in found)


def test_identifiers_of_the_faulty_region_are_refused_from_the_identifier_tier():
    assert "windows_overlap" in region_identifiers(REGION, "python")
    assert "start_a" in region_identifiers(REGION, "python")
    text = "The check in windows_overlap looks wrong."
    assert any("'windows_overlap'" in f for f in _findings(text, tier=4))
    assert _findings(text, tier=3) == []


def test_fact_tokens_catalogue_and_harness_terms_are_refused():
    found = _findings("The hidden tests say the booking ledger is off.", fact_phrases=["booking ledger"],
                      terms=["booking-ledger"])
    assert any("fact token" in f for f in found)
    assert any("'booking-ledger'" in f for f in found)
    assert any("'hidden tests'" in f for f in found)


BUG_FILE = '''"""Bookings of rooms; every checked-out room must be checked in again."""


def release(room):
    # Decided under the lock below.
    if room.free:
        return None
    with LOCK:
        room.free = True


def unrelated():
    pass
''' + "\n" * 40 + '''
def far_away():
    # decided under the lock, far from the fault
    return None
'''


def test_hint_audit_flags_comments_near_the_fault_and_the_module_docstring():
    found = hint_findings(invariant=("under the lock", "checked in again"), bug_path="app/rooms.py",
                          bug_text=BUG_FILE, lines=(6, 9), language="python", readme="", window=5)
    assert any("app/rooms.py:5" in f and "'under the lock'" in f for f in found)
    assert any("app/rooms.py:1" in f and "'checked in again'" in f for f in found)
    assert not any(":5" not in f and ":1" not in f for f in found)  # the far comment is out of the window


def test_hint_audit_reads_readme_sentences():
    readme = "# Rooms\n\nA room is released only under the lock. Everything else is simple.\n"
    found = hint_findings(invariant=("under the lock",), bug_path="a.py", bug_text="x = 1\n", lines=(1, 1),
                          language="python", readme=readme)
    assert found == ["README: a sentence restates the rule the faulty code breaks ('under the lock')"]
    assert hint_findings(invariant=(), bug_path="a.py", bug_text=BUG_FILE, lines=(6, 9),
                         language="python", readme=readme) == []
