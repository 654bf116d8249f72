"""The packaged lexicon pool: every file valid, canonical and safe in every target language.

The keyword and builtin checks here are deliberately independent of the
validator's own word lists (``keyword``, ``builtins`` and a JavaScript list
kept in this file), so a gap in ``reserved.py`` cannot hide a bad lexicon.
"""

import builtins
import json
import keyword
import re
import sys

import pytest

from challenges.engine.lexicons import (
    DATA_DIR,
    DEFAULT_POLICY,
    NOUN_ROLES,
    LexiconError,
    check_pool,
    get_lexicon,
    load_lexicon_file,
    load_lexicons,
)
from challenges.engine.lexicons.naming import is_plural_of, to_style
from challenges.engine.lexicons.validate import TOP_LEVEL_KEYS

JS_RESERVED = frozenset(
    "break case catch class const continue debugger default delete do else enum export extends "
    "false finally for function if implements import in instanceof interface let new null package "
    "private protected public return static super switch this throw true try typeof var void while "
    "with yield await async of arguments eval undefined NaN Infinity globalThis Object Function "
    "Array Number String Boolean Symbol BigInt Math JSON Date RegExp Map Set WeakMap WeakSet Promise "
    "Proxy Reflect Error TypeError RangeError SyntaxError ReferenceError EvalError URIError Intl "
    "require module exports process console Buffer global setTimeout setInterval fetch URL "
    "constructor prototype toString valueOf hasOwnProperty length name".split()
)
PY_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {"type"} | frozenset(dir(builtins))
JS_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
NODE_MODULES = frozenset(
    "assert buffer child_process cluster crypto dgram dns events fs http https net os path "
    "querystring readline stream timers tls url util vm zlib".split()
)
PASCAL = re.compile(r"(?:[A-Z][a-z0-9]+)+")

FILES = sorted(DATA_DIR.glob("*.json"))
POOL = load_lexicons()


def _identifier_values(lex):
    return list(lex.identifiers().values()) + list(lex.project_names)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_data_file_validates_and_is_canonical(path):
    lex = load_lexicon_file(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert list(raw) == list(TOP_LEVEL_KEYS)
    assert lex.to_dict() == raw


def test_pool_loads_every_file_sorted_and_cached():
    assert [lex.key for lex in POOL] == [p.stem for p in FILES]
    assert load_lexicons() is POOL
    assert get_lexicon(FILES[0].stem) is POOL[0]


def test_pool_holds_at_least_fifty_lexicons():
    # Spec 003 strategy 3: names are drawn from a rotating pool of 50+ lexicons.
    assert DEFAULT_POLICY.min_lexicons == 50
    assert len(POOL) >= 50
    check_pool(POOL)


def test_unknown_key_raises_unknown_lexicon():
    with pytest.raises(LexiconError) as caught:
        get_lexicon("no-such-domain")
    assert (caught.value.code, caught.value.key) == ("unknown_lexicon", "no-such-domain")


def test_keys_domains_entities_and_project_names_are_unique_across_lexicons():
    for attribute in ("key", "domain"):
        values = [getattr(lex, attribute) for lex in POOL]
        assert len(values) == len(set(values)), attribute
    entities = [lex.entity.singular for lex in POOL]
    assert len(entities) == len(set(entities))
    projects = [p for lex in POOL for p in lex.project_names]
    assert len(projects) == len(set(projects))


@pytest.mark.parametrize("lex", POOL, ids=[lex.key for lex in POOL])
def test_identifiers_are_valid_and_unreserved_in_python_and_javascript(lex):
    for value in _identifier_values(lex):
        for style in ("snake", "camel", "pascal", "upper"):
            form = to_style(value, style)
            assert form.isidentifier() and JS_IDENTIFIER.fullmatch(form), form
            assert form not in PY_RESERVED, f"{lex.key}: {form} is a Python keyword or builtin"
            assert form not in JS_RESERVED, f"{lex.key}: {form} is a JavaScript reserved word or global"
        assert value not in sys.stdlib_module_names and value not in NODE_MODULES, (
            f"{lex.key}: {value} would shadow a standard module"
        )
    for error in vars(lex.errors).values():
        assert PASCAL.fullmatch(error), error
        assert error not in PY_RESERVED and error not in JS_RESERVED, error


@pytest.mark.parametrize("lex", POOL, ids=[lex.key for lex in POOL])
def test_roles_are_distinct_plurals_correct_and_lists_bounded(lex):
    compact = [to_style(v, "snake").replace("_", "") for v in lex.identifiers().values()]
    assert len(compact) == len(set(compact)), lex.key
    for role in NOUN_ROLES:
        noun = getattr(lex, role)
        assert noun.plural != noun.singular
        assert is_plural_of(noun.singular, noun.plural), (role, noun)
    assert 4 <= len(lex.statuses) <= 6 and len(set(lex.statuses)) == len(lex.statuses)
    assert 3 <= len(lex.categories) <= 5 and len(set(lex.categories)) == len(lex.categories)
    assert len(lex.project_names) >= 3
    assert len(set(vars(lex.errors).values())) == 5

