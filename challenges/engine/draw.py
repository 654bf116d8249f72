"""The sealed draw: every random choice of one instance, JSON-serialisable.

``draw()`` makes all choices with ``secrets.SystemRandom`` (or an injected RNG in
tests); everything later in the pipeline is a pure function of the ``Draw``, so
``generate(Draw.from_json(d.to_json()))`` reproduces the instance byte for byte.
"""

from __future__ import annotations

import json
import keyword
import random
import secrets
import sys
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from challenges.engine.errors import DrawError

# 3: library components (metrics, storage, ...) and a bootstrap module composed per draw;
# source modules rewritten per draw (semantics-preserving, outside the sites).
# 2: contributors recorded in the draw, non-linear history, reflogs and sample hooks,
# README/CHANGELOG/commit styles drawn per project.
ENGINE_VERSION = "3"
# History start window (UTC epoch seconds): 2023-01-02 .. 2025-09-01.
TIME_BASE_RANGE: tuple[int, int] = (1672617600, 1756684800)
HERRING_PROBABILITY = 0.6
# How many people a project's history has (inclusive bounds).
PEOPLE_RANGE: tuple[int, int] = (3, 6)
SILENT_VISIBLE_TIER = 3


@dataclass(frozen=True)
class Draw:
    template: str
    language: str
    lexicon_key: str
    project_name: str
    structure: str
    style: str
    bug_level: str
    red_herrings: tuple[str, ...]
    canaries: tuple[str, ...]
    slots: dict[str, Any] = field(default_factory=dict)
    history_seed: int = 0
    time_base: int = TIME_BASE_RANGE[0]
    engine_version: str = ENGINE_VERSION
    template_version: str = "1"
    # The project's contributors: (given name, surname, locale group); the first maintains it.
    people: tuple[tuple[str, str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["red_herrings"] = list(self.red_herrings)
        data["canaries"] = list(self.canaries)
        data["people"] = [list(p) for p in self.people]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Draw:
        try:
            return cls(
                template=str(data["template"]),
                language=str(data["language"]),
                lexicon_key=str(data["lexicon_key"]),
                project_name=str(data["project_name"]),
                structure=str(data["structure"]),
                style=str(data["style"]),
                bug_level=str(data["bug_level"]),
                red_herrings=tuple(data["red_herrings"]),
                canaries=tuple(data["canaries"]),
                slots=dict(data.get("slots", {})),
                history_seed=int(data["history_seed"]),
                time_base=int(data["time_base"]),
                engine_version=str(data.get("engine_version", ENGINE_VERSION)),
                template_version=str(data.get("template_version", "1")),
                people=tuple(tuple(str(x) for x in p) for p in data.get("people", ())),
            )
        except KeyError as exc:
            raise DrawError("draw_invalid", f"draw is missing {exc.args[0]!r}", field=str(exc.args[0])) from exc

    @classmethod
    def from_json(cls, text: str) -> Draw:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DrawError("draw_invalid", f"draw is not JSON: {exc}", field="draw") from exc
        return cls.from_dict(data)


def _usable_project_names(names: Sequence[str]) -> list[str]:
    """Project names that cannot shadow a standard-library module or a keyword.

    The Python package sits at the repository root, so a package called ``queue``
    would break ``import logging`` inside the generated project.
    """
    usable = [n for n in names if n not in sys.stdlib_module_names and not keyword.iskeyword(n)]
    if not usable:
        raise DrawError("lexicon_project_names", f"no usable project name in {list(names)}", field="project_names")
    return usable


def make_draw(
    spec: Any,
    language: str,
    lexicons: Sequence[Any],
    rng: random.Random | None = None,
    *,
    time_base_range: tuple[int, int] = TIME_BASE_RANGE,
    herring_probability: float = HERRING_PROBABILITY,
    avoid_surnames: Collection[str] = (),
    silent_visible_tier: int = SILENT_VISIBLE_TIER,
) -> Draw:
    """Draw every slot of ``spec`` (a TemplateSpec) for ``language``.

    ``avoid_surnames``: surnames other projects already use (the registry of used
    names); the project's people are drawn without them. From ``silent_visible_tier`` on,
    the misleading-test red herring (a visible test failing because of the bug) is not
    offered: there the statement is the only symptom.
    """
    from challenges.engine.history import draw_people
    from challenges.engine.naming import LexiconView

    rnd = rng if rng is not None else secrets.SystemRandom()
    if language not in spec.languages:
        raise DrawError("language_unsupported", f"{spec.slug} does not support {language!r}", field="language")
    if not lexicons:
        raise DrawError("lexicons_empty", "no lexicons to draw from", field="lexicons")
    lex = LexiconView.of(rnd.choice(list(lexicons)))
    low, high = spec.canary_range()
    offered = list(spec.canaries)
    count = min(len(offered), rnd.randint(low, high)) if offered else 0
    canaries = tuple(sorted(rnd.sample(offered, count)))
    offered_herrings = [kind for kind in spec.red_herrings
                        if kind != "misleading-test" or spec.tier < silent_visible_tier]
    herrings = [kind for kind in offered_herrings if rnd.random() < herring_probability]
    if offered_herrings and not herrings:
        herrings = [rnd.choice(offered_herrings)]
    return Draw(
        template=spec.slug,
        language=language,
        lexicon_key=lex.key,
        project_name=rnd.choice(_usable_project_names(lex.project_names)),
        structure=rnd.choice(list(spec.structures)),
        style=rnd.choice(list(spec.styles)),
        bug_level=rnd.choice(list(spec.bug_levels)),
        red_herrings=tuple(sorted(herrings)),
        canaries=canaries,
        slots={slot.name: rnd.choice(list(slot.choices)) for slot in spec.variable_slots},
        history_seed=rnd.getrandbits(63),
        time_base=rnd.randint(*time_base_range),
        template_version=spec.version,
        people=draw_people(rnd, rnd.randint(*PEOPLE_RANGE), avoid=avoid_surnames),
    )
