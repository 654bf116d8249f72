"""The fast index must return exactly what the brute-force reference returns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from challenges.novelty.index import FingerprintIndex
from challenges.novelty.similarity import nearest_reference

from .strategies import fingerprints, weights

T0 = datetime(2026, 1, 1, tzinfo=UTC)

operations = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.lists(st.tuples(fingerprints, st.integers(0, 200)), max_size=6)),
        st.tuples(st.just("remove"), st.integers(0, 40)),
        st.tuples(st.just("expire"), st.integers(0, 200)),
        st.tuples(st.just("compact"), st.none()),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(
    ops=operations,
    queries=st.lists(fingerprints, min_size=1, max_size=3),
    k=st.integers(0, 8),
    w=weights(),
    key_step=st.sampled_from([1, -1]),
    compact_min_dead=st.sampled_from([1, 1024]),
)
def test_index_matches_reference_after_adds_removes_and_expiries(ops, queries, k, w, key_step, compact_min_dead):
    index = FingerprintIndex(compact_min_dead=compact_min_dead)
    live: dict[int, tuple] = {}
    next_key = 1000
    for op, arg in ops:
        if op == "add":
            batch = []
            for fp, minutes in arg:
                batch.append((next_key, fp, T0 + timedelta(minutes=minutes)))
                next_key += key_step  # decreasing keys exercise the slow duplicate check
            index.add_many(batch)
            live.update({key: (fp, at) for key, fp, at in batch})
        elif op == "remove":
            key = 1000 + key_step * arg
            assert index.remove(key) == (key in live)
            live.pop(key, None)
        elif op == "expire":
            cutoff = T0 + timedelta(minutes=arg)
            gone = [key for key, (_, at) in live.items() if at < cutoff]
            assert index.expire(cutoff) == len(gone)
            for key in gone:
                del live[key]
        else:
            index.compact()
        assert len(index) == len(live)

    entries = [(key, fp) for key, (fp, _) in live.items()]
    for query in queries:
        assert index.nearest(query, k, w) == nearest_reference(query, entries, k, w)
    assert sorted(index.keys()) == sorted(live)
    for key, (fp, _) in live.items():
        assert index.fingerprint(key) == fp


@settings(max_examples=100, deadline=None)
@given(pool=st.lists(fingerprints, min_size=1, max_size=4), picks=st.lists(st.integers(0, 3), min_size=1, max_size=40))
def test_ties_are_broken_by_key_exactly_like_the_reference(pool, picks):
    # few distinct fingerprints, many rows: most scores tie, including at the k-th place
    index = FingerprintIndex()
    entries = [(key, pool[p % len(pool)]) for key, p in enumerate(picks)]
    index.add_many([(key, fp, T0) for key, fp in entries])
    for k in (1, 2, 5, len(entries)):
        assert index.nearest(pool[0], k) == nearest_reference(pool[0], entries, k)
