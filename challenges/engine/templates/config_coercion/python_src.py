"""Python sources of the config-coercion template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised while loading {{project}} settings."""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""


class {{ErrInvalid}}({{Base}}Error):
    """A setting has a value that cannot be used; ``field`` names it, ``origin`` says where it came from."""

    def __init__(self, message, field, origin):
        super().__init__(f"{field} ({origin}): {message}")
        self.field = field
        self.origin = origin
'''

COERCE = '''"""Turning setting text into typed values.

Every parser accepts the value already typed (as the defaults are) or as text,
as it comes from the environment or an INI file, and raises ``ValueError`` for
text it cannot read.
"""

TRUE_WORDS = frozenset({"1", "true", "yes", "on", "y"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", "n"})
DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


{{[}}
def parse_flag(raw):
    """A yes/no setting: ``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0``.

    Typed defaults (``True``/``False``) read as their own text.
    """
    text = str(raw).strip().lower()
    if text not in TRUE_WORDS | FALSE_WORDS:
        raise ValueError(f"not a yes/no value: {raw!r}")
    {{!flag_result}}
{{]}}


def parse_int(raw):
    """A whole number; ``_`` may group digits (``10_000``)."""
    if isinstance(raw, bool):
        raise ValueError("a yes/no value is not a number")
    if isinstance(raw, int):
        return raw
    text = str(raw).strip().replace("_", "")
    {{!int_parse}}


def parse_duration(raw):
    """Seconds from ``90``, ``90s``, ``15m``, ``1.5h`` or ``2d``."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return int(raw)
    text = str(raw).strip().lower()
    if not text:
        raise ValueError("empty duration")
    unit = text[-1]
    if unit.isdigit():
        return parse_int(text)
    if unit not in DURATION_UNITS:
        raise ValueError(f"unknown duration unit {unit!r}")
    {{!duration_scale}}


def parse_list(raw):
    """Comma-separated words, lower-cased, blanks dropped; an empty text is an empty list."""
    if isinstance(raw, (list, tuple)):
        return [str(item).strip().lower() for item in raw]
    return [part.strip().lower() for part in str(raw).split(",") if part.strip()]


def parse_text(raw):
    return str(raw).strip()


PARSERS = {
    "flag": parse_flag,
    "int": parse_int,
    "duration": parse_duration,
    "list": parse_list,
    "text": parse_text,
}
'''

SCHEMA = '''"""The settings {{project}} understands, their types and defaults."""

from dataclasses import dataclass

ENV_PREFIX = "{{ENV}}_"


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    default: object
    help: str
    minimum: int = None
    choices: tuple = ()

    @property
    def env_name(self):
        return ENV_PREFIX + self.name.upper()


SCHEMA = (
    Field("max_{{qty_f}}", "int", {{max_qty}}, "largest {{qty_h}} accepted on one {{entity_h}}", minimum=1),
    Field("{{retry}}_attempts", "int", 3, "how often a failed {{entity_h}} is retried; 0 disables retries",
          minimum=0),
    Field("notify_{{owners}}", "flag", True, "send a notice to {{owners_h}} on every change"),
    Field("strict_{{validate}}", "flag", False, "refuse {{entities_h}} with unknown {{cat_h}} values"),
    Field("hold_timeout", "duration", "{{timeout}}", "how long an unconfirmed {{entity_h}} is kept"),
    Field("accepted_{{cats}}", "list", {{cats_list}}, "{{cat_h}} values accepted", choices={{cats_tuple}}),
    Field("currency", "text", "{{currency}}", "currency of {{amount_h}} values"),
)

FIELDS = {field.name: field for field in SCHEMA}
'''

LOADER = '''"""Loading settings: defaults, then an INI file, then the environment.

Each layer overrides the one before it, field by field.  Values from the INI
file and the environment are text and go through the field's parser; the
defaults in ``schema.py`` are already typed.  A value that cannot be parsed, or
that breaks the field's minimum or choices, raises {{ErrInvalid}} naming the
field and where the value came from.
"""

import configparser
import json
import logging
import os
from pathlib import Path
from types import MappingProxyType

{{imports}}

logger = logging.getLogger(__name__)

SECTION = "{{project}}"
ROOT = Path(__file__).resolve().parents[{{root_parents}}]
PROJECT_FILE = ROOT / "config" / "settings.json"


class Settings:
    """Read-only attribute access to resolved settings."""

    def __init__(self, values, origins):
        self._values = MappingProxyType(dict(values))
        self.origins = MappingProxyType(dict(origins))

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self):
        return dict(self._values)


def _parse(field, raw, origin):
    try:
        value = PARSERS[field.kind](raw)
    except ValueError as exc:
        raise {{ErrInvalid}}(str(exc), field.name, origin) from None
    if field.minimum is not None and value < field.minimum:
        raise {{ErrInvalid}}(f"must be at least {field.minimum}", field.name, origin)
    if field.choices:
        unknown = [item for item in value if item not in field.choices]
        if unknown:
            raise {{ErrInvalid}}(f"unknown values {', '.join(unknown)}", field.name, origin)
    return value


def read_ini(path):
    """The raw values of the ``[{{project}}]`` section, or nothing if there is no file."""
    parser = configparser.ConfigParser(interpolation=None)
    if path is None or not parser.read(path, encoding="utf-8"):
        return {}
    if not parser.has_section(SECTION):
        return {}
    return dict(parser.items(SECTION))


def default_ini_path():
    """The INI file named by ``ini_path`` in ``config/settings.json`` (relative to the repository root)."""
    try:
        project = json.loads(PROJECT_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    name = project.get("ini_path")
    return ROOT / name if name else None


def read_env(environ):
    """The raw values of every ``{{ENV}}_*`` variable that names a known field."""
    found = {}
    for field in SCHEMA:
        if field.env_name in environ:
            found[field.name] = environ[field.env_name]
    return found


def load_settings(ini_path=None, environ=None):
    """Resolve every setting; ``ini_path`` defaults to the file named in ``config/settings.json``."""
    environ = os.environ if environ is None else environ
    ini_path = default_ini_path() if ini_path is None else ini_path
    layers = {}
    origins = {}
    for origin, raw_values in (("ini", read_ini(ini_path)), ("env", read_env(environ))):
        for name, raw in raw_values.items():
            field = FIELDS.get(name)
            if field is None:
                logger.warning("ignoring unknown setting %s from %s", name, origin)
                continue
            layers[name] = _parse(field, raw, origin)
            origins[name] = origin
    {{!layer_log}}
    {{[}}
    resolved = {}
    for field in SCHEMA:
        {{!resolve}}
        origins.setdefault(field.name, "default")
    for field in SCHEMA:
        if field.name not in layers:
            resolved[field.name] = _parse(field, resolved[field.name], "default")
    return Settings(resolved, origins)
    {{]}}
'''
