"""Property tests over the packaged pool: helpers stay lossless, reserved words never get in."""

import builtins
import json
import keyword

import pytest
from hypothesis import given
from hypothesis import strategies as st

from challenges.engine.lexicons import (
    ERROR_ROLES,
    FIELD_ROLES,
    NOUN_ROLES,
    VERB_ROLES,
    LexiconError,
    load_lexicons,
    split_words,
    validate_lexicon,
)
from challenges.engine.lexicons.__main__ import main

POOL = load_lexicons()
ROLE_REFS = (
    [*NOUN_ROLES]
    + [f"{n}.plural" for n in NOUN_ROLES]
    + [f"field.{r}" for r in FIELD_ROLES]
    + [f"verb.{r}" for r in VERB_ROLES]
    + [f"error.{r}" for r in ERROR_ROLES]
)
IDENTIFIER_SLOTS = (
    [("fields", r) for r in FIELD_ROLES]
    + [("verbs", r) for r in VERB_ROLES]
    + [(n, "singular") for n in NOUN_ROLES]
)
RESERVED_SAMPLE = sorted(
    {w for w in set(keyword.kwlist) | set(dir(builtins)) if w.isidentifier()}
    | {"function", "delete", "typeof", "instanceof", "default", "new", "this", "void",
       "require", "module", "exports", "process", "console", "undefined", "prototype"}
)


@given(st.sampled_from(POOL), st.lists(st.sampled_from(ROLE_REFS), min_size=1, max_size=3),
       st.sampled_from(("snake", "camel", "pascal", "upper", "kebab")))
def test_compose_is_the_concatenation_of_role_words(lex, refs, style):
    try:
        composed = lex.compose(*refs, style=style)
    except LexiconError as exc:
        assert exc.code == "reserved_name"
        return
    expected = tuple(w for ref in refs for w in lex.name(ref).words)
    assert split_words(composed) == expected


@given(st.sampled_from(POOL), st.sampled_from(IDENTIFIER_SLOTS), st.sampled_from(RESERVED_SAMPLE))
def test_no_reserved_word_is_accepted_in_any_identifier_slot(lex, slot, word):
    doc = lex.to_dict()
    section, role = slot
    doc[section][role] = word
    with pytest.raises(LexiconError) as caught:
        validate_lexicon(doc)
    assert caught.value.code in {"reserved_word", "bad_identifier"}
    assert caught.value.key.startswith(section)


@pytest.mark.parametrize("lex", POOL, ids=[lex.key for lex in POOL])
def test_every_lexicon_round_trips_through_its_dict(lex):
    assert validate_lexicon(lex.to_dict()) == lex


def test_command_line_check_reports_ok_and_failures(tmp_path, capsys):
    assert main([]) == 0
    assert f"ok   {len(POOL)} lexicons" in capsys.readouterr().out
    broken = tmp_path / "broken-domain.json"
    doc = POOL[0].to_dict()
    doc["key"] = "broken-domain"
    doc["verbs"]["cancel"] = "void"
    broken.write_text(json.dumps(doc), encoding="utf-8")
    assert main([str(broken)]) == 1
    out = capsys.readouterr().out
    assert "reserved_word at verbs.cancel" in out and "broken-domain.json" in out
