"""English the generated projects write: articles, plural agreement, and where prose is.

``article(word)`` picks "a" or "an" by sound, not by letter ("a unit", "an hour",
"an SLA"); the renderer uses it for an article written just before a placeholder, and
the realism gate uses ``grammar_problems`` to refuse prose that still gets it wrong
or puts a count before the wrong number ("one records", "three record.").
``prose_of`` extracts the prose of a file (Markdown as is; comments, docstrings and
string literals of Python and JavaScript) so code is never read as English.
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


def wants_an(word: str) -> bool:
    """Whether ``word`` takes "an"."""
    token = re.sub(r"^[^A-Za-z0-9]+", "", word)
    if not token:
        return False
    if len(token) > 1 and token.isupper() and token.isalpha():
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
        if word.lower() in ("a", "an", "b", "c", "d", "x", "n") or "_" in word:
            return m.group(0)
        return article(word, capital=art[0].isupper()) + m.group(0)[len(art):]

    return _ARTICLE.sub(repl, text)


def grammar_problems(text: str, nouns: Iterable[tuple[str, str]] = ()) -> list[str]:
    """Article and agreement mistakes in ``text`` (prose only), each with a short reason.

    ``nouns``: (singular, plural) pairs in human spelling ("care order", "care orders")
    whose number a determiner or count must agree with.
    """
    problems: list[str] = []
    for m in _ARTICLE.finditer(text):
        art, word = m.group(1), m.group(2)
        if word.lower() in ("a", "an", "b", "c", "d", "x", "n") or "_" in word:
            continue  # a variable or a list item letter, not an article
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


_JS_PROSE = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`(?:[^`\\]|\\.)*`")


def prose_of(path: str, text: str) -> str:
    """The English of one file: all of a Markdown/text file; the comments, docstrings and
    string literals of Python and JavaScript (template-literal code elided); nothing else."""
    if path.endswith((".md", ".txt", ".rst")) or "." not in path.rsplit("/", 1)[-1]:
        return _strip_code_blocks(text)
    if path.endswith(".py"):
        parts: list[str] = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type == tokenize.COMMENT:
                    parts.append(tok.string.lstrip("#"))
                elif tok.type == tokenize.STRING:
                    parts.append(_unquote(tok.string))
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return ""
        return "\n".join(parts)
    if path.endswith((".js", ".mjs", ".cjs", ".ts")):
        found = []
        for m in _JS_PROSE.finditer(text):
            chunk = m.group(0)
            if chunk.startswith("`"):
                chunk = re.sub(r"\$\{[^}]*\}", "\u2026", chunk)
            found.append(chunk.strip("/*'\"`"))
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
