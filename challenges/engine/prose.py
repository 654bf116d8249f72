"""English the generated projects write: articles, plural agreement, and where prose is.

``article(word)`` picks "a" or "an" by sound, not by letter ("a unit", "an hour",
"an SLA"); the renderer uses it for an article written just before a placeholder, and
the realism gate uses ``grammar_problems`` to refuse prose that still gets it wrong
or puts a count before the wrong number ("one records", "three record.").
``prose_of`` extracts the prose of a file (Markdown as is; the comments and docstrings
of Python, the comments of JavaScript) so code and data are never read as English.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable

# Words spelled with a vowel letter that start with a consonant sound, and the reverse.
_CONSONANT_SOUND = re.compile(r"^(uni(?!n)|use|usa|usu|uti|ure|uro|ubi|eu|ewe|one\b|once|onesie|ouija)", re.I)
_VOWEL_SOUND = re.compile(r"^(hour|honest|honou?r|heir|herb(?!al))", re.I)
# Letters whose name starts with a vowel sound (for initialisms: "an SLA", "a UUID").
_VOWEL_LETTERS = set("AEFHILMNORSX")
_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several", "many",
                 "these", "those", "both")
_SINGULAR_DETERMINERS = ("a", "an", "one", "each", "every", "this", "that", "another")
# Abbreviations people say either as letters or as a word ("a URL"/"an URL", "an SQL"/"a SQL"):
# either article is accepted before them, as before any all-capital initialism ("a SIEM").
_EITHER_ARTICLE = frozenset({"url", "urls", "uri", "uris", "sql", "http", "https", "html", "xml", "ssh",
                             "ssl", "smtp", "faq", "sms"})
# Words after "a" that show it is a letter or variable, never an article ("a and b", "a or b").
_NOT_AFTER_ARTICLE = frozenset({"a", "an", "b", "c", "d", "x", "n", "and", "or", "nor", "but", "than"})


def _head(token: str) -> str:
    """The first part of a compound ("URL" of "URL-safe", "TCP" of "TCP/IP")."""
    return re.split(r"[-/]", token, maxsplit=1)[0]


def _initialism(token: str) -> bool:
    head = _head(token)
    return len(head) > 1 and head.isupper() and head.isalpha()


def wants_an(word: str) -> bool:
    """Whether ``word`` takes "an"."""
    token = re.sub(r"^[^A-Za-z0-9]+", "", word)
    if not token:
        return False
    if _initialism(token):
        return token[0] in _VOWEL_LETTERS
    if token[0].isdigit():
        return token.startswith(("8", "11", "18")) and not token.startswith(("800", "80", "81"))
    if _VOWEL_SOUND.match(token):
        return True
    if _CONSONANT_SOUND.match(token):
        return False
    return token[0].lower() in "aeiou"


def article(word: str, *, capital: bool = False) -> str:
    """The indefinite article for ``word`` ("a"/"an", or "A"/"An" with ``capital``)."""
    art = "an" if wants_an(word) else "a"
    return art.capitalize() if capital else art


_ARTICLE = re.compile(r"(?<![\w$.'\"`/-])(a|an|A|An)[ \t]+(?=([A-Za-z0-9][\w-]*))")


def fix_articles(text: str) -> str:
    """``text`` (prose) with every indefinite article fitted to the word after it."""
    def repl(m: re.Match[str]) -> str:
        art, word = m.group(1), m.group(2)
        if word.lower() in _NOT_AFTER_ARTICLE or "_" in word:
            return m.group(0)
        return article(word, capital=art[0].isupper()) + m.group(0)[len(art):]

    return _ARTICLE.sub(repl, text)


def accepted_articles(word: str) -> frozenset[str]:
    """The lowercase articles that may stand before ``word``: both before an initialism or a
    word of ``_EITHER_ARTICLE``, else the one its sound asks for."""
    token = re.sub(r"^[^A-Za-z0-9]+", "", word)
    if _initialism(token) or _head(token).lower() in _EITHER_ARTICLE:
        return frozenset({"a", "an"})
    return frozenset({article(word)})


def grammar_problems(text: str, nouns: Iterable[tuple[str, str]] = ()) -> list[str]:
    """Article and agreement mistakes in ``text`` (prose only), each with a short reason.

    ``nouns``: (singular, plural) pairs in human spelling ("care order", "care orders")
    whose number a determiner or count must agree with.
    """
    problems: list[str] = []
    for m in _ARTICLE.finditer(text):
        art, word = m.group(1), m.group(2)
        if word.lower() in _NOT_AFTER_ARTICLE or "_" in word:
            continue  # a variable or a list item letter, not an article
        if art.lower() in accepted_articles(word):
            continue
        right = article(word, capital=art[0].isupper())
        if right != art:
            problems.append(f"'{art} {word}' should be '{right} {word}'")
    for singular, plural in nouns:
        if not singular or singular == plural:
            continue
        for m in re.finditer(rf"\b({'|'.join(_SINGULAR_DETERMINERS)})[ \t]+{re.escape(plural)}\b", text, re.I):
            problems.append(f"'{m.group(0)}': a single determiner before the plural {plural!r}")
        pattern = rf"\b({'|'.join(_NUMBER_WORDS)}|[2-9]|\d{{2,}})[ \t]+{re.escape(singular)}(?=[ \t]*(?:[.,;:!?)]|$|[ \t](?:are|were|have)\b))"
        for m in re.finditer(pattern, text, re.I | re.M):
            problems.append(f"'{m.group(0)}': a count of several before the singular {singular!r}")
    return problems


# Comments and string literals (strings are matched so that "//" inside one is not a comment).
_JS_TOKENS = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`(?:[^`\\]|\\.)*`")
# Python tokens after which a string is a statement of its own: a docstring.
_STATEMENT_START = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)


def prose_of(path: str, text: str) -> str:
    """The English of one file: all of a Markdown/text file; the comments and docstrings of
    Python; the comments of JavaScript; nothing else.  String literals are left out: in
    source and tests they are as often data ("a and b", "a end") as sentences."""
    if path.endswith((".md", ".txt", ".rst")) or "." not in path.rsplit("/", 1)[-1]:
        return _strip_code_blocks(text)
    if path.endswith(".py"):
        parts: list[str] = []
        previous, depth = tokenize.ENCODING, 0
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type == tokenize.COMMENT:
                    parts.append(tok.string.lstrip("#"))
                    continue
                if tok.type == tokenize.NL:
                    continue
                if tok.type == tokenize.STRING and not depth and previous in _STATEMENT_START:
                    parts.append(_unquote(tok.string))
                elif tok.type == tokenize.OP:
                    depth += (tok.string in "([{") - (tok.string in ")]}")
                previous = tok.type
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return ""
        return "\n".join(parts)
    if path.endswith((".js", ".mjs", ".cjs", ".ts")):
        found = []
        for m in _JS_TOKENS.finditer(text):
            chunk = m.group(0)
            if chunk.startswith("/"):
                found.append(chunk.strip("/*"))
        return "\n".join(found)
    return ""


def _unquote(literal: str) -> str:
    body = re.sub(r"^[rbuRBUfF]*", "", literal)
    for quote in ('"""', "'''", '"', "'"):
        if body.startswith(quote) and body.endswith(quote) and len(body) >= 2 * len(quote):
            inner = body[len(quote):-len(quote)]
            return re.sub(r"\{[^}]*\}", "\u2026", inner) if "f" in literal[:2].lower() else inner
    return body


def _strip_code_blocks(text: str) -> str:
    text = re.sub(r"```[\s\S]*?```", "", text)
    return re.sub(r"`([^`\n]*)`", r"\1", text)
