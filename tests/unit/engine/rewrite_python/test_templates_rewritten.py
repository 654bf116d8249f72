"""The planner over every Python module the templates generate: it never touches a
protected span, its output always compiles, and the variants of an instance differ only
inside the gold region."""

from __future__ import annotations

import difflib
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from challenges.engine.model import registry
from challenges.engine.rewrite import registry as planners
from challenges.engine.rewrite.edits import apply, overlaps
from challenges.engine.rewrite.python import plan
from tests.unit.engine.conftest import make_instance

TEMPLATES = sorted(slug for slug, cls in registry().items() if "python" in cls.spec.languages)


@cache
def modules() -> tuple[tuple[str, str], ...]:
    out = []
    for slug in TEMPLATES:
        instance = make_instance(slug, "python", 1)
        out += [(f"{slug}:{path}", instance.files[path]) for path in instance.source_paths]
    return tuple(out)


def test_every_generated_module_compiles_and_replans_cleanly() -> None:
    assert len(modules()) >= 2 * len(TEMPLATES)
    changed = 0
    for name, text in modules():
        compile(text, name, "exec")
        edits = plan(text, protected=[], seed=b"again")
        out, _ = apply(text, edits)
        compile(out, name, "exec")
        changed += out != text
    # The planner finds something to rewrite in most modules.
    assert changed >= len(modules()) // 2


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_planning_never_touches_protected_spans(data: st.DataObject) -> None:
    name, text = data.draw(st.sampled_from(modules()))
    points = data.draw(st.lists(st.integers(0, len(text)), min_size=0, max_size=8))
    spans = [(min(a, b), max(a, b)) for a, b in zip(points[::2], points[1::2], strict=False)]
    seed = data.draw(st.binary(min_size=1, max_size=8))
    edits = plan(text, protected=spans, seed=seed)
    for edit in edits:
        assert not overlaps(edit.start, edit.end, spans), (name, edit)
    out, moved = apply(text, edits, {str(i): span for i, span in enumerate(spans)})
    compile(out, name, "exec")
    for i, (a, b) in enumerate(spans):
        x, y = moved[str(i)]
        assert out[x:y] == text[a:b]


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for line in text.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def test_shipped_and_gold_files_are_rewritten_alike_outside_what_the_fix_changes() -> None:
    for slug in TEMPLATES:
        instance = make_instance(slug, "python", 1)
        for path, gold in instance.gold.files.items():
            shipped = instance.files[path]
            old_lines, new_lines = shipped.splitlines(keepends=True), gold.splitlines(keepends=True)
            old_at, new_at = _line_offsets(shipped), _line_offsets(gold)
            old_spans, new_spans = {}, {}
            matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
            for k, (tag, i1, i2, j1, j2) in enumerate(matcher.get_opcodes()):
                if tag != "equal":
                    old_spans[str(k)] = (old_at[i1], old_at[i2])
                    new_spans[str(k)] = (new_at[j1], new_at[j2])
            assert old_spans, (slug, path)
            one, moved_one = planners.rewrite("python", shipped, old_spans, b"again")
            two, moved_two = planners.rewrite("python", gold, new_spans, b"again")
            cuts_one = sorted(x for span in moved_one.values() for x in span)
            cuts_two = sorted(x for span in moved_two.values() for x in span)
            outside_one = [one[a:b] for a, b in zip([0, *cuts_one[1::2]], [*cuts_one[::2], len(one)], strict=True)]
            outside_two = [two[a:b] for a, b in zip([0, *cuts_two[1::2]], [*cuts_two[::2], len(two)], strict=True)]
            assert outside_one == outside_two, (slug, path)


def test_variants_differing_inside_a_span_are_rewritten_alike() -> None:
    _, text = next((n, t) for n, t in modules() if "def " in t and "return" in t)
    at = text.index("return")
    end = text.index("\n", at)
    other = text[:at] + "return None" + text[end:]
    cache: dict = {}
    one, spans_one = planners.rewrite("python", text, {"site": (at, end)}, b"seed")
    two, spans_two = planners.rewrite("python", other, {"site": (at, at + len("return None"))}, b"seed", cache)
    fresh, _ = planners.rewrite("python", other, {"site": (at, at + len("return None"))}, b"seed")
    assert two == fresh
    (a1, b1), (a2, b2) = spans_one["site"], spans_two["site"]
    assert one[:a1] == two[:a2] and one[b1:] == two[b2:]
    assert one[a1:b1] == text[at:end] and two[a2:b2] == "return None"


def test_rewrite_cache_reuses_the_first_variant() -> None:
    text = "def f(a, b):\n    x = a\n    y = b\n    return SITE\n"
    at = text.index("SITE")
    cache: dict = {}
    first, _ = planners.rewrite("python", text, {"s": (at, at + 4)}, b"k", cache)
    second, spans = planners.rewrite("python", text.replace("SITE", "x + y"), {"s": (at, at + 5)}, b"k", cache)
    assert len(cache) == 1
    assert second.replace("x + y", "SITE", 1) == first or first == text
    assert second[spans["s"][0] : spans["s"][1]] == "x + y"


def test_languages_without_a_planner_get_no_edits() -> None:
    assert planners.planner("cobol")("x = 1\n", protected=[], seed=b"s") == []
    # The JavaScript planner may or may not be installed; either way it is a callable planner.
    assert isinstance(planners.planner("javascript")("const x = 1;\n", protected=[], seed=b"s"), list)
    text, spans = planners.rewrite("cobol", "abc", {"s": (1, 2)}, b"s")
    assert (text, spans) == ("abc", {"s": (1, 2)})
