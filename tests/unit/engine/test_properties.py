"""Property tests of the text machinery every template relies on."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from challenges.engine.patches import apply_patch, unified_diff
from challenges.engine.render import render

LINE = st.text(alphabet="abcdefgh ():=._+-0123456789", min_size=0, max_size=30).map(str.rstrip)
SNIPPET = st.lists(LINE, min_size=0, max_size=4).map("\n".join)


@given(indent=st.integers(0, 12), before=st.lists(LINE, max_size=5), after=st.lists(LINE, max_size=5),
       snippet=SNIPPET)
def test_site_rendering_never_leaks_markers_and_spans_hold_the_snippet(indent, before, after, snippet):
    pad = " " * indent
    text = "\n".join([*before, pad + "{{!site}}", *after]) + "\n"
    out = render(text, {}, {"site": snippet}, mark=("site",))
    assert "{{" not in out.text and not any("\ue000" <= ch <= "\ue003" for ch in out.text)
    start, end = out.spans["site"]
    body = textwrap.dedent(snippet).strip("\n")  # snippets are dedented before indenting
    expected = "\n".join([body.split("\n")[0]] + [(pad + ln) if ln.strip() else "" for ln in body.split("\n")[1:]])
    assert out.text[start:end] == (expected if body else "")
    if not body:
        # The line goes; a blank line after it goes too when a blank line precedes it.
        kept = "\n".join([*before, *after]) + ("\n" if before or after else "")
        if before and after and not before[-1].strip() and not after[0].strip():
            kept = "\n".join([*before, *after[1:]]) + "\n"
        assert out.text == kept


PATCH = shutil.which("patch") or "patch"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINE, min_size=1, max_size=30), edits=st.lists(st.tuples(st.integers(0, 29), LINE), max_size=4))
def test_unified_diffs_apply_with_patch(lines, edits):
    old = "\n".join(lines) + "\n"
    changed = list(lines)
    for position, text in edits:
        changed.insert(min(position, len(changed)), text)
    new = "\n".join(changed) + "\n"
    diff = unified_diff({"pkg/mod.py": old}, {"pkg/mod.py": new})
    if old == new:
        assert diff == ""
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pkg").mkdir()
        (root / "pkg" / "mod.py").write_text(old)
        (root / "fix.patch").write_text(diff)
        subprocess.run([PATCH, "-p1", "-s", "-i", "fix.patch"], cwd=root, check=True, stdin=subprocess.DEVNULL,
                       capture_output=True)
        assert (root / "pkg" / "mod.py").read_text() == new


@given(lines=st.lists(LINE, min_size=1, max_size=40),
       edits=st.lists(st.tuples(st.integers(0, 39), st.sampled_from(["insert", "delete", "replace"]), LINE),
                      max_size=6))
def test_apply_patch_inverts_unified_diff(lines, edits):
    changed = list(lines)
    for position, action, text in edits:
        where = min(position, len(changed))
        if action == "insert":
            changed.insert(where, text)
        elif changed and where < len(changed):
            if action == "delete":
                del changed[where]
            else:
                changed[where] = text
    old = "\n".join(lines) + "\n"
    new = "\n".join(changed) + "\n"
    diff = unified_diff({"m.py": old}, {"m.py": new})
    assert apply_patch({"m.py": old}, diff) == ({"m.py": new} if diff else {})
