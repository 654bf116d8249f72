"""Mutation operators: one test per operator and language, plus the shared guarantees."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from challenges.sandbox import OPERATORS, Mutant, SandboxInputError, mutants
from challenges.sandbox.mutation import _RULES, _javascript_failures, _python_compiles

PY = '''def window(items, start, limit):
    """Return the slice; a < b in prose stays as it is."""
    # a comment with <= and + 1 and True
    if start < 0 or limit <= 0:
        raise ValueError("bad <= window + 1")
    end = min(start + limit, len(items))
    total = 0
    for i in range(start, end):
        total += items[i] * 2
    return items[start:end] if total != 0 and not False else []
'''

JS = '''function windowOf(items, start, limit) {
  // a < b && c in a comment, true
  if (start < 0 || limit <= 0) { throw new Error("bad <= " + start); }
  const end = Math.min(start + limit, items.length);
  let total = 0;
  for (let i = start; i < end; i++) { total += items[i] * 2; }
  return total !== 0 && !items.empty ? items.slice(start, end) : [];
}
module.exports = { windowOf };
'''


def _region(source: str, first: str, last: str | None = None) -> tuple[int, int]:
    start = source.index(first)
    end = source.index(last, start) + len(last) if last else len(source)
    return start, end


def _whole_body(source: str, language: str) -> list[Mutant]:
    first = "    if start" if language == "python" else "  if (start"
    last = "else []" if language == "python" else ": [];"
    return mutants(source, language=language, region=_region(source, first, last))


def _edits(found: list[Mutant], operator: str, source: str) -> set[tuple[str, str]]:
    """(removed text, inserted text) of each mutant of one operator, by common affixes."""
    out = set()
    for mutant in found:
        if mutant.operator != operator:
            continue
        a, b = source, mutant.source
        p = 0
        while p < min(len(a), len(b)) and a[p] == b[p]:
            p += 1
        s = 0
        while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
            s += 1
        out.add((a[p:len(a) - s], b[p:len(b) - s]))
    return out


@pytest.mark.parametrize("language, source", [("python", PY), ("javascript", JS)])
def test_comparison_operator(language, source):
    edits = _edits(_whole_body(source, language), "comparison", source)
    assert ("", "=") in edits  # < -> <=
    assert ("=", "") in edits  # <= -> <
    assert ("!", "=") in edits  # != -> ==  /  !== -> ===


def test_python_membership_and_identity_comparisons():
    src = "def f(a, b):\n    return a in b, a is None, a not in b, a is not b\n"
    found = mutants(src, language="python", region=(0, len(src)))
    texts = {m.source.splitlines()[1].strip() for m in found if m.operator == "comparison"}
    assert texts == {"return a not in b, a is None, a not in b, a is not b",
                     "return a in b, a is not None, a not in b, a is not b",
                     "return a in b, a is None, a in b, a is not b",
                     "return a in b, a is None, a not in b, a is b"}


@pytest.mark.parametrize("language, source", [("python", PY), ("javascript", JS)])
def test_arithmetic_operator(language, source):
    edits = _edits(_whole_body(source, language), "arithmetic", source)
    assert ("+", "-") in edits and ("*", "/") in edits
    assert ("+=", "-=") in edits or ("+", "-") in edits
    found = _whole_body(source, language)
    assert any("total -= items[i] * 2" in m.source for m in found)


@pytest.mark.parametrize("language, source, true_text, false_text",
                         [("python", PY, "True", "False"), ("javascript", JS, "true", "false")])
def test_constant_operator(language, source, true_text, false_text):
    found = _whole_body(source, language)
    edits = _edits(found, "constant", source)
    assert ("0", "1") in edits and ("2", "3") in edits and ("2", "1") in edits
    src = f"x = {true_text}\n" if language == "python" else f"let x = {true_text};\n"
    flipped = mutants(src, language=language, region=(0, len(src)))
    assert [m.source for m in flipped if m.operator == "constant"] == [
        src.replace(true_text, false_text)]


def test_constant_operator_does_not_go_negative_and_handles_radix():
    src = "a = 0\nb = 0x10\nc = 1_000\n"
    found = {m.source for m in mutants(src, language="python", region=(0, len(src)))
             if m.operator == "constant"}
    assert "a = 1\nb = 0x10\nc = 1_000\n" in found
    assert "a = -1\nb = 0x10\nc = 1_000\n" not in found
    assert "a = 0\nb = 17\nc = 1_000\n" in found and "a = 0\nb = 0x10\nc = 999\n" in found


def test_python_statement_removal_keeps_blocks_valid_and_skips_docstrings():
    found = _whole_body(PY, "python")
    removed = [m for m in found if m.operator == "statement_removal"]
    assert any("        pass\n" in m.source and "raise ValueError" not in m.source
               for m in removed)
    assert any("    pass\n" in m.source and "return items" not in m.source for m in removed)
    assert all('"""Return the slice' in m.source for m in found)


def test_javascript_statement_removal():
    found = _whole_body(JS, "javascript")
    removed = [m for m in found if m.operator == "statement_removal"]
    assert any("{ ; }" in m.source for m in removed)  # throw dropped from its block
    assert any("total += items[i] * 2;" not in m.source for m in removed)
    assert not any("const end" not in m.source for m in removed)  # declarations stay


def test_compound_statement_removed_only_when_wholly_inside_region():
    src = "def f(x):\n    if x:\n        x = 1\n        x = 2\n    return x\n"
    inner = _region(src, "x = 2", "x = 2")
    descriptions = [m.description for m in mutants(src, language="python", region=inner)
                    if m.operator == "statement_removal"]
    assert descriptions == ["line 4: removed `x = 2`"]


@pytest.mark.parametrize("language, source", [("python", PY), ("javascript", JS)])
def test_argument_swap_operator(language, source):
    found = [m for m in _whole_body(source, language) if m.operator == "argument_swap"]
    swapped = "range(end, start)" if language == "python" else "items.slice(end, start)"
    assert any(swapped in m.source for m in found)
    assert any(("min(len(items), start + limit)" if language == "python"
                else "Math.min(items.length, start + limit)") in m.source for m in found)


def test_argument_swap_skips_keywords_splats_and_identical_arguments():
    src = "f(a, k=1)\ng(*xs, b)\nh(c, c)\nj(**kw, d=2)\n"
    assert not [m for m in mutants(src, language="python", region=(0, len(src)))
                if m.operator == "argument_swap"]
    js = "f(...xs, b);\nh(c, c);\n"
    assert not [m for m in mutants(js, language="javascript", region=(0, len(js)))
                if m.operator == "argument_swap"]


@pytest.mark.parametrize("language, source, pair", [("python", PY, ("or", "and")),
                                                      ("javascript", JS, ("||", "&&"))])
def test_logical_operator(language, source, pair):
    found = _whole_body(source, language)
    edits = _edits(found, "logical", source)
    assert pair in edits and (pair[1], pair[0]) in edits
    negation = "not " if language == "python" else "!"
    assert any(m.description.endswith(f"dropped `{negation.strip()}`") for m in found)


@pytest.mark.parametrize("language, source", [("python", PY), ("javascript", JS)])
def test_strings_and_comments_are_never_mutated(language, source):
    comment = source.splitlines()[2] if language == "python" else source.splitlines()[1]
    text = '"bad <= window + 1"' if language == "python" else '"bad <= "'
    found = mutants(source, language=language, region=(0, len(source)))
    for mutant in found:
        assert comment in mutant.source, mutant.description
        if mutant.operator != "statement_removal":
            assert text in mutant.source, mutant.description


@pytest.mark.parametrize("language, source", [("python", PY), ("javascript", JS)])
def test_region_bounds_every_token_mutation(language, source):
    region = _region(source, "start + limit", "start + limit")
    found = mutants(source, language=language, region=region)
    # The Python line is an assignment statement; the JS one a declaration, never removed.
    expected = {"arithmetic", "argument_swap"} | (
        {"statement_removal"} if language == "python" else set())
    assert {m.operator for m in found} == expected
    for mutant in found:
        if mutant.operator in ("arithmetic", "comparison", "constant", "logical"):
            assert mutant.source[:region[0]] == source[:region[0]]
            tail = len(source) - region[1]
            assert mutant.source[len(mutant.source) - tail:] == source[region[1]:]


@pytest.mark.parametrize("language, source", [("python", PY), ("javascript", JS)])
def test_mutants_are_distinct_stable_and_identified(language, source):
    first = _whole_body(source, language)
    second = _whole_body(source, language)
    assert first == second and len(first) >= 20
    assert len({m.id for m in first}) == len(first)
    assert len({m.source for m in first}) == len(first)
    assert all(m.source != source for m in first)
    assert {m.operator for m in first} == set(OPERATORS)
    assert all(m.id.startswith(f"{m.operator}-L") for m in first)


def test_python_mutants_all_compile():
    assert all(_python_compiles(m.source) for m in _whole_body(PY, "python"))


def test_javascript_mutants_pass_node_check(tmp_path: Path):
    found = _whole_body(JS, "javascript")
    for mutant in found[:8]:
        path = tmp_path / "m.js"
        path.write_text(mutant.source)
        check = subprocess.run(["node", "--check", str(path)], capture_output=True)
        assert check.returncode == 0, mutant.description


def test_compile_checks_reject_broken_sources():
    assert not _python_compiles("def broken(:\n")
    assert _python_compiles("x = 1\n")
    results = _javascript_failures(["function (", "let a = 1;", "return 5;"], False)
    assert results[0] and results[1] is None and results[2] is None
    esm = _javascript_failures(["import x from 'y';\nexport const a = x;", "return 5;"], True)
    assert esm[0] is None and esm[1]


def test_non_compiling_candidates_are_dropped(monkeypatch):
    # "<>" is not an operator in either language: every candidate using it must be filtered.
    monkeypatch.setitem(_RULES["python"].swaps["comparison_operator"], "<", ("<=", "<>"))
    monkeypatch.setitem(_RULES["javascript"].swaps["binary_expression"], "<", ("<=", "<>"))
    py = mutants("ok = a < b\n", language="python", region=(0, 11))
    assert [m.source for m in py if m.operator == "comparison"] == ["ok = a <= b\n"]
    js = mutants("ok = a < b;\n", language="javascript", region=(0, 12))
    assert [m.source for m in js if m.operator == "comparison"] == ["ok = a <= b;\n"]


def test_javascript_legacy_octal_looking_literals_are_left_alone():
    src = "let a = 08; let b = 010; let c = 1_000;\n"
    found = {m.source for m in mutants(src, language="javascript", region=(0, len(src)))}
    assert found == {"let a = 08; let b = 010; let c = 1001;\n",
                     "let a = 08; let b = 010; let c = 999;\n"}


@pytest.mark.parametrize("region, code", [((5, 2), "region_invalid"), ((-1, 3), "region_invalid"),
                                          ((0, 10_000), "region_invalid")])
def test_bad_region_is_rejected(region, code):
    with pytest.raises(SandboxInputError) as info:
        mutants(PY, language="python", region=region)
    assert info.value.code == code and info.value.field == "region"


def test_unknown_language_is_rejected():
    with pytest.raises(SandboxInputError) as info:
        mutants(PY, language="cobol", region=(0, 5))
    assert info.value.field == "language"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=len(PY) - 1), st.integers(min_value=1, max_value=200))
def test_any_region_yields_compiling_distinct_mutants(start, width):
    region = (start, min(len(PY), start + width))
    found = mutants(PY, language="python", region=region)
    assert len({m.source for m in found}) == len(found)
    assert all(_python_compiles(m.source) and m.source != PY for m in found)
    assert all(m.operator in OPERATORS for m in found)


def test_non_ascii_source_offsets_are_characters():
    src = "def f(x):\n    label = 'café'\n    return x < 1\n"
    region = _region(src, "x < 1", "x < 1")
    found = mutants(src, language="python", region=region)
    assert "    return x <= 1\n" in {m.source.splitlines(keepends=True)[2] for m in found}
    assert all("café" in m.source for m in found)
