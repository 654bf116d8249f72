from __future__ import annotations

import json
from itertools import combinations

import pytest

from challenges.novelty.corpus import CATEGORIES, corpus_set, dump_jsonl, entry_from_dict, load_corpus, parse_jsonl
from challenges.novelty.decision import Verdict, check
from challenges.novelty.errors import CorpusError

from .factories import fp, fp_dict


def line(**overrides):
    data = {
        "key": "two-sum",
        "category": "interview_contest",
        "title": "Two Sum",
        "note": "Find two indices whose values add up to a target.",
        "fingerprint": fp_dict(),
    }
    data.update(overrides)
    return json.dumps(data)


def test_round_trip_parse_dump_parse():
    text = "\n".join([line(), line(key="lru-cache", title="LRU cache")]) + "\n"
    entries = parse_jsonl(text.splitlines())
    assert [e.key for e in entries] == ["two-sum", "lru-cache"]
    dumped = dump_jsonl(entries)
    assert parse_jsonl(dumped.splitlines()) == entries
    assert dump_jsonl(parse_jsonl(dumped.splitlines())) == dumped


def test_blank_lines_are_skipped():
    assert len(parse_jsonl(["", line(), "   "])) == 1


def test_every_bad_line_is_reported_with_its_number_and_nothing_returned():
    lines = [
        line(),
        "{not json",
        line(key="Bad Key"),
        line(key="x", category="blog_post"),
        line(key="y", fingerprint=fp_dict(complexity_tier=9)),
        line(key="z", extra=1),
        line(),  # duplicate of line 1
        line(key="ok-too"),
        line(key="w", note="   "),
    ]
    with pytest.raises(CorpusError) as err:
        parse_jsonl(lines)
    errors = err.value.extra["errors"]
    assert [(e["line"], e["code"]) for e in errors] == [
        (2, "invalid_json"),
        (3, "invalid_key"),
        (4, "invalid_category"),
        (5, "tier_out_of_range"),
        (6, "unknown_field"),
        (7, "duplicate_key"),
        (9, "empty_field"),
    ]
    assert errors[3]["field"] == "fingerprint.complexity_tier"
    assert err.value.code == "invalid_corpus"
    assert "line 5:" in err.value.message and "line 7:" in err.value.message
    assert "already used on line 1" in errors[5]["message"]


def test_entry_from_dict_names_the_field():
    with pytest.raises(CorpusError) as err:
        entry_from_dict({"key": "a"})
    assert err.value.extra["field"] == "category"


# -- the shipped corpus -----------------------------------------------------------------
SHIPPED = load_corpus()


def test_shipped_corpus_is_large_and_covers_all_four_groups():
    assert len(SHIPPED) >= 300
    counts = {c: sum(e.category == c for e in SHIPPED) for c in CATEGORIES}
    assert all(n >= 40 for n in counts.values()), counts


def test_shipped_corpus_is_canonical_jsonl():
    from challenges.novelty.corpus import DEFAULT_CORPUS_PATH

    assert DEFAULT_CORPUS_PATH.read_text(encoding="utf-8") == dump_jsonl(SHIPPED)


def test_shipped_entries_are_distinct_patterns():
    fingerprints = [e.fingerprint for e in SHIPPED]
    assert len(set(fingerprints)) == len(fingerprints)
    titles = [e.title.casefold() for e in SHIPPED]
    assert len(set(titles)) == len(titles)
    bug_types = [(e.fingerprint.bug_type, e.fingerprint.domain) for e in SHIPPED]
    assert len(set(bug_types)) == len(bug_types)


def test_no_two_shipped_entries_are_near_duplicates():
    from challenges.novelty.similarity import similarity

    too_close = [(a.key, b.key) for a, b in combinations(SHIPPED, 2) if similarity(a.fingerprint, b.fingerprint) > 0.90]
    assert too_close == []


def test_a_heartbleed_like_candidate_is_rejected_by_the_corpus():
    entry = next(e for e in SHIPPED if e.key == "heartbleed-heartbeat-over-read")
    candidate = fp(**{**entry.fingerprint.to_dict(), "domain": "fleet-telemetry", "tech_stack": ["rust"]})
    decision = check(candidate, corpus=corpus_set(SHIPPED))
    assert decision.verdict is Verdict.REJECT
    assert decision.nearest.key == "heartbleed-heartbeat-over-read"
