"""A fast, incremental in-memory index of the comparison window.

:class:`FingerprintIndex` returns exactly the scores, per-field contributions and
nearest matches of :func:`~challenges.novelty.similarity.nearest_reference` over its
live entries, at a fraction of the cost.

How it works
    Every set-valued field (the five string fields as token-bigram sets, the three
    list fields as item sets) is a :class:`_Column`: each distinct value is interned
    to a small integer and stored once, as a CSR row of element ids (string fields
    find their id through a dict; list fields, which may have a distinct set per
    fingerprint, through a compact numpy hash table). Each indexed fingerprint is
    then one value id per column (``uint16``, widened to ``int32`` for a column
    once it passes 65,536 distinct values), an ``int8`` tier, an ``int64`` key, an
    ``int64`` timestamp and a liveness flag: 34-50 bytes plus growth slack.

    A query computes the Jaccard similarity of the candidate's value against every
    *distinct* value of a column with a few vectorised numpy operations, multiplies by
    the weight, gathers that per-value contribution for every row and adds the
    columns up; ``argpartition`` then finds the top ``k``.

Exactness
    Per-value similarities are ``intersection / union`` on integers, which numpy and
    Python both round correctly, so they are the same floats as the reference.
    Contributions are ``weight * similarity`` in both, and rows are summed column by
    column in :data:`SCORING_ORDER`, the order the reference adds in. Zero-weight
    columns are skipped: adding ``0.0`` to a non-negative float never changes it.
    Ties are broken by key ascending, including at the ``k``-th place.

Incremental
    :meth:`add` appends to growable arrays (capacity grows by half, so appends are
    amortised O(1); nothing is rebuilt). :meth:`remove` and :meth:`expire` set
    tombstones; once dead rows outnumber live ones (and there are at least
    ``compact_min_dead`` of them) the arrays are compacted and distinct values no
    longer referenced are dropped. Element vocabularies (grams, items) are kept.

Keys are ``int`` (database primary keys) so they fit a numpy array; timestamps must
be timezone-aware.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from .errors import WindowIndexError
from .fingerprint import LIST_FIELDS, STRING_FIELDS, TIER_FIELD, TIER_MAX, TIER_MIN, Fingerprint
from .similarity import (
    DEFAULT_WEIGHTS,
    SCORING_ORDER,
    FieldContribution,
    Match,
    Weights,
    field_elements,
    tier_similarity,
)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
SET_FIELDS: tuple[str, ...] = STRING_FIELDS + LIST_FIELDS
#: Row ids of a column start as uint16 and widen to int32 once it has more distinct values.
NARROW_ID_LIMIT = int(np.iinfo(np.uint16).max) + 1
_TIERS = range(TIER_MIN, TIER_MAX + 1)


def _to_micros(at: datetime, field: str = "at") -> int:
    if not isinstance(at, datetime) or at.tzinfo is None or at.utcoffset() is None:
        raise WindowIndexError("naive_datetime", f"{field} must be a timezone-aware datetime", field=field)
    return (at - _EPOCH) // _MICROSECOND


class _Growable:
    """A 1-D numpy array with amortised O(1) append (capacity grows by half)."""

    __slots__ = ("data", "n")

    def __init__(self, dtype: Any, capacity: int = 64) -> None:
        self.data = np.empty(capacity, dtype=dtype)
        self.n = 0

    def _reserve(self, extra: int) -> None:
        need = self.n + extra
        if need > len(self.data):
            capacity = max(need, len(self.data) + len(self.data) // 2)
            grown = np.empty(capacity, dtype=self.data.dtype)
            grown[: self.n] = self.data[: self.n]
            self.data = grown

    def append(self, value: Any) -> None:
        self._reserve(1)
        self.data[self.n] = value
        self.n += 1

    def extend(self, values: Any) -> None:
        values = np.asarray(values, dtype=self.data.dtype)
        self._reserve(len(values))
        self.data[self.n : self.n + len(values)] = values
        self.n += len(values)

    def view(self) -> np.ndarray:
        return self.data[: self.n]

    def widen(self, dtype: Any) -> None:
        self.data = self.data.astype(dtype)

    def replace(self, values: np.ndarray) -> None:
        self.data = np.array(values, dtype=self.data.dtype)
        self.n = len(self.data)
        if self.n == 0:
            self.data = np.empty(64, dtype=self.data.dtype)

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)


class _Column:
    """Distinct values of one set-valued field, each stored once as a CSR row of element ids.

    Subclasses decide how a value finds its id (:class:`_TextColumn`: a dict of the
    few distinct strings; :class:`_SetColumn`: a numpy hash table, because list
    fields such as ``key_concepts`` can have a distinct set per fingerprint and a
    Python dict entry per set would cost more than the rest of the index).
    """

    def __init__(self, field: str) -> None:
        self.field = field
        self.element_ids: dict[Hashable, int] = {}
        self.element_list: list[Hashable] = []
        self.offsets = _Growable(np.int64)
        self.offsets.append(0)
        self.elements = _Growable(np.int32)

    @property
    def count(self) -> int:
        return self.offsets.n - 1

    def _ids_of(self, value: Any) -> list[int]:
        ids = []
        for element in field_elements(self.field, value):
            eid = self.element_ids.get(element)
            if eid is None:
                eid = self.element_ids[element] = len(self.element_list)
                self.element_list.append(element)
            ids.append(eid)
        ids.sort()
        return ids

    def _append_row(self, ids: list[int]) -> int:
        self.elements.extend(ids)
        self.offsets.append(self.elements.n)
        return self.count - 1

    def row(self, vid: int) -> np.ndarray:
        return self.elements.data[self.offsets.data[vid] : self.offsets.data[vid + 1]]

    def similarities(self, value: Any) -> np.ndarray:
        """Jaccard of ``value`` against every distinct value, indexed by value id."""
        query = field_elements(self.field, value)
        known = [self.element_ids[e] for e in query if e in self.element_ids]
        offsets = self.offsets.view()
        sizes = np.diff(offsets)
        if known:
            mark = np.zeros(len(self.element_list), dtype=bool)
            mark[known] = True
            running = np.zeros(self.elements.n + 1, dtype=np.int64)
            np.cumsum(mark[self.elements.view()], out=running[1:])
            inter = running[offsets[1:]] - running[offsets[:-1]]
        else:
            inter = np.zeros(len(sizes), dtype=np.int64)
        union = sizes + len(query) - inter
        with np.errstate(divide="ignore", invalid="ignore"):
            sims = inter / union
        sims[union == 0] = 1.0
        return sims

    def _retain_rows(self, used: np.ndarray) -> np.ndarray:
        """Keep the CSR rows of sorted ``used`` value ids; return the old -> new id map."""
        remap = np.full(self.count, -1, dtype=np.int32)
        remap[used] = np.arange(len(used), dtype=np.int32)
        sizes = np.diff(self.offsets.view())
        owner = np.repeat(np.arange(self.count), sizes)
        self.elements.replace(self.elements.view()[remap[owner] >= 0])
        kept = sizes[used]
        self.offsets.replace(np.concatenate(([0], np.cumsum(kept, dtype=np.int64))))
        return remap

    @property
    def nbytes(self) -> int:
        return self.offsets.nbytes + self.elements.nbytes


class _TextColumn(_Column):
    """A string field: few distinct values, looked up in a dict."""

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.value_ids: dict[str, int] = {}
        self.values: list[str] = []

    def intern(self, value: str) -> int:
        found = self.value_ids.get(value)
        if found is None:
            found = self.value_ids[value] = self._append_row(self._ids_of(value))
            self.values.append(value)
        return found

    def value(self, vid: int) -> str:
        return self.values[vid]

    def retain(self, used: np.ndarray) -> np.ndarray:
        remap = self._retain_rows(used)
        self.values = [self.values[v] for v in used]
        self.value_ids = {value: i for i, value in enumerate(self.values)}
        return remap


class _SetColumn(_Column):
    """A list field: distinct item sets found through an open-addressing numpy table.

    The table holds only value ids, placed by ``hash(tuple(sorted element ids))``
    with linear probing at a load factor of at most 1/2; a probe confirms a match
    by comparing the stored CSR row, so collisions cannot merge different sets.
    About 4 bytes per slot, so 8-16 bytes per distinct set.
    """

    def __init__(self, field: str) -> None:
        super().__init__(field)
        self._table = np.full(16, -1, dtype=np.int32)

    def _probe(self, h: int, ids: list[int]) -> tuple[int, int]:
        mask = len(self._table) - 1
        slot = h & mask
        while True:
            vid = int(self._table[slot])
            if vid < 0 or self.row(vid).tolist() == ids:
                return slot, vid
            slot = (slot + 1) & mask

    def _rebuild_table(self, capacity: int) -> None:
        table = np.full(capacity, -1, dtype=np.int32)
        mask = capacity - 1
        offsets = self.offsets.view().tolist()
        elements = self.elements.view().tolist()
        for vid in range(self.count):
            slot = hash(tuple(elements[offsets[vid] : offsets[vid + 1]])) & mask
            while table[slot] >= 0:
                slot = (slot + 1) & mask
            table[slot] = vid
        self._table = table

    def intern(self, value: tuple[str, ...]) -> int:
        ids = self._ids_of(value)
        h = hash(tuple(ids))
        slot, vid = self._probe(h, ids)
        if vid >= 0:
            return vid
        vid = self._append_row(ids)
        self._table[slot] = vid
        if 2 * self.count > len(self._table):
            self._rebuild_table(2 * len(self._table))
        return vid

    def value(self, vid: int) -> tuple[str, ...]:
        return tuple(sorted(str(self.element_list[e]) for e in self.row(vid).tolist()))

    def retain(self, used: np.ndarray) -> np.ndarray:
        remap = self._retain_rows(used)
        capacity = 16
        while 2 * len(used) > capacity:
            capacity *= 2
        self._rebuild_table(capacity)
        return remap

    @property
    def nbytes(self) -> int:
        return super().nbytes + self._table.nbytes


class FingerprintIndex:
    """Incremental nearest-fingerprint index; see the module docstring."""

    def __init__(self, *, compact_min_dead: int = 1024) -> None:
        self._columns: dict[str, _TextColumn | _SetColumn] = {
            **{field: _TextColumn(field) for field in STRING_FIELDS},
            **{field: _SetColumn(field) for field in LIST_FIELDS},
        }
        self._ids = {field: _Growable(np.uint16) for field in SET_FIELDS}
        self._tier = _Growable(np.int8)
        self._keys = _Growable(np.int64)
        self._times = _Growable(np.int64)
        self._alive = _Growable(np.bool_)
        self._live = 0
        self._max_key: int | None = None
        self._compact_min_dead = compact_min_dead

    # -- size -------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._live

    def __contains__(self, key: object) -> bool:
        return isinstance(key, int) and not isinstance(key, bool) and self._row_of(key) is not None

    @property
    def nbytes(self) -> int:
        """Bytes held by the numpy arrays (capacity included; dicts not counted)."""
        total = self._tier.nbytes + self._keys.nbytes + self._times.nbytes + self._alive.nbytes
        total += sum(g.nbytes for g in self._ids.values())
        return total + sum(c.nbytes for c in self._columns.values())

    def distinct_values(self) -> dict[str, int]:
        return {field: col.count for field, col in self._columns.items()}

    # -- writes -----------------------------------------------------------------------
    def _check_key(self, key: object) -> int:
        if isinstance(key, bool) or not isinstance(key, int) or not (_INT64_MIN <= key <= _INT64_MAX):
            raise WindowIndexError("invalid_key", "key must be a 64-bit integer", field="key")
        return key

    def _row_of(self, key: int) -> int | None:
        if self._max_key is None or key > self._max_key:
            return None
        rows = np.flatnonzero((self._keys.view() == key) & self._alive.view())
        return int(rows[0]) if len(rows) else None

    def add(self, key: int, fingerprint: Fingerprint, at: datetime) -> None:
        """Add one fingerprint created at ``at``; amortised O(1) when keys increase."""
        self.add_many([(key, fingerprint, at)])

    def add_many(self, items: Iterable[tuple[int, Fingerprint, datetime]]) -> int:
        """Add several fingerprints at once (all or nothing); returns how many."""
        batch_keys: list[int] = []
        batch_times: list[int] = []
        batch_tiers: list[int] = []
        batch_fps: list[Fingerprint] = []
        seen: set[int] = set()
        for key, fingerprint, at in items:
            key = self._check_key(key)
            if not isinstance(fingerprint, Fingerprint):
                raise WindowIndexError("invalid_fingerprint", "fingerprint must be a Fingerprint", field="fingerprint")
            if key in seen or self._row_of(key) is not None:
                raise WindowIndexError("duplicate_key", f"key {key} is already in the index", field="key", key=key)
            seen.add(key)
            batch_keys.append(key)
            batch_times.append(_to_micros(at))
            batch_tiers.append(fingerprint.complexity_tier - TIER_MIN)
            batch_fps.append(fingerprint)
        if not batch_keys:
            return 0
        for field in SET_FIELDS:
            column = self._columns[field]
            ids = [column.intern(getattr(fp, field)) for fp in batch_fps]
            if column.count > NARROW_ID_LIMIT and self._ids[field].data.dtype != np.int32:
                self._ids[field].widen(np.int32)
            self._ids[field].extend(ids)
        self._tier.extend(batch_tiers)
        self._keys.extend(batch_keys)
        self._times.extend(batch_times)
        self._alive.extend(np.ones(len(batch_keys), dtype=bool))
        self._live += len(batch_keys)
        top = max(batch_keys)
        self._max_key = top if self._max_key is None else max(self._max_key, top)
        return len(batch_keys)

    def remove(self, key: int) -> bool:
        """Tombstone ``key``; returns whether it was present."""
        row = self._row_of(self._check_key(key))
        if row is None:
            return False
        self._alive.data[row] = False
        self._live -= 1
        self._maybe_compact()
        return True

    def expire(self, before: datetime) -> int:
        """Tombstone every entry created strictly before ``before``; returns how many."""
        cutoff = _to_micros(before, "before")
        alive = self._alive.view()
        dying = alive & (self._times.view() < cutoff)
        count = int(dying.sum())
        if count:
            alive[dying] = False
            self._live -= count
            self._maybe_compact()
        return count

    def _maybe_compact(self) -> None:
        dead = self._alive.n - self._live
        if dead >= self._compact_min_dead and dead > self._live:
            self.compact()

    def compact(self) -> None:
        """Drop tombstoned rows and distinct values nothing refers to any more."""
        keep = self._alive.view().copy()
        for growable in (self._tier, self._keys, self._times, self._alive):
            growable.replace(growable.view()[keep])
        for field in SET_FIELDS:
            ids = self._ids[field].view()[keep]
            remap = self._columns[field].retain(np.unique(ids))
            self._ids[field].replace(remap[ids])
        self._max_key = int(self._keys.view().max()) if self._keys.n else None

    # -- reads ------------------------------------------------------------------------
    def fingerprint(self, key: int) -> Fingerprint:
        """Rebuild the stored fingerprint of ``key`` (raises ``unknown_key``)."""
        row = self._row_of(self._check_key(key))
        if row is None:
            raise WindowIndexError("unknown_key", f"key {key} is not in the index", field="key")
        values = {field: self._columns[field].value(int(self._ids[field].data[row])) for field in SET_FIELDS}
        return Fingerprint(**values, complexity_tier=int(self._tier.data[row]) + TIER_MIN)

    def keys(self) -> list[int]:
        return [int(k) for k in self._keys.view()[self._alive.view()]]

    def nearest(self, candidate: Fingerprint, k: int, weights: Weights = DEFAULT_WEIGHTS) -> list[Match]:
        """The ``k`` live entries most similar to ``candidate``, by (-score, key)."""
        take = min(k, self._live)
        if take <= 0:
            return []
        sims: dict[str, np.ndarray] = {}
        ids: dict[str, np.ndarray] = {}
        scores: np.ndarray | None = None
        for field in SCORING_ORDER:
            if field == TIER_FIELD:
                sims[field] = np.array([tier_similarity(candidate.complexity_tier, t) for t in _TIERS])
                ids[field] = self._tier.view()
            else:
                sims[field] = self._columns[field].similarities(getattr(candidate, field))
                ids[field] = self._ids[field].view()
            weight = weights.of(field)
            if weight == 0.0:
                continue
            gathered = (weight * sims[field])[ids[field]]
            if scores is None:
                scores = gathered
            else:
                scores += gathered
        if scores is None:
            scores = np.zeros(self._alive.n)
        if self._live < self._alive.n:
            scores[~self._alive.view()] = -np.inf

        n = len(scores)
        if take < n:
            top = np.argpartition(scores, n - take)[n - take :]
            floor = scores[top].min()
            candidates = np.flatnonzero(scores >= floor)
        else:
            candidates = np.flatnonzero(scores > -np.inf)
        keys = self._keys.view()
        order = np.lexsort((keys[candidates], -scores[candidates]))[:take]
        rows = candidates[order]

        matches = []
        for row in rows:
            parts = []
            for field in SCORING_ORDER:
                sim = float(sims[field][ids[field][row]])
                weight = weights.of(field)
                parts.append(FieldContribution(field, sim, weight, weight * sim))
            matches.append(Match(int(keys[row]), float(scores[row]), tuple(parts)))
        return matches
