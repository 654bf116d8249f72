"""Language-light code tokens for the intake gate's comparisons.

``code_tokens(text, language)`` drops comments and yields tokens; with
``strip_names`` every identifier that is not a keyword becomes ``I``, every
string literal ``S`` and every number ``N`` ("name-stripped code", spec 000),
so two codebases that differ only in naming and data compare equal.  It is a
lexer, not a parser: good enough for n-gram overlap, which is all it feeds.
"""

from __future__ import annotations

import re

KEYWORDS: frozenset[str] = frozenset("""
False None True and as assert async await break class continue def del elif else except finally for from
global if import in is lambda nonlocal not or pass raise return try while with yield case self
const let var function new this typeof instanceof void delete switch default throw catch extends super
export static null undefined true false do func package struct interface chan go
defer fn impl trait pub mut enum where loop public private protected final
abstract implements
""".split())
# Contextual words that are usually identifiers (get, set, of, type, map, range,
# match...) are deliberately not keywords: renaming them must not change the stream.

LANGUAGE_BY_SUFFIX: dict[str, str] = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".ts": "typescript",
    ".go": "go", ".rs": "rust", ".java": "java",
}
HASH_COMMENT_LANGUAGES = frozenset({"python"})

_STRING = (r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
           r"|`(?:\\.|[^`\\])*`")
_TOKEN = re.compile(
    rf"(?P<s>{_STRING})|(?P<n>\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?\b|\b0[xob][0-9a-fA-F_]+\b)"
    r"|(?P<i>[A-Za-z_$][A-Za-z0-9_$]*)|(?P<o>===|!==|==|!=|<=|>=|=>|->|\*\*|//|&&|\|\||\+=|-=|:=|[^\s\w])"
)
_HASH_COMMENT = re.compile(r"#[^\n]*")
_SLASH_COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/")


def language_of(path: str) -> str | None:
    for suffix, language in LANGUAGE_BY_SUFFIX.items():
        if path.endswith(suffix):
            return language
    return None


def _without_comments(text: str, language: str) -> str:
    # Strings are kept intact by matching them first and putting them back.
    comment = _HASH_COMMENT if language in HASH_COMMENT_LANGUAGES else _SLASH_COMMENT
    pattern = re.compile(rf"(?P<s>{_STRING})|(?P<c>{comment.pattern})")
    return pattern.sub(lambda m: m.group("s") if m.group("s") is not None else " ", text)


def code_tokens(text: str, language: str, *, strip_names: bool = True) -> list[str]:
    out: list[str] = []
    for match in _TOKEN.finditer(_without_comments(text, language)):
        kind = match.lastgroup
        value = match.group()
        if not strip_names:
            out.append(value)
        elif kind == "s":
            out.append("S")
        elif kind == "n":
            out.append("N")
        elif kind == "i":
            out.append(value if value in KEYWORDS else "I")
        else:
            out.append(value)
    return out


def stripped_text(files: dict[str, str] | None, *, strip_names: bool = True) -> str:
    """All code files (sorted by path) as one space-separated token stream."""
    tokens: list[str] = []
    for path in sorted(files or {}):
        language = language_of(path)
        if language is not None:
            tokens += code_tokens(files[path], language, strip_names=strip_names)
    return " ".join(tokens)
