"""How the platform writes counts, money, points, similarities, durations and times.

One place, so a figure reads the same in the portal, the admin, messages and commands:
"1 challenge" / "3 challenges", "an active bout", "$0.06", "4 points" rather than
"4.000", similarities to three decimals, every time with its zone. Pure Python (no
Django): the template filters in ``core.templatetags.formatting`` wrap these.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

# Plurals English does not form by adding "s"; anything else passes ``plural=`` itself.
_IRREGULAR = {"entry": "entries", "query": "queries", "this": "these", "was": "were", "is": "are", "has": "have"}
_SIBILANT = ("s", "x", "z", "ch", "sh")

DASH = "—"
# How languages are spelled for people; a code not listed is shown capitalised.
LANGUAGE_NAMES = {"python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "go": "Go",
                  "java": "Java", "rust": "Rust"}


def noun(count: int, singular: str, plural: str | None = None) -> str:
    """``singular`` when ``count`` is exactly one, else its plural form."""
    if count == 1:
        return singular
    if plural is not None:
        return plural
    if singular in _IRREGULAR:
        return _IRREGULAR[singular]
    if singular.endswith(_SIBILANT):
        return singular + "es"
    if singular.endswith("y") and len(singular) > 1 and singular[-2] not in "aeiou":
        return singular[:-1] + "ies"
    return singular + "s"


def plural(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` and its noun: ``plural(1, "challenge")`` is "1 challenge", 3 gives "3 challenges"."""
    return f"{count:,} {noun(count, singular, plural)}"


def article(word: str) -> str:
    """``word`` with its indefinite article by sound: "an active bout", "a halted bout"."""
    text = str(word).strip()
    lowered = text.lower()
    vowel_sound = lowered[:1] in set("aeiou") and not lowered.startswith(("uni", "use", "usu", "one"))
    if lowered.startswith(("hour", "honest")):
        vowel_sound = True
    return f"{'an' if vowel_sound else 'a'} {text}"


def _decimal(value: object) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def money(value: object, *, empty: str = DASH) -> str:
    """US dollars with cents ("$0.06", "$1,204.50"); a non-zero amount under a cent keeps
    four decimals ("$0.0042") so it never reads as free."""
    amount = _decimal(value)
    if amount is None:
        return empty
    places = Decimal("0.0001") if 0 < abs(amount) < Decimal("0.01") else Decimal("0.01")
    rounded = amount.quantize(places, rounding=ROUND_HALF_UP)
    sign = "-" if rounded < 0 else ""
    return f"{sign}${abs(rounded):,}"


def points(value: object, *, empty: str = DASH) -> str:
    """Points as an integer when whole ("4"), else with the decimals they need ("2.5")."""
    amount = _decimal(value)
    if amount is None:
        return empty
    rounded = amount.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    if rounded == rounded.to_integral_value():
        return f"{int(rounded):,}"
    return f"{rounded.normalize():,f}"


def decimal(value: object, places: int = 3, *, empty: str = DASH) -> str:
    """A fraction such as a similarity to ``places`` decimals ("0.734")."""
    if value is None or isinstance(value, bool):
        return empty
    try:
        number = float(value)
    except (TypeError, ValueError):
        return empty
    if not math.isfinite(number):
        return empty
    return f"{number:.{places}f}"


def percent(value: object, places: int = 1, *, empty: str = DASH) -> str:
    """A fraction as a percentage ("41.7%")."""
    if value is None or isinstance(value, bool):
        return empty
    try:
        return f"{float(value) * 100:.{places}f}%"
    except (TypeError, ValueError):
        return empty


def duration(seconds: object, *, empty: str = DASH) -> str:
    """Seconds as "42.0 s", "3 m 05 s" or "2 h 04 m"."""
    if seconds is None or isinstance(seconds, bool):
        return empty
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        return empty
    if not math.isfinite(value):
        return empty
    if value < 60:
        return f"{value:.1f} s"
    whole = int(round(value))
    if whole < 3600:
        return f"{whole // 60} m {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} m"


def when(moment: datetime | None, *, seconds: bool = False, empty: str = DASH) -> str:
    """An aware time in UTC with its zone: "2025-03-01 14:05 UTC". Naive times are refused."""
    if moment is None:
        return empty
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("when() needs a timezone-aware datetime")
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%d %H:%M:%S UTC" if seconds else "%Y-%m-%d %H:%M UTC")



def language(code: str) -> str:
    """A language code as people write it: "javascript" is "JavaScript"."""
    text = str(code or "").strip()
    return LANGUAGE_NAMES.get(text.lower(), text[:1].upper() + text[1:])


def languages(codes: object) -> str:
    """A list of language codes as "Python, JavaScript" (a JSON list in a model field, say)."""
    if isinstance(codes, str):
        codes = [codes]
    return ", ".join(language(code) for code in (codes or [])) or DASH
