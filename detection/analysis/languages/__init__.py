"""Registry of supported languages.

``get_language("python")`` returns the registered :class:`LanguageSpec`;
``language_names()`` lists them. Adding a language is one module with a
``@register`` class; nothing else changes.
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Language, Parser

from ..errors import UnknownLanguageError
from .base import LanguageSpec, Lowerer

_REGISTRY: dict[str, type[LanguageSpec]] = {}


def register(cls: type[LanguageSpec]) -> type[LanguageSpec]:
    _REGISTRY[cls.name] = cls
    return cls


def language_names() -> list[str]:
    return sorted(_REGISTRY)


@cache
def get_language(name: str) -> LanguageSpec:
    try:
        return _REGISTRY[name.lower()]()
    except KeyError:
        raise UnknownLanguageError(
            f"language {name!r} is not supported; choose one of {', '.join(language_names())}",
            field="language",
        ) from None


@cache
def grammar(name: str) -> Language:
    return get_language(name).language()


def parser_for(name: str) -> Parser:
    return Parser(grammar(name))


def lowerer_for(name: str, data: bytes) -> Lowerer:
    """A lowerer for one source text (cheap: the handler table is shared)."""
    return Lowerer(get_language(name), data)


def language_for_extension(ext: str) -> str | None:
    for name, cls in _REGISTRY.items():
        if ext.lower() in cls.extensions:
            return name
    return None



from . import go, java, javascript, python, rust, typescript  # noqa: E402,F401  (registration)

__all__ = [
    "LanguageSpec",
    "get_language",
    "grammar",
    "language_for_extension",
    "language_names",
    "lowerer_for",
    "parser_for",
    "register",
]
