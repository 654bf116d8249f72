"""Staff-editable settings of measured difficulty (issue "difficulty measured, not declared").

The bands are spec 003's expected solve rates per tier; a template whose measured rate sits
outside its tier's band gets a proposal. The other numbers are not in the spec: they say
how much evidence a proposal or the timing prior needs, and how far back it looks.
"""

from __future__ import annotations

from challenges.calibration import Band
from core.config import Setting, config_values, declare, non_negative_number, positive_int, unit_interval
from core.errors import ValidationFailed

BAND_DEFAULTS: dict[int, tuple[float, float]] = {
    1: (0.85, 0.95), 2: (0.65, 0.80), 3: (0.40, 0.60), 4: (0.20, 0.35), 5: (0.05, 0.15),
}
# The target for the hardest tier: a median honest solve of at least 10 minutes.
MIN_MEDIAN_MINUTES_DEFAULTS: dict[int, float] = {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0, 5: 10.0}
_GROUP = "calibration"

declare(
    *(
        Setting(f"calibration.band.{tier}.{end}", value,
                f"{'Lowest' if end == 'low' else 'Highest'} expected solve rate of tier {tier} (spec 003).",
                validate=unit_interval, group=_GROUP)
        for tier, (low, high) in BAND_DEFAULTS.items()
        for end, value in (("low", low), ("high", high))
    ),
    *(
        Setting(f"calibration.min_median_minutes.{tier}", minutes,
                f"Shortest median solve time, in minutes, a tier-{tier} template may measure before it is proposed "
                "for \"make harder\" (0: no minimum).", validate=non_negative_number, group=_GROUP)
        for tier, minutes in MIN_MEDIAN_MINUTES_DEFAULTS.items()
    ),
    Setting("calibration.min_instances", 3,
            "Fewest distinct instances of a template measured before its tier is judged against the band.",
            validate=positive_int, group=_GROUP),
    Setting("calibration.prior_window_days", 365,
            "Days of calibration results and honest bout solves the solve-time prior is built from.",
            validate=positive_int, group=_GROUP),
    Setting("calibration.prior_min_solves", 5,
            "Fewest measured solves of a tier before its solve-time prior is used instead of the spec's default.",
            validate=positive_int, group=_GROUP),
)


def calibration_bands() -> dict[int, Band]:
    """The tier bands as staff set them; an inconsistent band (low above high) is refused, naming it."""
    values = config_values("calibration.band.")
    bands = {}
    for tier in BAND_DEFAULTS:
        low, high = values[f"{tier}.low"], values[f"{tier}.high"]
        if low > high:
            raise ValidationFailed(f"calibration.band.{tier}: low {low} is above high {high}.",
                                   code="calibration_band_invalid", extra={"field": f"calibration.band.{tier}.low"})
        bands[tier] = Band(low, high)
    return bands


def calibration_min_median_seconds() -> dict[int, float]:
    values = config_values("calibration.min_median_minutes.")
    return {tier: float(values[str(tier)]) * 60 for tier in MIN_MEDIAN_MINUTES_DEFAULTS}
