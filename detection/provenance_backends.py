"""Web-search backends for provenance (spec 003: "automated web search of solution snippets").

Off by default: the platform ships no backend that reaches the network. An operator who has
a search service registers a :class:`WebSearchBackend` under a name and sets the staff
setting ``detection.provenance.web_backend`` to that name; the batch then asks it for every
solving patch's added code, and its hits are stored beside the local index's matches.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WebHit:
    url: str
    title: str
    excerpt: str
    score: float  # in [0, 1], the backend's confidence that the snippet is on that page

    def as_dict(self) -> dict[str, Any]:
        return {"url": self.url, "title": self.title, "excerpt": self.excerpt[:500], "score": round(self.score, 4)}


class WebSearchBackend(ABC):
    """Find public pages holding a code snippet. Implementations must not raise for a
    snippet they cannot search (return no hits) and must bound their own time."""

    name: str = ""

    @abstractmethod
    def search(self, snippet: str, language: str) -> list[WebHit]:
        """Pages holding ``snippet`` (written in ``language``), best first."""


_REGISTRY: dict[str, type[WebSearchBackend]] = {}


def register(cls: type[WebSearchBackend]) -> type[WebSearchBackend]:
    if not cls.name:
        raise ValueError("a web-search backend needs a name")
    _REGISTRY[cls.name] = cls
    return cls


def registered() -> list[str]:
    return sorted(_REGISTRY)


def web_search(snippet: str, language: str) -> dict[str, Any]:
    """Ask the configured backend, if any: ``{"backend": name | None, "hits": [...]}``."""
    from core.config import config_value

    name = config_value("detection.provenance.web_backend")
    if not name:
        return {"backend": None, "hits": []}
    backend = _REGISTRY.get(name)
    if backend is None:
        return {"backend": name, "hits": [], "error": f"no web-search backend named {name!r} is registered"}
    return {"backend": name, "hits": [hit.as_dict() for hit in backend().search(snippet, language)]}
