"""Small text helpers used across the project.

``slugify`` makes URL- and file-name-safe slugs (accents are folded to ASCII,
everything else becomes a separator); ``TextFormatter`` wraps and truncates on
word boundaries at a configured width; ``human_size`` formats byte counts.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Mapping

_NON_WORD = re.compile(r"[^a-z0-9]+")
SIZE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def slugify(text: str, separator: str = "-", max_length: int = 60) -> str:
    """``"Crème Brûlée Recipes!"`` -> ``"creme-brulee-recipes"``; cut on a word boundary."""
    if separator not in ("-", "_", "."):
        raise ValueError("separator must be '-', '_' or '.'")
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    slug = _NON_WORD.sub(separator, folded).strip(separator)
    if len(slug) > max_length:
        cut = slug[: max_length + 1]
        boundary = cut.rfind(separator)
        slug = cut[:boundary] if boundary > 0 else slug[:max_length]
    return slug


def human_size(count: int, digits: int = 1) -> str:
    """Bytes in binary units: ``1536`` -> ``"1.5 KiB"``; plain bytes stay whole."""
    if count < 0:
        raise ValueError("a size cannot be negative")
    value = float(count)
    for unit in SIZE_UNITS:
        if value < 1024 or unit == SIZE_UNITS[-1]:
            if unit == "B":
                return f"{count} B"
            return f"{value:.{digits}f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


class TextFormatter:
    """Wrapping, truncation and slugs with one project-wide configuration."""

    def __init__(self, width: int = 72, separator: str = "-", max_slug_length: int = 60) -> None:
        if width < 10:
            raise ValueError("width must be at least 10")
        if separator not in ("-", "_", "."):
            raise ValueError("separator must be '-', '_' or '.'")
        self.width = width
        self.separator = separator
        self.max_slug_length = max_slug_length

    def slug(self, text: str) -> str:
        return slugify(text, self.separator, self.max_slug_length)

    def unique_slug(self, text: str, taken: set[str] | frozenset[str]) -> str:
        """A slug of ``text`` not in ``taken``, numbered ``-2``, ``-3``... when needed."""
        base = self.slug(text) or "item"
        candidate, number = base, 1
        while candidate in taken:
            number += 1
            suffix = f"{self.separator}{number}"
            candidate = base[: self.max_slug_length - len(suffix)].rstrip(self.separator) + suffix
        return candidate

    def wrap(self, text: str, indent: str = "") -> str:
        """Each paragraph (blank-line separated) wrapped to the width, with ``indent``."""
        paragraphs = [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
        wrapped = [textwrap.fill(" ".join(p.split()), width=self.width, initial_indent=indent,
                                 subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
                   for p in paragraphs]
        return "\n\n".join(wrapped)

    def truncate(self, text: str, limit: int | None = None, ellipsis: str = "...") -> str:
        """``text`` cut to at most ``limit`` characters on a word boundary, with ``ellipsis``."""
        limit = self.width if limit is None else limit
        flat = " ".join(text.split())
        if len(flat) <= limit:
            return flat
        room = limit - len(ellipsis)
        if room <= 0:
            return ellipsis[:limit]
        cut = flat[: room + 1]
        space = cut.rfind(" ")
        return (cut[:space] if space > 0 else flat[:room]).rstrip(" ,;:") + ellipsis


def text_formatter_from_settings(settings: Mapping[str, object]) -> TextFormatter:
    """A formatter configured from the ``textfmt`` section of ``settings``."""
    section = settings.get("textfmt", {}) or {}
    return TextFormatter(
        width=int(section.get("width", 72)),
        separator=str(section.get("separator", "-")),
        max_slug_length=int(section.get("max_slug_length", 60)),
    )
