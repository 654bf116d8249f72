"""Small display helpers shared by the admin modules."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.text import Truncator


def short_text(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a list column, the whole of it in the tooltip."""
    if not text:
        return "—"
    if len(text) <= limit:
        return text
    return format_html('<span title="{}">{}</span>', text, Truncator(text).chars(limit))
