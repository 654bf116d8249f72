"""Shared engine fixtures: instances are generated from the private test lexicons so
engine tests do not depend on the lexicon package's data."""

from __future__ import annotations

import random
from functools import cache

import pytest

from challenges.engine import GeneratedInstance, draw, generate
from tests.unit.engine.lexicon_fixture import LEXICONS

BY_KEY = {lex["key"]: lex for lex in LEXICONS}


@cache
def make_instance(template: str, language: str, seed: int) -> GeneratedInstance:
    d = draw(template, language, random.Random(seed), lexicons=LEXICONS)
    return generate(d, lexicon=BY_KEY[d.lexicon_key])


@pytest.fixture(scope="session")
def py_instance() -> GeneratedInstance:
    return make_instance("paged-listing-cache", "python", 1)
