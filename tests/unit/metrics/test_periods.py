from datetime import UTC, datetime

import pytest

from detection.metrics import (
    DAY,
    MONTH,
    QUARTER,
    WEEK,
    MetricError,
    last_complete,
    parse_period,
    period_of,
    periods_back,
)


def at(*args):
    return datetime(*args, tzinfo=UTC)


def test_iso_week_runs_monday_to_monday_and_labels_iso_year():
    week = period_of(WEEK, at(2026, 12, 3, 13, 50))
    assert (week.start, week.end, week.label) == (at(2026, 11, 30), at(2026, 12, 7), "2026-W49")
    # 1 January 2027 is a Friday: it belongs to the last ISO week of 2026.
    assert period_of(WEEK, at(2027, 1, 1)).label == "2026-W53"


def test_periods_are_half_open_and_consecutive():
    week = period_of(WEEK, at(2026, 12, 3))
    assert week.contains(week.start) and not week.contains(week.end)
    assert week.next().start == week.end and week.previous().end == week.start


def test_month_quarter_and_day():
    assert period_of(MONTH, at(2026, 12, 31, 23, 59)).end == at(2027, 1, 1)
    quarter = period_of(QUARTER, at(2026, 11, 15))
    assert (quarter.start, quarter.end, quarter.label) == (at(2026, 10, 1), at(2027, 1, 1), "2026-Q4")
    assert period_of(DAY, at(2026, 12, 3, 5)).label == "2026-12-03"


@pytest.mark.parametrize("label,kind", [("2026-W49", WEEK), ("2026-12", MONTH), ("2026-Q4", QUARTER),
                                        ("2026-12-03", DAY)])
def test_labels_round_trip(label, kind):
    period = parse_period(label)
    assert period.kind == kind and period.label == label


def test_bad_labels_are_refused_with_a_code():
    with pytest.raises(MetricError) as error:
        parse_period("2026-W60")
    assert error.value.code == "period_label_invalid"
    with pytest.raises(MetricError) as error:
        parse_period("2026-12", kind=WEEK)
    assert error.value.code == "period_label_kind"
    with pytest.raises(MetricError):
        period_of(WEEK, datetime(2026, 1, 1))  # naive


def test_last_complete_and_history():
    now = at(2026, 12, 3)
    assert last_complete(WEEK, now).label == "2026-W48"
    assert [p.label for p in periods_back(MONTH, now, 3)] == ["2026-10", "2026-11", "2026-12"]
