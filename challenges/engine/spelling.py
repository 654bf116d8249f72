"""Style-specific spellings of a template's site snippets.

A template module keeps one spelling of each snippet (``NAME``) and, where a code style
needs a different one, a suffixed variant (``NAME_F`` for functional, ``NAME_O`` for
object-oriented, ``NAME_P`` for procedural). ``StyleSpelling`` picks the variant when the
drawn style is the one it is for and falls back to the plain spelling otherwise.
"""

from __future__ import annotations

from types import ModuleType


class StyleSpelling:
    def __init__(self, module: ModuleType, active: bool, *, suffix: str) -> None:
        self._module = module
        self._active = active
        self._suffix = suffix

    def __getattr__(self, name: str) -> str:
        if self._active and hasattr(self._module, name + self._suffix):
            return getattr(self._module, name + self._suffix)
        return getattr(self._module, name)
