import pytest

from detection.metrics import Bounds, Measurement, Metric, MetricError, Source, register
from detection.metrics.base import _REGISTRY, MAX_TRACE_IDS
from detection.metrics.procedures import PROCEDURES


def test_registering_needs_a_key_title_and_known_cadence():
    class Nameless(Metric):
        def measure(self, period):
            return Measurement(None)

    with pytest.raises(MetricError) as error:
        register(Nameless)
    assert error.value.code == "metric_incomplete"

    class Odd(Metric):
        key, title, cadence = "odd", "Odd", "daily"

        def measure(self, period):
            return Measurement(None)

    with pytest.raises(MetricError):
        register(Odd)
    assert "odd" not in _REGISTRY


def test_a_second_class_under_a_taken_key_is_refused():
    class First(Metric):
        key, title, defaults = "unit_test_metric", "First", Bounds(target_min=0.5)

        def measure(self, period):
            return Measurement(1.0)

    class Second(First):
        title = "Second"

    try:
        register(First)
        with pytest.raises(MetricError) as error:
            register(Second)
        assert error.value.code == "metric_duplicate"
    finally:
        _REGISTRY.pop("unit_test_metric", None)


def test_trace_keeps_a_bounded_list_of_ids_and_the_full_count():
    source = Source("app.table", "created_at in week", tuple(range(MAX_TRACE_IDS + 5)), "numerator")
    traced = Measurement(0.5, 1, 2, (source,), note="n").trace()
    (row,) = traced["sources"]
    assert row["count"] == MAX_TRACE_IDS + 5 and len(row["ids"]) == MAX_TRACE_IDS and row["truncated"]
    assert traced["note"] == "n"


def test_every_procedure_of_the_spec_is_listed_once():
    assert [len(PROCEDURES[c]) for c in ("daily", "weekly", "monthly", "quarterly")] == [4, 4, 4, 5]
    keys = [s.key for steps in PROCEDURES.values() for s in steps]
    assert len(keys) == len(set(keys))
