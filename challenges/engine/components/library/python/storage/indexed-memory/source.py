"""Records kept in memory, found by id or through secondary indexes.

Each record is a dict with an integer ``id`` assigned on insert.  Indexed fields
map every value to the ids that hold it, so ``find(status="open")`` does not scan
the whole store; unique fields additionally refuse a second record with the
same value.  Records are copied on the way in and out: changing a returned
record never changes the store behind the caller's back.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any


class UniqueViolation(ValueError):
    """Another record already holds this value of a unique field."""

    def __init__(self, field: str, value: Any) -> None:
        super().__init__(f"{field}={value!r} is already taken")
        self.field = field
        self.value = value


class RecordStore:
    """An id-keyed store with hash indexes on chosen fields."""

    def __init__(self, indexes: Iterable[str] = (), unique: Iterable[str] = (), max_records: int = 100_000) -> None:
        self.unique = frozenset(unique)
        self.indexed = frozenset(indexes) | self.unique
        self.max_records = max_records
        self._records: dict[int, dict[str, Any]] = {}
        self._index: dict[str, dict[Any, set[int]]] = {name: {} for name in self.indexed}
        self._ids = itertools.count(1)

    def __len__(self) -> int:
        return len(self._records)

    def _check_unique(self, record: Mapping[str, Any], own_id: int | None) -> None:
        for name in self.unique:
            value = record.get(name)
            if value is None:
                continue
            holders = self._index[name].get(value, set()) - {own_id}
            if holders:
                raise UniqueViolation(name, value)

    def _add_to_index(self, record_id: int, record: Mapping[str, Any]) -> None:
        for name in self.indexed:
            if record.get(name) is not None:
                self._index[name].setdefault(record[name], set()).add(record_id)

    def _drop_from_index(self, record_id: int, record: Mapping[str, Any]) -> None:
        for name in self.indexed:
            value = record.get(name)
            holders = self._index[name].get(value)
            if holders is not None:
                holders.discard(record_id)
                if not holders:
                    del self._index[name][value]

    def insert(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """Store a copy of ``record`` under a new id; returns the stored copy."""
        if "id" in record:
            raise ValueError("ids are assigned by the store")
        if len(self._records) >= self.max_records:
            raise OverflowError(f"the store is full ({self.max_records} records)")
        self._check_unique(record, None)
        record_id = next(self._ids)
        stored = {**copy.deepcopy(dict(record)), "id": record_id}
        self._records[record_id] = stored
        self._add_to_index(record_id, stored)
        return copy.deepcopy(stored)

    def get(self, record_id: int) -> dict[str, Any] | None:
        record = self._records.get(record_id)
        return copy.deepcopy(record) if record is not None else None

    def update(self, record_id: int, **changes: Any) -> dict[str, Any]:
        if "id" in changes:
            raise ValueError("a record's id cannot change")
        current = self._records.get(record_id)
        if current is None:
            raise KeyError(record_id)
        updated = {**current, **copy.deepcopy(changes)}
        self._check_unique(updated, record_id)
        self._drop_from_index(record_id, current)
        self._records[record_id] = updated
        self._add_to_index(record_id, updated)
        return copy.deepcopy(updated)

    def delete(self, record_id: int) -> bool:
        record = self._records.pop(record_id, None)
        if record is None:
            return False
        self._drop_from_index(record_id, record)
        return True

    def find(self, **where: Any) -> list[dict[str, Any]]:
        """Records whose fields equal every ``where`` value, in id order.

        Indexed fields narrow the candidates first; the rest are checked one by one.
        """
        candidates: set[int] | None = None
        for name, value in where.items():
            if name in self.indexed:
                ids = self._index[name].get(value, set())
                candidates = set(ids) if candidates is None else candidates & ids
        pool: Iterator[int] = iter(sorted(candidates)) if candidates is not None else iter(sorted(self._records))
        return [copy.deepcopy(self._records[i]) for i in pool
                if all(self._records[i].get(k) == v for k, v in where.items())]

    def find_one(self, **where: Any) -> dict[str, Any] | None:
        found = self.find(**where)
        return found[0] if found else None

    def counts(self, field: str) -> dict[Any, int]:
        """How many records hold each value of an indexed field."""
        if field not in self.indexed:
            raise KeyError(f"{field} is not indexed")
        return {value: len(ids) for value, ids in self._index[field].items()}


def record_store_from_settings(settings: Mapping[str, object]) -> RecordStore:
    """A store configured from the ``storage`` section of ``settings``."""
    section = settings.get("storage", {}) or {}
    return RecordStore(indexes=section.get("indexes", ("status",)), unique=section.get("unique", ("email",)),
                       max_records=int(section.get("max_records", 100_000)))
