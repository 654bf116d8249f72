import pytest

from detection.batch import TrendParams, monthly_scores, rising_run
from detection.batch.errors import BatchParameterError


def _samples(per_month: dict[tuple[int, int], float], count: int = 5):
    return [(month, value) for month, value in per_month.items() for _ in range(count)]


def test_three_rises_retire():
    months = monthly_scores(_samples({(2026, 1): 0.1, (2026, 2): 0.2, (2026, 3): 0.3, (2026, 4): 0.4}))
    result = rising_run(months)
    assert result.rises == 3 and result.retire
    assert "2026-01 0.100 → 2026-02 0.200 → 2026-03 0.300 → 2026-04 0.400" in result.reason


def test_two_rises_do_not_retire_and_a_fall_resets():
    assert not rising_run(monthly_scores(_samples({(2026, 2): 0.2, (2026, 3): 0.3, (2026, 4): 0.4}))).retire
    months = monthly_scores(_samples({(2025, 12): 0.1, (2026, 1): 0.5, (2026, 2): 0.2, (2026, 3): 0.3,
                                      (2026, 4): 0.4}))
    assert rising_run(months).rises == 2


def test_a_month_without_enough_scores_breaks_the_run():
    samples = _samples({(2026, 1): 0.1, (2026, 3): 0.3, (2026, 4): 0.4, (2026, 5): 0.5}) + [((2026, 2), 0.2)]
    months = monthly_scores(samples)
    assert [m.score is None for m in months] == [False, True, False, False, False]
    assert rising_run(months).rises == 2


def test_year_boundary_counts_as_adjacent():
    months = monthly_scores(_samples({(2025, 10): 0.1, (2025, 11): 0.2, (2025, 12): 0.3, (2026, 1): 0.4}))
    assert rising_run(months).retire


def test_min_rise_ignores_noise():
    samples = _samples({(2026, 1): 0.30, (2026, 2): 0.31, (2026, 3): 0.32, (2026, 4): 0.33})
    assert rising_run(monthly_scores(samples)).retire
    params = TrendParams(min_rise=0.02)
    assert not rising_run(monthly_scores(samples, params), params).retire


def test_scores_out_of_range_raise():
    with pytest.raises(BatchParameterError):
        monthly_scores([((2026, 1), 1.5)])
    assert rising_run([]).reason.startswith("no month")
