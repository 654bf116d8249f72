"""Every template's generated JavaScript, rewritten: it still parses, and its visible
tests pass and fail exactly as they do on the code as generated."""

from __future__ import annotations

import difflib
import random
from functools import cache

import pytest

from challenges.engine import api as engine
from challenges.engine import registry
from challenges.engine.rewrite import javascript
from challenges.engine.rewrite.edits import apply
from challenges.novelty.code import source_files
from tests.unit.engine.rewrite_js.nodejs import suite_outcomes, write_tree

SLUGS = sorted(slug for slug, cls in registry().items() if "javascript" in cls.spec.languages)
# The release gates run every template's visible suite on rewritten output already
# (tests/unit/engine/test_templates.py); these seeds add draws the gates do not see.
PARSE_SEEDS = (1, 2)
RUN_SEEDS = (1,)


@cache
def instance(slug: str, seed: int):
    return engine.generate(engine.draw(slug, "javascript", random.Random(seed)))


def variant_spans(shipped: str, variants: list[str]) -> list[tuple[int, int]]:
    """Character spans of ``shipped`` (whole lines) that any variant changes: the sites."""
    lines = shipped.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    spans: list[tuple[int, int]] = []
    for other in variants:
        matcher = difflib.SequenceMatcher(None, lines, other.splitlines(keepends=True), autojunk=False)
        for tag, i1, i2, _, _ in matcher.get_opcodes():
            if tag != "equal":
                # An insertion between two lines protects both neighbours.
                spans.append((starts[max(i1 - 1, 0)] if i1 == i2 else starts[i1], starts[min(max(i2, i1 + 1), len(lines))]))
    return spans


def site_spans(inst, path: str) -> list[tuple[int, int]]:
    fixes = [inst.gold, *inst.alternatives, *([inst.masking] if inst.masking else []), *inst.canaries]
    return variant_spans(inst.files[path], [fix.files[path] for fix in fixes if path in fix.files])


def rewritten(inst, *, seed: bytes | None, protect: bool) -> dict[str, str]:
    """The workspace with every non-test JavaScript module rewritten: under ``seed``, or
    with every rewrite taken (``seed=None``)."""
    files = dict(inst.files)
    for path, text in source_files(inst.files).items():
        protected = site_spans(inst, path) if protect else []
        if seed is None:
            edits = javascript.plan_with(text, protected=protected, decide=lambda _k, _key, n: 1)
        else:
            edits = javascript.plan(text, protected=protected, seed=seed)
        files[path] = apply(text, edits, {f"s{i}": span for i, span in enumerate(protected)})[0]
    return files


def parses(text: str) -> bool:
    return not javascript._parser().parse(text.encode("utf-8")).root_node.has_error


@pytest.mark.parametrize("slug", SLUGS)
def test_rewritten_modules_parse_and_keep_the_sites(slug):
    for seed in PARSE_SEEDS:
        inst = instance(slug, seed)
        for variant in (rewritten(inst, seed=b"draw-%d" % seed, protect=True), rewritten(inst, seed=None, protect=False)):
            changed = [path for path in source_files(inst.files) if variant[path] != inst.files[path]]
            assert changed, f"{slug}: nothing rewritten"
            for path in source_files(inst.files):
                assert parses(variant[path]), f"{slug} seed {seed}: {path} no longer parses"
        # The sites survive the seeded rewrite character for character.
        protected = rewritten(inst, seed=b"draw-%d" % seed, protect=True)
        for path in source_files(inst.files):
            for start, end in site_spans(inst, path):
                assert inst.files[path][start:end] in protected[path]


@pytest.mark.parametrize("slug", SLUGS)
def test_rewritten_workspace_passes_and_fails_the_same_visible_tests(slug, tmp_path):
    for seed in RUN_SEEDS:
        inst = instance(slug, seed)
        trees = {"generated": inst.files, "seeded": rewritten(inst, seed=b"draw-%d" % seed, protect=True)}
        if seed == RUN_SEEDS[0]:
            trees["every-rewrite"] = rewritten(inst, seed=None, protect=False)
        outcomes = {}
        for name, files in trees.items():
            root = tmp_path / f"{seed}-{name}"
            write_tree(root, files)
            outcomes[name] = suite_outcomes(root, inst.visible_tests)
        for name in trees:
            assert outcomes[name] == outcomes["generated"], f"{slug} seed {seed}: {name} differs"
        # The shipped bug still shows: the visible failures the instance expects are there.
        failed = {test for (_, _, test, passed) in outcomes["seeded"] if not passed}
        assert {test.split(" > ")[-1] for test in inst.expected_visible_failures} <= failed
