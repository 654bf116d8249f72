"""Top-level engine API: ``draw`` -> ``generate`` -> ``validate``.

These are the entry points the Django layer (generation service, rebuild and
export commands) calls; none of them touches the database.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from challenges.engine.draw import Draw, make_draw
from challenges.engine.errors import DrawError
from challenges.engine.gates import GateConfig, GateReport, validate
from challenges.engine.generate import generate
from challenges.engine.instance import GeneratedInstance
from challenges.engine.model import Template, get_template
from challenges.engine.naming import LexiconView


def available_lexicons() -> tuple[Any, ...]:
    """Every lexicon of the lexicon package (validated and cached there)."""
    from challenges.engine.lexicons import load_lexicons

    return tuple(load_lexicons())


def draw(
    template: str | Template,
    language: str,
    rng: random.Random | None = None,
    *,
    lexicons: Sequence[Any] | None = None,
    avoid_surnames: Collection[str] = (),
    silent_visible_tier: int | None = None,
) -> Draw:
    """Draw every slot of ``template`` for ``language`` with a CSPRNG (``rng`` for tests).

    Lexicons the template cannot use cleanly (``Template.accepts``) are skipped;
    ``avoid_surnames`` are surnames other projects use (never drawn again);
    ``silent_visible_tier`` is the staff setting of the same name (see ``make_draw``).
    """
    tpl = get_template(template) if isinstance(template, str) else template
    pool = list(lexicons) if lexicons is not None else list(available_lexicons())
    usable = [lex for lex in pool if tpl.accepts(LexiconView.of(lex))]
    if not usable:
        raise DrawError("lexicons_unusable", f"no lexicon suits {tpl.spec.slug}", field="lexicons")
    if silent_visible_tier is None:
        return make_draw(tpl.spec, language, usable, rng, avoid_surnames=avoid_surnames)
    return make_draw(tpl.spec, language, usable, rng, avoid_surnames=avoid_surnames,
                     silent_visible_tier=silent_visible_tier)


def rebuild(draw_json: str, *, lexicon: Any = None) -> GeneratedInstance:
    """Regenerate an instance from its sealed draw (byte-identical to the original)."""
    return generate(Draw.from_json(draw_json), lexicon=lexicon)


__all__ = ["GateConfig", "GateReport", "available_lexicons", "draw", "generate", "rebuild", "validate"]
