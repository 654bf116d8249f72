"""Helpers shared by the analysis tests."""

from __future__ import annotations

import pytest

from detection.analysis import NormaliseOptions, normalise, parse_source
from detection.analysis.parsing import ParseFailure
from detection.analysis.tree import Node


def lowered(source: str, language: str) -> Node:
    tree = parse_source(source, language)
    assert not isinstance(tree, ParseFailure), tree
    return tree


def normal_form(source: str, language: str = "python", **rules: bool) -> str:
    """The normal form as an s-expression, with the given rules switched."""
    return normalise(lowered(source, language), NormaliseOptions(**rules)).sexpr()


@pytest.fixture
def nf():
    return normal_form
