from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from core import formatting as fmt


@pytest.mark.parametrize(("count", "singular", "expected"), [
    (0, "challenge", "0 challenges"), (1, "challenge", "1 challenge"), (3, "challenge", "3 challenges"),
    (1, "entry", "1 entry"), (2, "entry", "2 entries"), (2, "match", "2 matches"), (2, "day", "2 days"),
    (1200, "submission", "1,200 submissions"),
])
def test_plural_counts_and_nouns(count, singular, expected):
    assert fmt.plural(count, singular) == expected


def test_plural_takes_an_explicit_irregular_form():
    assert fmt.plural(2, "person", "people") == "2 people"
    assert fmt.plural(1, "person", "people") == "1 person"


@pytest.mark.parametrize(("word", "expected"), [
    ("active", "an active"), ("halted", "a halted"), ("scheduled", "a scheduled"), ("closed", "a closed"),
    ("hour", "an hour"), ("unique", "a unique"), ("open", "an open"),
])
def test_article_by_sound(word, expected):
    assert fmt.article(word) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (Decimal("0.060000"), "$0.06"), (0.09, "$0.09"), (Decimal("1204.5"), "$1,204.50"), (0, "$0.00"),
    (Decimal("0.0042"), "$0.0042"), ("0.005", "$0.0050"), (Decimal("-2.5"), "-$2.50"),
])
def test_money_has_one_format(value, expected):
    assert fmt.money(value) == expected


def test_money_without_a_value_is_never_zero():
    assert fmt.money(None) == "—"
    assert fmt.money(None, empty="not reported") == "not reported"
    assert fmt.money(float("nan")) == "—"


@pytest.mark.parametrize(("value", "expected"), [
    (Decimal("4.000"), "4"), (Decimal("2.500"), "2.5"), (Decimal("1.125"), "1.125"), (3, "3"),
    (Decimal("1000"), "1,000"), (None, "—"),
])
def test_points_are_integers_when_whole(value, expected):
    assert fmt.points(value) == expected


def test_decimal_rounds_similarities():
    assert fmt.decimal(0.7342915812345678) == "0.734"
    assert fmt.decimal(0.7342915812345678, 2) == "0.73"
    assert fmt.decimal(None) == "—"


@pytest.mark.parametrize(("seconds", "expected"), [
    (42, "42.0 s"), (185, "3 m 05 s"), (7440, "2 h 04 m"), (None, "—"),
])
def test_duration(seconds, expected):
    assert fmt.duration(seconds) == expected


def test_when_is_utc_with_its_zone():
    moment = datetime(2025, 3, 1, 15, 5, 9, tzinfo=timezone(timedelta(hours=1)))
    assert fmt.when(moment) == "2025-03-01 14:05 UTC"
    assert fmt.when(moment, seconds=True) == "2025-03-01 14:05:09 UTC"
    assert fmt.when(None) == "—"
    with pytest.raises(ValueError):
        fmt.when(datetime(2025, 3, 1, 14, 5))  # noqa: DTZ001 - a naive time must be refused
    assert fmt.when(datetime(2025, 3, 1, tzinfo=UTC)) == "2025-03-01 00:00 UTC"


def test_languages_are_spelled_for_people():
    assert fmt.language("javascript") == "JavaScript"
    assert fmt.language("python") == "Python"
    assert fmt.language("cobol") == "Cobol"
    assert fmt.languages(["python", "javascript"]) == "Python, JavaScript"
    assert fmt.languages([]) == "—"
