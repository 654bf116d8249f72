"""JSON that keeps Python types the standard encoder cannot represent.

Dates, datetimes, decimals, UUIDs, sets, tuples and bytes are written as small
tagged objects (``{"__type__": "decimal", "value": "12.50"}``) and restored on
decode.  Dataclasses are encoded as their fields and decoded only into classes
registered with ``register``, so a document cannot instantiate arbitrary types.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import uuid
from collections.abc import Callable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any

SCALARS: dict[str, tuple[type, Callable[[Any], Any], Callable[[Any], Any]]] = {
    "datetime": (datetime, lambda v: v.isoformat(), datetime.fromisoformat),
    "date": (date, lambda v: v.isoformat(), date.fromisoformat),
    "decimal": (Decimal, str, Decimal),
    "uuid": (uuid.UUID, str, uuid.UUID),
    "bytes": (bytes, lambda v: base64.b64encode(v).decode("ascii"), base64.b64decode),
    "set": (set, lambda v: sorted(v, key=repr), set),
    "frozenset": (frozenset, lambda v: sorted(v, key=repr), frozenset),
    "tuple": (tuple, list, tuple),
}


class JsonCodec:
    """Encodes and decodes tagged JSON."""

    def __init__(self, indent: int | None = None, sort_keys: bool = True, tag: str = "__type__") -> None:
        self.indent = indent or None
        self.sort_keys = sort_keys
        self.tag = tag
        self._classes: dict[str, type] = {}

    def register(self, cls: type) -> type:
        """Allow instances of the dataclass ``cls`` to be decoded; usable as a decorator."""
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        self._classes[cls.__name__] = cls
        return cls

    def _wrap(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            if self.tag in value:
                raise ValueError(f"mapping uses the reserved key {self.tag!r}")
            return {str(k): self._wrap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._wrap(v) for v in value]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {f.name: self._wrap(getattr(value, f.name)) for f in dataclasses.fields(value)}
            return {self.tag: "object", "class": type(value).__name__, "fields": fields}
        for name, (kind, encode, _) in SCALARS.items():
            if isinstance(value, kind) and not (kind is date and isinstance(value, datetime)):
                encoded = encode(value)
                if isinstance(encoded, list):
                    encoded = [self._wrap(v) for v in encoded]
                return {self.tag: name, "value": encoded}
        if value is None or isinstance(value, str | int | float | bool):
            return value
        raise TypeError(f"cannot encode {type(value).__name__}")

    def _unwrap(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self._unwrap(v) for v in value]
        if not isinstance(value, dict):
            return value
        if self.tag not in value:
            return {k: self._unwrap(v) for k, v in value.items()}
        name = value[self.tag]
        if name == "object":
            cls = self._classes.get(value.get("class", ""))
            if cls is None:
                raise ValueError(f"class {value.get('class')!r} is not registered for decoding")
            return cls(**{k: self._unwrap(v) for k, v in value["fields"].items()})
        if name not in SCALARS:
            raise ValueError(f"unknown type tag {name!r}")
        raw = value["value"]
        if isinstance(raw, list):
            raw = [self._unwrap(v) for v in raw]
        return SCALARS[name][2](raw)

    def dumps(self, value: Any) -> str:
        return json.dumps(self._wrap(value), indent=self.indent, sort_keys=self.sort_keys, allow_nan=False)

    def loads(self, text: str) -> Any:
        return self._unwrap(json.loads(text))


def codec_from_settings(settings: Mapping[str, object]) -> JsonCodec:
    """A codec configured from the ``serialization`` section of ``settings``."""
    section = settings.get("serialization", {}) or {}
    return JsonCodec(indent=int(section.get("indent", 0)), sort_keys=bool(section.get("sort_keys", True)),
                     tag=str(section.get("tag", "__type__")))
