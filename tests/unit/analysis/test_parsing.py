"""Parsing and lowering: the registry, malformed input, per-language lowering rules."""

from __future__ import annotations

import pytest

from detection.analysis import ParseFailure, UnknownLanguageError, language_names, parse_source

from .conftest import lowered

MALFORMED = {
    "python": ("def f(x):\n    y = (x +\n    return y\n", 2, 5),
    "javascript": ("function f(x) {\n  let y = x +;\n  return y;\n}\n", 2, 13),
    "typescript": ("function f(x: number): number {\n  const y: = x;\n  return y;\n}\n", 2, 10),
    "go": ("package main\n\nfunc f(x int) int {\n\ty := x +\n}\n", 4, 9),
    "java": ("class A {\n  int f(int x) {\n    int y = x + ;\n    return y;\n  }\n}\n", 3, 15),
    "rust": ("fn f(x: i32) -> i32 {\n    let y = x + ;\n    y\n}\n", 2, 16),
}


def test_registry_lists_the_spec_languages():
    assert language_names() == ["go", "java", "javascript", "python", "rust", "typescript"]


def test_unknown_language_is_a_caller_error_naming_the_field():
    with pytest.raises(UnknownLanguageError) as caught:
        parse_source("x = 1", "cobol")
    assert caught.value.code == "analysis_unknown_language"
    assert caught.value.field == "language"


@pytest.mark.parametrize("language", sorted(MALFORMED))
def test_malformed_input_reports_the_first_error_position(language):
    source, line, column = MALFORMED[language]
    failure = parse_source(source, language, solution="s1")
    assert isinstance(failure, ParseFailure)
    assert (failure.solution, failure.line, failure.column) == ("s1", line, column)
    assert failure.code == "analysis_parse_error"
    assert f"line {line}, column {column}" in failure.message


def test_binary_input_is_reported_not_raised():
    failure = parse_source(b"x = 1\x00\x01", "python")
    assert isinstance(failure, ParseFailure) and failure.code == "analysis_binary_source"


@pytest.mark.parametrize(("language", "source"), [
    ("python", "def f(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n"),
    ("javascript", "function f(n) { let t = 0; for (let i = 0; i < n; i++) { t += i; } return t; }"),
    ("typescript", "function f(n: number): number { let t = 0; for (let i = 0; i < n; ++i) t += i; return t; }"),
    ("go", "package p\nfunc f(n int) int {\n\tt := 0\n\tfor i := 0; i < n; i++ {\n\t\tt += i\n\t}\n\treturn t\n}\n"),
    ("java", "class A { int f(int n) { int t = 0; for (int i = 0; i < n; i++) t += i; return t; } }"),
    ("rust", "fn f(n: i32) -> i32 { let mut t = 0; for i in 0..n { t += i; } t }"),
])
def test_counting_loops_lower_to_the_same_while_shape_in_every_language(language, source):
    text = lowered(source, language).sexpr()
    assert "(loop (cmp=< id=i id=n) (block (augassign=+ id=t id=i)) (block (augassign=+ id=i num=1)))" in text
    assert "(assign id=i num=0)" in text
    assert "(return id=t)" in text


@pytest.mark.parametrize(("language", "source", "expected"), [
    ("python", "x = 0x10 + 1_6 + 16", "(binop=+ (binop=+ num=16 num=16) num=16)"),
    ("java", "class A { long x = 0x10L + 16L + 020; }", "(binop=+ (binop=+ num=16 num=16) num=16)"),
    ("rust", "fn f() { let x = 16u32 + 0x10 + 1_6i64; }", "(binop=+ (binop=+ num=16 num=16) num=16)"),
    ("python", "x = ('a', \"a\", r'a', True, None)", "(tuple str=a str=a str=a lit=true lit=null)"),
    ("javascript", "x = ['a', \"a\", `a`, true, null];", "(array str=a str=a str=a lit=true lit=null)"),
    ("go", "package p\nvar x = []string{\"a\", `a`}\nvar y = nil", "(literal_value str=a str=a)"),
])
def test_literal_spellings_are_canonical(language, source, expected):
    assert expected in lowered(source, language).sexpr()


@pytest.mark.parametrize(("language", "source"), [
    ("python", "# lead\ndef f(a):\n    # inside\n    return (a)  # trailing\n"),
    ("javascript", "/* lead */ function f(a) { // inside\n return (a); }"),
    ("java", "/** doc */ class A { /* x */ int f(int a) { return (a); } }"),
    ("rust", "/// doc\nfn f(a: i32) -> i32 { // x\n (a) }"),
    ("go", "package p\n// doc\nfunc f(a int) int { /* x */ return (a) }"),
])
def test_comments_and_redundant_parentheses_never_reach_the_tree(language, source):
    text = lowered(source, language).sexpr()
    assert "comment" not in text
    assert "parenthesized" not in text
    assert "(return id=a)" in text


def test_expression_bodies_return_their_value():
    lam = lowered("f = lambda x: x + 1", "python").sexpr()
    assert "(assign id=f (func (params id=x) (block (return (binop=+ id=x num=1)))))" in lam
    arrow = lowered("const f = (x) => x + 1;", "javascript").sexpr()
    assert "(func (params id=x) (block (return (binop=+ id=x num=1))))" in arrow
    tail = lowered("fn f(x: i32) -> i32 { x + 1 }", "rust").sexpr()
    assert "(block (return (binop=+ id=x num=1)))" in tail


def test_braceless_bodies_are_blocks():
    a = lowered("function f(c) { if (c) x++; }", "javascript").sexpr()
    b = lowered("function f(c) { if (c) { x++; } }", "javascript").sexpr()
    assert a == b


def test_declarations_are_assignments():
    forms = ["let x = 1;", "var x = 1;", "const x = 1;", "x = 1;"]
    assert len({lowered(f, "javascript").sexpr() for f in forms}) == 1
    go = {lowered(f"package p\nfunc f() {{ {s} }}", "go").sexpr() for s in ("x := 1", "var x = 1", "x = 1")}
    assert len(go) == 1
