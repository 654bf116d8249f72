"""Case styles and English plurals for lexicon identifiers.

A :class:`Name` is a sequence of lower-case words; it renders itself in every
style a code emitter needs::

    >>> n = Name.of("pallet_count")
    >>> n.snake, n.camel, n.pascal, n.upper, n.kebab, n.text
    ('pallet_count', 'palletCount', 'PalletCount', 'PALLET_COUNT', 'pallet-count', 'pallet count')
    >>> (Name.of("book") + Name.of("dock")).camel
    'bookDock'
    >>> (Name.of("dock") + "service").pascal
    'DockService'
    >>> to_style("DockCapacityExceeded", "snake")
    'dock_capacity_exceeded'

``split_words`` accepts snake, kebab, camel, Pascal, upper snake and
space-separated text. Conversion is lossless for lexicon values (including
PascalCase error names) because every lexicon word is two or more letters
(``[a-z]{2,}``): a capital always begins a new word and an all-capital chunk
is one word. Names composed with literal words containing digits also round
trip as long as each word starts with two letters (``"co2_level"``). Arbitrary text is split on a best-effort basis
(``"HTTPServer"`` -> ``("http", "server")``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STYLES: tuple[str, ...] = ("snake", "camel", "pascal", "upper", "kebab", "text", "title")

_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_NO_LOWER = re.compile(r"[^a-z]+")
_SEPARATORS = re.compile(r"[\s_\-]+")


class StyleError(ValueError):
    """Raised for an unknown style name or text that holds no words."""


def split_words(text: str) -> tuple[str, ...]:
    """Split an identifier or phrase into lower-case words.

    ``"palletCount"``, ``"PalletCount"``, ``"pallet_count"``, ``"pallet-count"``
    and ``"pallet count"`` all give ``("pallet", "count")``.
    """
    words: list[str] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if _NO_LOWER.fullmatch(chunk) and chunk[:1].isalpha():
            # An upper-snake chunk such as "CO2" or "T14" is one word.
            words.append(chunk.lower())
        else:
            words.extend(match.lower() for match in _WORD.findall(chunk))
    if not words:
        raise StyleError(f"no words in {text!r}")
    return tuple(words)


def render(words: tuple[str, ...], style: str) -> str:
    """Render words in one of :data:`STYLES`."""
    if style == "snake":
        return "_".join(words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    if style == "upper":
        return "_".join(words).upper()
    if style == "kebab":
        return "-".join(words)
    if style == "text":
        return " ".join(words)
    if style == "title":
        return " ".join(w.capitalize() for w in words)
    raise StyleError(f"unknown style {style!r}; expected one of {', '.join(STYLES)}")


def to_style(text: str, style: str) -> str:
    """Convert any identifier or phrase to ``style`` (see :data:`STYLES`)."""
    return render(split_words(text), style)


def code_forms(text: str) -> tuple[str, ...]:
    """The forms an identifier takes in generated code: snake, camel, Pascal, upper."""
    words = split_words(text)
    return tuple(render(words, style) for style in ("snake", "camel", "pascal", "upper"))


def compact(text: str) -> str:
    """Case- and separator-insensitive form, used to detect colliding names.

    Two names with the same compact form would map to the same file on a
    case-insensitive file system or the same identifier after re-casing.
    """
    return "".join(split_words(text))


@dataclass(frozen=True)
class Name:
    """An identifier as words, rendered on demand in any style.

    ``str(name)`` is the snake form, so a Name drops into f-strings that build
    Python code directly. ``name + other`` concatenates words; ``other`` may be
    a Name or a literal string in any style.
    """

    words: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> Name:
        return cls(split_words(text))

    def style(self, style: str) -> str:
        return render(self.words, style)

    @property
    def snake(self) -> str:
        return render(self.words, "snake")

    @property
    def camel(self) -> str:
        return render(self.words, "camel")

    @property
    def pascal(self) -> str:
        return render(self.words, "pascal")

    @property
    def upper(self) -> str:
        return render(self.words, "upper")

    @property
    def kebab(self) -> str:
        return render(self.words, "kebab")

    @property
    def text(self) -> str:
        return render(self.words, "text")

    @property
    def title(self) -> str:
        return render(self.words, "title")

    def __add__(self, other: Name | str) -> Name:
        tail = other.words if isinstance(other, Name) else split_words(other)
        return Name(self.words + tail)

    def __radd__(self, other: str) -> Name:
        return Name(split_words(other) + self.words)

    def __str__(self) -> str:
        return self.snake


# English plurals. Lexicons store both forms; these rules only check that the
# stored plural is a real plural of the singular's last word.
_IRREGULAR: dict[str, tuple[str, ...]] = {
    "person": ("people", "persons"),
    "child": ("children",),
    "man": ("men",),
    "woman": ("women",),
    "foot": ("feet",),
    "tooth": ("teeth",),
    "goose": ("geese",),
    "mouse": ("mice",),
    "ox": ("oxen",),
    "criterion": ("criteria",),
    "phenomenon": ("phenomena",),
    "medium": ("media", "mediums"),
    "curriculum": ("curricula",),
    "stimulus": ("stimuli",),
    "nucleus": ("nuclei",),
    "fungus": ("fungi", "funguses"),
    "cactus": ("cacti", "cactuses"),
    "appendix": ("appendices", "appendixes"),
    "index": ("indices", "indexes"),
    "vertex": ("vertices", "vertexes"),
    "matrix": ("matrices", "matrixes"),
    "quiz": ("quizzes",),
    "leaf": ("leaves",),
    "shelf": ("shelves",),
    "half": ("halves",),
    "calf": ("calves",),
    "knife": ("knives",),
    "life": ("lives",),
    "wife": ("wives",),
    "wolf": ("wolves",),
    "loaf": ("loaves",),
    "thief": ("thieves",),
    "hoof": ("hooves", "hoofs"),
    "scarf": ("scarves", "scarfs"),
    "wharf": ("wharves", "wharfs"),
    "hero": ("heroes",),
    "potato": ("potatoes",),
    "tomato": ("tomatoes",),
    "echo": ("echoes",),
    "veto": ("vetoes",),
    "torpedo": ("torpedoes",),
    "embargo": ("embargoes",),
    "cargo": ("cargoes", "cargos"),
    "volcano": ("volcanoes", "volcanos"),
    "mosquito": ("mosquitoes",),
}

_INVARIANT = frozenset({"sheep", "deer", "fish", "series", "species", "aircraft", "equipment"})


def plural_candidates(word: str) -> frozenset[str]:
    """Accepted plurals of one lower-case English noun."""
    if word in _IRREGULAR:
        return frozenset(_IRREGULAR[word])
    if word in _INVARIANT:
        return frozenset()
    if word.endswith("sis"):
        return frozenset({word[:-3] + "ses"})
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return frozenset({word + "es"})
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return frozenset({word[:-1] + "ies"})
    return frozenset({word + "s"})


def is_plural_of(singular: str, plural: str) -> bool:
    """True when ``plural`` (snake) pluralises the last word of ``singular``.

    Compound nouns pluralise their head, which in English is the last word:
    ``sample_tube`` -> ``sample_tubes``. Invariant nouns (``series``) are
    rejected because a lexicon needs distinct singular and plural names.
    """
    head_s, *rest_s = reversed(singular.split("_"))
    head_p, *rest_p = reversed(plural.split("_"))
    return rest_s == rest_p and head_p in plural_candidates(head_s)
