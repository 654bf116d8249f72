"""Settings kept in an INI file, read through typed accessors.

Values may refer to environment variables as ``${NAME}`` or
``${NAME:-fallback}``, which keeps secrets out of the file.  Typed getters
(``integer``, ``number``, ``boolean``, ``seconds``, ``items``) raise an error
that names the section and key, instead of a bare ``ValueError`` far from the
file that caused it.
"""

from __future__ import annotations

import configparser
import os
import re
from collections.abc import Mapping
from pathlib import Path

_REFERENCE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)(?::-([^}]*))?\}")
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_MISSING = object()


class ConfigError(ValueError):
    """A missing or malformed value; the message names the section and key."""


class Section:
    """Typed access to one section."""

    def __init__(self, name: str, values: Mapping[str, str], environ: Mapping[str, str] | None) -> None:
        self.name = name
        self._values = dict(values)
        self._environ = environ

    def _expand(self, key: str, raw: str) -> str:
        if self._environ is None:
            return raw

        def replace(match: re.Match[str]) -> str:
            name, fallback = match.group(1), match.group(2)
            if name in self._environ:
                return self._environ[name]
            if fallback is not None:
                return fallback
            raise ConfigError(f"[{self.name}] {key}: environment variable {name} is not set")

        return _REFERENCE.sub(replace, raw)

    def text(self, key: str, default: object = _MISSING) -> str:
        if key not in self._values:
            if default is _MISSING:
                raise ConfigError(f"[{self.name}] {key} is required")
            return default  # type: ignore[return-value]
        return self._expand(key, self._values[key]).strip()

    def _typed(self, key: str, default: object, kind: str, convert):
        if key not in self._values and default is not _MISSING:
            return default
        raw = self.text(key)
        try:
            return convert(raw)
        except (ValueError, KeyError):
            raise ConfigError(f"[{self.name}] {key}: expected {kind}, got {raw!r}") from None

    def integer(self, key: str, default: object = _MISSING) -> int:
        return self._typed(key, default, "an integer", int)

    def number(self, key: str, default: object = _MISSING) -> float:
        return self._typed(key, default, "a number", float)

    def boolean(self, key: str, default: object = _MISSING) -> bool:
        return self._typed(key, default, "yes or no", lambda raw: configparser.ConfigParser.BOOLEAN_STATES[raw.lower()])

    def seconds(self, key: str, default: object = _MISSING) -> float:
        """``"90"``, ``"30s"``, ``"5m"``, ``"2h"`` or ``"1d"`` as seconds."""

        def parse(raw: str) -> float:
            unit = raw[-1:].lower()
            return float(raw[:-1]) * _SECONDS[unit] if unit in _SECONDS else float(raw)

        return self._typed(key, default, "a duration", parse)

    def items(self, key: str, default: object = _MISSING) -> list[str]:
        """A comma- or newline-separated list."""
        return self._typed(key, default, "a list", lambda raw: [p.strip() for p in re.split(r"[,\n]", raw) if p.strip()])

    def keys(self) -> list[str]:
        return sorted(self._values)


class IniConfig:
    """Sections of one INI document."""

    def __init__(self, text: str = "", allow_env: bool = True, environ: Mapping[str, str] | None = None) -> None:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
        except configparser.Error as exc:
            raise ConfigError(str(exc).splitlines()[0]) from None
        env = (os.environ if environ is None else environ) if allow_env else None
        self._sections = {name: Section(name, dict(parser[name]), env) for name in parser.sections()}
        self._environ = env

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], **options) -> IniConfig:
        """The file's sections; a missing file is an empty configuration."""
        file = Path(path)
        return cls(file.read_text(encoding="utf-8") if file.exists() else "", **options)

    def section(self, name: str, required: bool = False) -> Section:
        if name not in self._sections:
            if required:
                raise ConfigError(f"section [{name}] is required")
            return Section(name, {}, self._environ)
        return self._sections[name]

    def sections(self) -> list[str]:
        return sorted(self._sections)


def ini_config_from_settings(settings: Mapping[str, object], environ: Mapping[str, str] | None = None) -> IniConfig:
    """The INI file named by the ``config`` section of ``settings``."""
    section = settings.get("config", {}) or {}
    return IniConfig.from_file(str(section.get("path", "config/app.ini")),
                               allow_env=bool(section.get("allow_env", True)), environ=environ)
