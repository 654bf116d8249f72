"""Settings loaded into dataclasses.

``TypedLoader().load(ServerSettings, data)`` builds a ``ServerSettings`` from a
mapping, converting values to the annotated field types (``int``, ``float``,
``bool``, ``str``, ``list[...]``, ``tuple[...]``, ``Optional[...]`` and nested
dataclasses) and naming the full path of a bad value (``db.pool.size``).
Missing fields take their dataclass defaults; a missing field without a default
is an error, as is, unless allowed, a key the dataclass does not declare.
"""

from __future__ import annotations

import dataclasses
import os
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


class SettingsError(ValueError):
    """A value at ``path`` does not fit its declared type, or is missing or unknown."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
        return True
    if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
        return False
    raise ValueError("expected true or false")


class TypedLoader:
    """Builds dataclass instances from plain mappings."""

    def __init__(self, allow_extra: bool = False, env_prefix: str = "",
                 environ: Mapping[str, str] | None = None) -> None:
        self.allow_extra = allow_extra
        self.env_prefix = env_prefix
        self._environ = os.environ if environ is None else environ

    def load(self, cls: type[T], data: Mapping[str, Any] | None = None, path: str = "") -> T:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls!r} is not a dataclass")
        data = dict(data or {})
        hints = typing.get_type_hints(cls)
        values: dict[str, Any] = {}
        for item in dataclasses.fields(cls):
            where = f"{path}.{item.name}" if path else item.name
            env_name = (self.env_prefix + where.replace(".", "_")).upper() if self.env_prefix else None
            if env_name and env_name in self._environ:
                values[item.name] = self._convert(hints[item.name], self._environ[env_name], where)
            elif item.name in data:
                values[item.name] = self._convert(hints[item.name], data.pop(item.name), where)
            elif dataclasses.is_dataclass(hints[item.name]):
                # A section left out is built from its own defaults, so the environment
                # can still reach its fields.
                try:
                    values[item.name] = self.load(hints[item.name], {}, where)
                except SettingsError:
                    if not self._has_default(item):
                        raise
            elif not self._has_default(item):
                raise SettingsError(where, "is required")
            data.pop(item.name, None)
        if data and not self.allow_extra:
            first = sorted(data)[0]
            raise SettingsError(f"{path}.{first}" if path else first, "is not a known setting")
        return cls(**values)

    @staticmethod
    def _has_default(item: dataclasses.Field) -> bool:
        return item.default is not dataclasses.MISSING or item.default_factory is not dataclasses.MISSING

    def _convert(self, hint: Any, value: Any, path: str) -> Any:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            if value is None and type(None) in args:
                return None
            inner = [a for a in args if a is not type(None)]
            return self._convert(inner[0], value, path)
        if dataclasses.is_dataclass(hint):
            if not isinstance(value, Mapping):
                raise SettingsError(path, "expected a section (an object)")
            return self.load(hint, value, path)
        if origin in (list, tuple):
            if isinstance(value, str):
                value = [part.strip() for part in value.split(",") if part.strip()]
            if not isinstance(value, list | tuple):
                raise SettingsError(path, "expected a list")
            item_type = args[0] if args else Any
            items = [self._convert(item_type, v, f"{path}[{i}]") for i, v in enumerate(value)]
            return items if origin is list else tuple(items)
        try:
            if hint is bool:
                return _to_bool(value)
            if hint in (int, float):
                if isinstance(value, bool):
                    raise ValueError("expected a number")
                converted = hint(value)
                if hint is int and isinstance(value, float) and value != converted:
                    raise ValueError("expected a whole number")
                return converted
            if hint is str:
                return str(value)
        except (TypeError, ValueError) as exc:
            raise SettingsError(path, str(exc) if "expected" in str(exc) else f"expected {hint.__name__}") from None
        return value


def typed_loader_from_settings(settings: Mapping[str, object], environ: Mapping[str, str] | None = None
                               ) -> TypedLoader:
    """A loader configured from the ``config`` section of ``settings``."""
    section = settings.get("config", {}) or {}
    return TypedLoader(allow_extra=bool(section.get("allow_extra", False)),
                       env_prefix=str(section.get("env_prefix", "")), environ=environ)
