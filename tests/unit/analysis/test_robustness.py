"""Mangled solutions are analysed or reported, never raised (a batch must not crash)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from detection.analysis import AnalysedSolution, ParseFailure, analyse_source

from .corpus_loader import load_groups

VARIANTS = [v for group in load_groups().values() for v in group]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(VARIANTS), st.sets(st.integers(0, 40), max_size=4), st.integers(0, 400), st.integers(0, 400))
def test_mangled_corpus_sources_never_raise(variant, dropped, i, j):
    lines = [line for k, line in enumerate(variant.source.splitlines()) if k not in dropped]
    tokens = "\n".join(lines).split(" ")
    if tokens:
        i, j = i % len(tokens), j % len(tokens)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    result = analyse_source("mangled", " ".join(tokens), variant.language)
    assert isinstance(result, (AnalysedSolution, ParseFailure))
    if isinstance(result, ParseFailure):
        assert result.line >= 1 and result.column >= 1
