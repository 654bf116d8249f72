"""Task statements: form and voice drawn per instance, precision by tier, deterministic."""

from __future__ import annotations

import pytest

from challenges.engine.ir import Symptom
from challenges.engine.statement import FORMS, compose, precision_for

SYMPTOM = Symptom(
    title="Back-to-back bookings are refused",
    action="book a room that starts when the previous booking ends",
    observed="the second booking is refused as a conflict",
    expected="A booking that begins where another ends should be accepted.",
    steps=("Book room 4 from 10 to 12", "Book room 4 from 12 to 14", "The second request fails"),
    example="every second booking in a row fails",
    impact="we lose bookings every day",
    vague="some bookings fail although the room looks free",
    guess="a caching problem",
    log="booking rejected: room already taken",
    intermittent=True,
)


def _compose(tier: int, seed: int = 7):
    return compose(SYMPTOM, tier=tier, project="roomly", seed=seed, time_base=1_700_000_000)


def test_same_inputs_same_bytes():
    assert _compose(3).text.encode() == _compose(3).text.encode()
    assert {_compose(3, seed).text for seed in range(20)} != {_compose(3).text}


@pytest.mark.parametrize("tier", [1, 2])
def test_low_tiers_give_a_precise_reproduction(tier):
    for seed in range(10):
        statement = _compose(tier, seed)
        assert statement.precision == "reproduction"
        assert "Book room 4 from 12 to 14" in statement.text
        assert "should be accepted" in statement.text
        assert not statement.intermittent and not statement.guess


def test_tier_3_describes_behaviour_without_steps():
    statement = _compose(3)
    assert statement.precision == "behaviour"
    assert "the second booking is refused as a conflict" in statement.text
    assert "Book room 4" not in statement.text


def test_tier_5_gives_the_symptom_only_sometimes_with_a_wrong_guess():
    statements = [_compose(5, seed) for seed in range(40)]
    assert {s.precision for s in statements} == {"symptom-only"}
    for s in statements:
        assert "Book room 4" not in s.text and "should be accepted" not in s.text
        assert "some bookings fail although the room looks free" in s.text.lower()
        assert "starts when the previous booking ends" not in s.text  # the trigger stays hidden
        assert s.intermittent
    guesses = [s for s in statements if s.guess]
    assert guesses and len(guesses) < len(statements)
    assert all("a caching problem" in s.text for s in guesses)


def test_every_form_is_drawn_and_recorded():
    forms = {_compose(2, seed).form for seed in range(80)}
    assert forms == set(FORMS)
    knobs = _compose(4).knobs()
    assert set(knobs) == {"statement_form", "statement_voice", "statement_precision", "statement_intermittent",
                          "statement_misleading_guess"}


def test_precision_is_clamped_to_the_tier_range():
    assert precision_for(0) == "reproduction" and precision_for(9) == "symptom-only"


def test_articles_fit_the_words_filled_in_and_log_excerpts_stay_verbatim():
    symptom = Symptom(
        title="Accessions are refused at the window edge",
        action="send a accession exactly one window after the oldest",
        observed="it is refused", expected="It should be accepted.",
        steps=("Send a accession",), log="rejected a accession: quota exceeded",
    )
    texts = [compose(symptom, tier=1, project="germline", seed=seed, time_base=1_700_000_000).text
             for seed in range(40)]
    prose = ["```".join(t.split("```")[0::2]) for t in texts]
    assert not any("a accession" in p for p in prose)
    assert any("an accession" in p for p in prose)
    assert all("a accession: quota" in t for t in texts if "```" in t and "quota exceeded" in t)
