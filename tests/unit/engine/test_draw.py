from __future__ import annotations

import random
import secrets

import pytest

from challenges.engine import Draw, DrawError, draw
from challenges.engine.model import TemplateError, get_template, registry
from tests.unit.engine.lexicon_fixture import LEXICONS


def test_draw_round_trips_through_json():
    d = draw("paged-listing-cache", "python", random.Random(3), lexicons=LEXICONS)
    again = Draw.from_json(d.to_json())
    assert again == d
    assert again.to_json() == d.to_json()


def test_draw_records_every_slot():
    d = draw("paged-listing-cache", "python", random.Random(4), lexicons=LEXICONS)
    spec = get_template("paged-listing-cache").spec
    assert d.structure in spec.structures and d.style in spec.styles and d.bug_level in spec.bug_levels
    assert set(d.slots) == {slot.name for slot in spec.variable_slots}
    assert d.lexicon_key in {lex["key"] for lex in LEXICONS}
    assert d.project_name in next(lex for lex in LEXICONS if lex["key"] == d.lexicon_key)["project_names"]
    assert set(d.red_herrings) <= set(spec.red_herrings) and d.red_herrings
    assert d.history_seed >= 0 and d.time_base > 0


def test_canary_count_follows_the_tier_rule():
    spec = get_template("paged-listing-cache").spec
    low, high = spec.canary_range()
    assert (low, high) == (2, 3)
    counts = {len(draw("paged-listing-cache", "python", random.Random(s), lexicons=LEXICONS).canaries)
              for s in range(40)}
    assert counts <= {2, 3} and len(counts) == 2


def test_default_rng_is_the_system_csprng(monkeypatch):
    used = []
    real = secrets.SystemRandom

    class Spy(real):
        def choice(self, seq):
            used.append(True)
            return super().choice(seq)

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    draw("paged-listing-cache", "python", lexicons=LEXICONS)
    assert used


def test_unsupported_language_and_unknown_template_are_named_errors():
    with pytest.raises(DrawError) as exc:
        draw("paged-listing-cache", "cobol", random.Random(1), lexicons=LEXICONS)
    assert exc.value.code == "language_unsupported" and exc.value.field == "language"
    with pytest.raises(TemplateError) as exc:
        draw("no-such-template", "python", random.Random(1), lexicons=LEXICONS)
    assert exc.value.code == "template_unknown"


def test_lexicons_the_template_refuses_are_never_drawn():
    clash = dict(LEXICONS[0], key="clashing", entity={"singular": "page", "plural": "pages"})
    keys = {draw("paged-listing-cache", "python", random.Random(s), lexicons=[clash, LEXICONS[1]]).lexicon_key
            for s in range(20)}
    assert keys == {LEXICONS[1]["key"]}
    with pytest.raises(DrawError):
        draw("paged-listing-cache", "python", random.Random(1), lexicons=[clash])


def test_draw_invalid_json_is_a_named_error():
    with pytest.raises(DrawError) as exc:
        Draw.from_dict({"template": "x"})
    assert exc.value.code == "draw_invalid"


def test_registry_holds_the_worked_example():
    assert "paged-listing-cache" in registry()


def test_project_names_that_shadow_the_standard_library_are_never_drawn():
    lexicon = dict(LEXICONS[0], project_names=["queue", "json", "coldtrack"])
    names = {draw("paged-listing-cache", "python", random.Random(s), lexicons=[lexicon]).project_name
             for s in range(20)}
    assert names == {"coldtrack"}


def test_no_visible_test_fails_on_the_bug_from_the_silent_tier():
    """From tier 3 the misleading-test herring (a visible test failing because of the bug) is not drawn."""
    high = [draw("paged-listing-cache", "python", random.Random(s), lexicons=LEXICONS) for s in range(60)]
    assert all("misleading-test" not in d.red_herrings for d in high)
    low = [draw("booking-ledger", "python", random.Random(s), lexicons=LEXICONS) for s in range(60)]
    assert any("misleading-test" in d.red_herrings for d in low)
    relaxed = [draw("paged-listing-cache", "python", random.Random(s), lexicons=LEXICONS, silent_visible_tier=6)
               for s in range(60)]
    assert any("misleading-test" in d.red_herrings for d in relaxed)
