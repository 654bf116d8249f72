"""Plans never touch a protected span, are deterministic, and rewrite the variants of a
module (shipped, gold fix) alike everywhere but at the sites."""

from __future__ import annotations

import difflib
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from challenges.engine import api as engine
from challenges.engine import registry
from challenges.engine.rewrite import javascript
from challenges.engine.rewrite.edits import apply, overlaps
from challenges.novelty.code import source_files

SLUGS = sorted(slug for slug, cls in registry().items() if "javascript" in cls.spec.languages)


@cache
def modules() -> tuple[str, ...]:
    texts: list[str] = []
    for slug in SLUGS:
        inst = engine.generate(engine.draw(slug, "javascript", random.Random(7)))
        texts += source_files(inst.files).values()
    return tuple(texts)


@st.composite
def module_and_spans(draw):
    text = draw(st.sampled_from(modules()))
    count = draw(st.integers(min_value=0, max_value=6))
    spans = []
    for _ in range(count):
        start = draw(st.integers(min_value=0, max_value=len(text)))
        spans.append((start, draw(st.integers(min_value=start, max_value=min(len(text), start + 400)))))
    return text, spans


@settings(max_examples=60, deadline=None)
@given(module_and_spans(), st.binary(min_size=1, max_size=16))
def test_plans_never_touch_protected_spans(case, seed):
    text, spans = case
    edits = javascript.plan(text, protected=spans, seed=seed)
    for edit in edits:
        assert not overlaps(edit.start, edit.end, spans)
    named = {f"s{i}": span for i, span in enumerate(spans)}
    after, moved = apply(text, edits, named)  # raises on overlapping edits
    for name, (start, end) in named.items():
        assert after[moved[name][0]:moved[name][1]] == text[start:end]
    assert javascript.plan(text, protected=spans, seed=seed) == edits


def test_plans_depend_on_the_seed():
    text = max(modules(), key=len)
    plans = {tuple(javascript.plan(text, protected=[], seed=bytes([n]))) for n in range(4)}
    assert len(plans) == 4
    assert all(plans)


def _sites(a: str, b: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Line spans where ``a`` and ``b`` differ, in each text."""
    la, lb = a.splitlines(keepends=True), b.splitlines(keepends=True)
    sa, sb = [0], [0]
    for line in la:
        sa.append(sa[-1] + len(line))
    for line in lb:
        sb.append(sb[-1] + len(line))
    spans_a, spans_b = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
        if tag != "equal":
            spans_a.append((sa[max(i1 - 1, 0)], sa[min(i2 + 1, len(la))]))
            spans_b.append((sb[max(j1 - 1, 0)], sb[min(j2 + 1, len(lb))]))
    return spans_a, spans_b


def _without(text: str, spans: dict[str, tuple[int, int]]) -> str:
    for start, end in sorted(spans.values(), reverse=True):
        text = text[:start] + "<site>" + text[end:]
    return text


def test_shipped_and_gold_modules_are_rewritten_alike_outside_the_sites():
    compared = rewritten = 0
    for slug in SLUGS:
        inst = engine.generate(engine.draw(slug, "javascript", random.Random(11)))
        for path, fixed in inst.gold.files.items():
            if path not in source_files(inst.files):
                continue
            shipped = inst.files[path]
            spans_a, spans_b = _sites(shipped, fixed)
            seed = b"one draw"
            a = apply(shipped, javascript.plan(shipped, protected=spans_a, seed=seed),
                      {f"s{i}": s for i, s in enumerate(spans_a)})
            b = apply(fixed, javascript.plan(fixed, protected=spans_b, seed=seed),
                      {f"s{i}": s for i, s in enumerate(spans_b)})
            assert _without(*a) == _without(*b), f"{slug}: {path}"
            compared += 1
            rewritten += a[0] != shipped
    assert compared >= len(SLUGS)
    assert rewritten >= compared // 2
