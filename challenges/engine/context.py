"""What a template's ``build`` receives: the draw, the lexicon and naming helpers."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from challenges.engine.draw import Draw
from challenges.engine.naming import LexiconView, Namer, human


@dataclass
class BuildContext:
    """Inputs of ``Template.build``.

    ``rng`` is a PRNG seeded from the draw's recorded seed: use it for anything
    the template still wants to vary (sample values, ordering) so rebuilding from
    the draw reproduces the same bytes.  Never use ``random`` or the clock.
    """

    draw: Draw
    lex: LexiconView
    namer: Namer
    rng: random.Random = field(repr=False, default_factory=random.Random)

    @property
    def language(self) -> str:
        return self.draw.language

    @property
    def style(self) -> str:
        return self.draw.style

    @property
    def level(self) -> str:
        return self.draw.bug_level

    @property
    def project(self) -> str:
        return self.draw.project_name

    def say(self, role: str, plural: bool = False) -> str:
        """A lexicon noun as prose ("shipping line"), for statements and documentation."""
        return human(self.lex.noun(role, plural))

    def slot(self, name: str) -> Any:
        return self.draw.slots[name]

    def has_herring(self, kind: str) -> bool:
        return kind in self.draw.red_herrings

    def has_canary(self, name: str) -> bool:
        return name in self.draw.canaries

    @property
    def py(self) -> bool:
        return self.draw.language == "python"

    @property
    def js(self) -> bool:
        return self.draw.language == "javascript"
