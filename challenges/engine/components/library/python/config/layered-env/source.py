"""Options resolved from layers: defaults, a local JSON file, the environment.

Later layers win.  Environment variables are ``<prefix><KEY>`` in upper case
(``APP_WORKERS=4`` sets ``workers``) and are converted to the type of the
default they replace, so ``"4"`` becomes ``4`` and ``"off"`` becomes ``False``.
``source(key)`` says which layer a value came from, which is the first thing
anyone asks when a value is not what they expected.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def convert(raw: str, like: Any) -> Any:
    """``raw`` converted to the type of ``like`` (bool, int, float, list, or text)."""
    if isinstance(like, bool):
        value = raw.strip().lower()
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise ValueError(f"expected a boolean, got {raw!r}")
    if isinstance(like, int):
        return int(raw)
    if isinstance(like, float):
        return float(raw)
    if isinstance(like, list):
        return [item.strip() for item in raw.split(",") if item.strip()]
    return raw


class LayeredOptions:
    """Option values with the layer each came from."""

    def __init__(self, defaults: Mapping[str, Any], file: str | os.PathLike[str] | None = None,
                 env_prefix: str = "APP_", environ: Mapping[str, str] | None = None) -> None:
        self.defaults = dict(defaults)
        self.env_prefix = env_prefix
        self._values: dict[str, Any] = dict(self.defaults)
        self._sources: dict[str, str] = {key: "default" for key in self.defaults}
        if file is not None:
            self._apply_file(Path(file))
        self._apply_env(os.environ if environ is None else environ)

    def _apply_file(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except ValueError as exc:
            raise ValueError(f"{path}: not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a JSON object")
        unknown = sorted(set(data) - set(self.defaults))
        if unknown:
            raise ValueError(f"{path}: unknown options {', '.join(unknown)}")
        for key, value in data.items():
            self._values[key] = value
            self._sources[key] = str(path)

    def _apply_env(self, environ: Mapping[str, str]) -> None:
        for key, default in self.defaults.items():
            name = f"{self.env_prefix}{key.upper()}"
            if name in environ:
                try:
                    self._values[key] = convert(environ[name], default)
                except ValueError as exc:
                    raise ValueError(f"{name}: {exc}") from None
                self._sources[key] = f"${name}"

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)

    def source(self, key: str) -> str:
        return self._sources[key]

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def describe(self) -> list[str]:
        """``key = value (source)`` lines, for a startup log or a diagnostics command."""
        return [f"{key} = {self._values[key]!r} ({self._sources[key]})" for key in sorted(self._values)]


def options_from_settings(settings: Mapping[str, object], defaults: Mapping[str, Any] | None = None,
                          environ: Mapping[str, str] | None = None) -> LayeredOptions:
    """Options layered per the ``config`` section of ``settings``."""
    section = settings.get("config", {}) or {}
    return LayeredOptions(defaults or {}, file=section.get("file", "config/local.json"),
                          env_prefix=str(section.get("env_prefix", "APP_")), environ=environ)
