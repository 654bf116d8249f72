from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from challenges.novelty.decision import Verdict, check
from challenges.novelty.errors import WindowIndexError
from challenges.novelty.index import FingerprintIndex

from .factories import fp

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def test_empty_index_has_no_matches():
    assert FingerprintIndex().nearest(fp(), 5) == []


def test_add_query_and_contributions():
    index = FingerprintIndex()
    index.add(1, fp(), T0)
    index.add(2, fp(domain="retail"), T0)
    top = index.nearest(fp(), 1)
    assert [m.key for m in top] == [1]
    assert top[0].score == pytest.approx(1.0)
    assert top[0].contribution("domain").similarity == 1.0
    second = index.nearest(fp(), 2)[1]
    assert second.contribution("domain").contribution == 0.0


def test_duplicate_keys_are_refused_and_nothing_is_added():
    index = FingerprintIndex()
    index.add(5, fp(), T0)
    with pytest.raises(WindowIndexError) as err:
        index.add_many([(6, fp(), T0), (5, fp(), T0)])
    assert err.value.code == "duplicate_key"
    assert len(index) == 1 and 6 not in index
    with pytest.raises(WindowIndexError):
        index.add_many([(7, fp(), T0), (7, fp(), T0)])


def test_removed_key_can_be_added_again():
    index = FingerprintIndex()
    index.add(5, fp(), T0)
    assert index.remove(5) is True
    assert index.remove(5) is False
    index.add(5, fp(domain="retail"), T0)
    assert index.fingerprint(5).domain == "retail"


def test_naive_datetime_and_bad_keys_refused():
    index = FingerprintIndex()
    with pytest.raises(WindowIndexError) as err:
        index.add(1, fp(), datetime(2026, 1, 1))
    assert err.value.code == "naive_datetime"
    with pytest.raises(WindowIndexError) as err:
        index.add("one", fp(), T0)
    assert err.value.code == "invalid_key"
    with pytest.raises(WindowIndexError) as err:
        index.expire(datetime(2026, 1, 1))
    assert err.value.code == "naive_datetime"


def test_expire_keeps_the_90_day_window():
    index = FingerprintIndex()
    index.add(1, fp(), T0)
    index.add(2, fp(), T0 + timedelta(days=10))
    now = T0 + timedelta(days=95)
    assert index.expire(now - timedelta(days=90)) == 1
    assert index.keys() == [2]
    with pytest.raises(WindowIndexError) as err:
        index.fingerprint(1)
    assert err.value.code == "unknown_key"


def test_compaction_drops_dead_rows_and_unused_values():
    index = FingerprintIndex(compact_min_dead=1)
    index.add(1, fp(domain="a"), T0)
    index.add(2, fp(domain="b"), T0 + timedelta(days=1))
    index.add(3, fp(domain="c"), T0 + timedelta(days=2))
    index.expire(T0 + timedelta(days=2))  # 2 dead > 1 live -> compaction
    assert index.distinct_values()["domain"] == 1
    assert index.keys() == [3]
    assert index.fingerprint(3).domain == "c"
    index.add(4, fp(domain="a"), T0)
    assert index.nearest(fp(domain="a"), 1)[0].key == 4


def test_adding_never_rebuilds_existing_storage():
    index = FingerprintIndex()
    index.add(1, fp(), T0)
    keys_buffer = index._keys.data
    for key in range(2, 40):
        index.add(key, fp(), T0)
    assert index._keys.data is keys_buffer  # within capacity: appended in place


def test_index_is_a_comparison_set_for_check():
    index = FingerprintIndex()
    index.add(42, fp(), T0)
    decision = check(fp(), window=index)
    assert decision.verdict is Verdict.REJECT
    assert decision.nearest.key == 42 and decision.nearest.source == "window"


def test_memory_per_fingerprint_is_small_for_shared_values():
    index = FingerprintIndex()
    index.add_many((key, fp(complexity_tier=1 + key % 5), T0) for key in range(10_000))
    assert index.nbytes / 10_000 < 100


def test_row_ids_widen_past_the_narrow_limit(monkeypatch):
    from challenges.novelty import index as index_module
    from challenges.novelty.similarity import nearest_reference

    monkeypatch.setattr(index_module, "NARROW_ID_LIMIT", 3)
    index = FingerprintIndex()
    entries = [(key, fp(key_concepts=[f"c{key}", "shared"])) for key in range(8)]
    for key, f in entries:
        index.add(key, f, T0)
    assert index._ids["key_concepts"].data.dtype.name == "int32"
    assert index._ids["domain"].data.dtype.name == "uint16"
    query = fp(key_concepts=["c5", "shared"])
    assert index.nearest(query, 8) == nearest_reference(query, entries, 8)
