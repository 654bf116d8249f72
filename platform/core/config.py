"""Staff-editable settings: the spec's numbers as defaults that staff can change.

Each capability declares its settings in code (``declare``) with a default, a
description and a validator; staff override them in the admin, and every change is an
audit event with its reason. Reads go through ``config_value``, which returns the
override when one exists and the declared default otherwise.

    declare(Setting("dedup.reject_above", 0.70, "Similarity above which a challenge is rejected.",
                    validate=unit_interval))
    config_value("dedup.reject_above")  # -> 0.70 until staff change it
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.errors import ValidationFailed

Validator = Callable[[Any], Any]


@dataclass(frozen=True)
class Setting:
    """A declared setting. ``choices`` closes it to those values (a choice widget in the
    admin); ``suggestions`` only offers values to pick from (an open text input)."""

    key: str
    default: Any
    description: str
    validate: Validator | None = None
    group: str = ""
    choices: tuple[Any, ...] = ()
    suggestions: tuple[str, ...] = ()

    @property
    def kind(self) -> type:
        """The Python type a value takes: the validator's declared ``kind``, else the default's type."""
        return getattr(self.validate, "kind", None) or type(self.default)

    @property
    def bounds(self) -> tuple[float | None, float | None]:
        """Lowest and highest allowed values as the validator declares them (None: open)."""
        return getattr(self.validate, "bounds", (None, None))

    def clean(self, value: Any) -> Any:
        if self.choices and value not in self.choices:
            raise ValidationFailed(
                f"{self.key} must be one of {', '.join(map(str, self.choices))}.", code="setting_invalid",
                extra={"field": self.key},
            )
        if self.validate is None:
            if type(value) is not type(self.default):
                raise ValidationFailed(
                    f"{self.key} must be a {type(self.default).__name__}.", code="setting_invalid",
                    extra={"field": self.key},
                )
            return value
        try:
            return self.validate(value)
        except (TypeError, ValueError) as exc:
            raise ValidationFailed(f"{self.key}: {exc}", code="setting_invalid", extra={"field": self.key}) from exc


_REGISTRY: dict[str, Setting] = {}


def declare(*settings: Setting) -> None:
    for setting in settings:
        existing = _REGISTRY.get(setting.key)
        if existing is not None and existing != setting:
            raise ValueError(f"setting {setting.key!r} is declared twice with different definitions")
        setting.clean(setting.default)
        _REGISTRY[setting.key] = setting


def declared() -> dict[str, Setting]:
    return dict(sorted(_REGISTRY.items()))


def definition(key: str) -> Setting:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise ValidationFailed(f"Unknown setting {key!r}.", code="setting_unknown", extra={"field": key}) from None


def config_value(key: str) -> Any:
    from core.models import ConfigOverride

    setting = definition(key)
    override = ConfigOverride.objects.filter(key=key).values_list("value", flat=True).first()
    return setting.default if override is None else override


def config_values(prefix: str) -> dict[str, Any]:
    """Every declared setting under ``prefix`` (e.g. "dedup."), keyed without the prefix."""
    from core.models import ConfigOverride

    keys = [k for k in _REGISTRY if k.startswith(prefix)]
    overrides = dict(ConfigOverride.objects.filter(key__in=keys).values_list("key", "value"))
    return {k[len(prefix):]: overrides.get(k, _REGISTRY[k].default) for k in keys}


# --- validators -----------------------------------------------------------------------
# Each validator declares the type it returns and its bounds, so the admin can offer a
# number box with the right step and range (or a checkbox) instead of raw JSON.


def declares(kind: type, minimum: float | None = None, maximum: float | None = None):
    """Mark a validator with the ``kind`` of value it returns and its inclusive bounds."""
    def mark(validator: Validator) -> Validator:
        validator.kind = kind  # type: ignore[attr-defined]
        validator.bounds = (minimum, maximum)  # type: ignore[attr-defined]
        return validator

    return mark


@declares(float, 0, 1)
def unit_interval(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("must be a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError("must be between 0 and 1")
    return float(value)


@declares(int, 1)
def positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("must be a whole number")
    if value < 1:
        raise ValueError("must be at least 1")
    return value


@declares(float, 0)
def non_negative_number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("must be a number")
    if value < 0:
        raise ValueError("must not be negative")
    return float(value)


def parse_json_text(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationFailed(f"Not valid JSON: {exc}", code="setting_invalid") from exc
