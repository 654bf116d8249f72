"""Placeholder rendering with span tracking (syntax documented in ``ir.py``).

``render`` substitutes sites first (their snippets may use ``{{name}}``), then
names, then strips the optional ``{{[}}``/``{{]}}`` region markers.  Sites listed
in ``mark`` and the region get their character spans in the final text reported,
which is how the engine records gold regions and canary locations without ever
putting a marker into emitted code.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from challenges.engine.errors import TemplateError
from challenges.engine.prose import article

_SITE = re.compile(r"\{\{!([A-Za-z_][\w.-]*)\}\}")
_NAME = re.compile(r"\{\{([A-Za-z_][\w.]*)\}\}")
# An article ending the text before a placeholder (the character before it is checked apart).
_ARTICLE_BEFORE = re.compile(r"\b([Aa]n?)([ \t]+)$")
_IDENT_CHAR = re.compile(r"[\w$.]")
_REGION = re.compile(r"\{\{([\[\]])\}\}")
_OPEN, _CLOSE, _RSTART, _REND = "\ue000", "\ue001", "\ue002", "\ue003"
_MARKERS = re.compile("[\ue000-\ue003]")
# Stands for a literal "{{" in module text that is source, not template: a JSDoc object type
# such as ``@param {{limit?: number}} options`` must reach the project as written.
LITERAL_BRACES = "\ue004"


def literal(text: str) -> str:
    """``text`` with every "{{" kept from the placeholder language (restored by ``render``)."""
    return text.replace("{{", LITERAL_BRACES)


@dataclass(frozen=True)
class Rendered:
    text: str
    spans: dict[str, tuple[int, int]]
    region: tuple[int, int] | None
    # Every marked region in order (a module may hold one per fault); ``region`` is the last.
    regions: tuple[tuple[int, int], ...] = ()
    # Every marked occurrence in order (``spans`` keeps the last one of a site used twice).
    occurrences: tuple[tuple[str, tuple[int, int]], ...] = ()


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int, str, str]:
    line_start = text.rfind("\n", 0, start) + 1
    nl = text.find("\n", end)
    line_end = len(text) if nl < 0 else nl + 1
    return line_start, line_end, text[line_start:start], text[end : (nl if nl >= 0 else len(text))]


def _substitute_sites(text: str, snippets: Mapping[str, str], mark: set[str], order: list[str]) -> str:
    out: list[str] = []
    pos = 0
    for m in _SITE.finditer(text):
        name = m.group(1)
        if name not in snippets:
            raise TemplateError("template_site_unknown", f"no snippet for site {name!r}", field="sites")
        snippet = textwrap.dedent(snippets[name]).strip("\n")
        line_start, line_end, prefix, suffix = _line_bounds(text, m.start(), m.end())
        alone = prefix.strip() == "" and suffix.strip() == ""
        if snippet == "" and alone:
            # A removed line between two blank lines would leave a double gap.
            previous_blank = text[:line_start].endswith("\n\n") or line_start == 1
            next_nl = text.find("\n", line_end)
            if previous_blank and next_nl >= 0 and text[line_end:next_nl].strip() == "":
                line_end = next_nl + 1
            out.append(text[pos:line_start])
            if name in mark:
                out.append(_OPEN + _CLOSE)
                order.append(name)
            pos = line_end
            continue
        indent = prefix if prefix.strip() == "" else ""
        lines = snippet.split("\n")
        body = "\n".join([lines[0]] + [(indent + line) if line.strip() else "" for line in lines[1:]])
        out.append(text[pos : m.start()])
        if name in mark:
            out.append(_OPEN + body + _CLOSE)
            order.append(name)
        else:
            out.append(body)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _substitute_names(text: str, names: Mapping[str, str]) -> str:
    """Names in; an article written just before a placeholder ("An {{event_h}}") is made
    to fit the value it now precedes ("A weather report", "an invoice")."""
    out: list[str] = []
    pos = 0
    for m in _NAME.finditer(text):
        key = m.group(1)
        chunk = text[pos:m.start()]
        pos = m.end()
        if key == "imports":
            out += [chunk, m.group(0)]
            continue
        if key not in names:
            raise TemplateError("template_name_unknown", f"no name {key!r}", field="names")
        value = str(names[key])
        tail = chunk[-12:]
        art = _ARTICLE_BEFORE.search(tail) if value[:1].isalnum() else None
        if art is not None:
            at = len(chunk) - len(tail) + art.start(1)
            if at == 0 or not _IDENT_CHAR.match(chunk[at - 1]):
                chunk = chunk[:at] + article(value, capital=art.group(1)[0].isupper()) + art.group(2)
        out += [chunk, value]
    out.append(text[pos:])
    return "".join(out)


def _substitute_region(text: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _REGION.finditer(text):
        marker = _RSTART if m.group(1) == "[" else _REND
        line_start, line_end, prefix, suffix = _line_bounds(text, m.start(), m.end())
        if prefix.strip() == "" and suffix.strip() == "":
            out.append(text[pos:line_start] + marker)
            pos = line_end
        else:
            out.append(text[pos : m.start()] + marker)
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def render(
    text: str,
    names: Mapping[str, str],
    snippets: Mapping[str, str],
    *,
    mark: Iterable[str] = (),
    imports: str | None = None,
) -> Rendered:
    """Render ``text``; ``imports`` replaces ``{{imports}}`` (line removed when empty)."""
    order: list[str] = []
    staged = _substitute_sites(text, snippets, set(mark), order)
    staged = _substitute_names(staged, names)
    if "{{imports}}" in staged:
        if imports:
            staged = staged.replace("{{imports}}", imports.rstrip("\n"))
        else:
            staged = re.sub(r"[ \t]*\{\{imports\}\}[ \t]*\n?", "", staged)
    staged = _substitute_region(staged)
    leftover = re.search(r"\{\{[^}]*\}\}", staged)
    if leftover:
        raise TemplateError("template_placeholder", f"unresolved placeholder {leftover.group(0)}", field="text")
    staged = staged.replace(LITERAL_BRACES, "{{")
    out: list[str] = []
    spans: dict[str, tuple[int, int]] = {}
    occurrences: list[tuple[str, tuple[int, int]]] = []
    region_start: int | None = None
    region: tuple[int, int] | None = None
    regions: list[tuple[int, int]] = []
    opened: list[tuple[str, int]] = []
    pos = 0
    length = 0
    names_iter = iter(order)
    for m in _MARKERS.finditer(staged):
        chunk = staged[pos : m.start()]
        out.append(chunk)
        length += len(chunk)
        pos = m.end()
        ch = m.group(0)
        if ch == _OPEN:
            opened.append((next(names_iter), length))
        elif ch == _CLOSE:
            site, start = opened.pop()
            spans[site] = (start, length)
            occurrences.append((site, (start, length)))
        elif ch == _RSTART:
            region_start = length
        elif region_start is not None:
            region = (region_start, length)
            regions.append(region)
    out.append(staged[pos:])
    return Rendered("".join(out), spans, region, tuple(regions), tuple(occurrences))


def line_span(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """1-based (first_line, last_line) covering the character span (an empty span
    maps to the line where it sits)."""
    start, end = span
    first = text.count("\n", 0, start) + 1
    last = text.count("\n", 0, max(start, end - 1)) + 1 if end > start else first
    return first, last


def expand_to_lines(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """Grow a character span to whole lines (without the final newline)."""
    start, end = span
    line_start = text.rfind("\n", 0, start) + 1
    nl = text.find("\n", max(end - 1, start)) if end > start else text.find("\n", start)
    line_end = len(text) if nl < 0 else nl
    return line_start, line_end
