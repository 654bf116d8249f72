"""Canary regions mapped through a patch."""

from detection.canaries import canary_touches
from detection.signals import Canary

SOURCE = "".join(f"line {n}\n" for n in range(1, 21))
CANARY = Canary("window", "app/core.py", (8, 10))


def _patch(hunk: str) -> str:
    return f"diff --git a/app/core.py b/app/core.py\n--- a/app/core.py\n+++ b/app/core.py\n{hunk}"


def test_replacing_a_region_line_modifies_the_canary():
    patch = _patch("@@ -8,3 +8,3 @@\n line 8\n-line 9\n+line nine\n line 10\n")
    (touch,) = canary_touches(patch, [CANARY])
    assert touch.modified and touch.lines == (9,)
    assert "-line 9" in touch.excerpt and "+line nine" in touch.excerpt


def test_inserting_between_region_lines_modifies_the_canary():
    patch = _patch("@@ -8,2 +8,3 @@\n line 8\n+extra\n line 9\n")
    (touch,) = canary_touches(patch, [CANARY])
    assert touch.modified


def test_changes_outside_the_region_do_not():
    patch = _patch("@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n"
                   "@@ -11,2 +11,3 @@\n line 11\n+after the region\n line 12\n")
    (touch,) = canary_touches(patch, [CANARY])
    assert not touch.modified and touch.excerpt == ""


def test_another_file_and_an_unparseable_patch_touch_nothing():
    other = "--- a/app/other.py\n+++ b/app/other.py\n@@ -9,1 +9,1 @@\n-line 9\n+x\n"
    assert not canary_touches(other, [CANARY])[0].modified
    assert not canary_touches("not a diff", [CANARY])[0].modified


def test_the_excerpt_is_bounded():
    body = "".join(f"+{'x' * 100}\n" for _ in range(50))
    patch = _patch(f"@@ -8,2 +8,52 @@\n line 8\n{body} line 9\n")
    (touch,) = canary_touches(patch, [CANARY], excerpt_bytes=300)
    assert touch.modified and len(touch.excerpt.encode()) <= 300
