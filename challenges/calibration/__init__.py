"""Measured difficulty, without Django: the calibration data format and the arithmetic that
turns solver results into per-tier solve rates, time distributions and tier proposals."""

from challenges.calibration.errors import CalibrationError
from challenges.calibration.measure import (
    INSUFFICIENT,
    KEEP,
    MAKE_EASIER,
    MAKE_HARDER,
    RETIER,
    Band,
    Measurement,
    Proposal,
    TimeDistribution,
    measure,
    measure_by,
    monotone,
    nearest_tier,
    propose,
    quantile,
    tier_trend,
    time_distribution,
    wilson_interval,
)
from challenges.calibration.records import (
    SCHEMA,
    ResultRecord,
    RunRecord,
    dump_jsonl,
    invalid,
    parse_jsonl,
    parse_jsonl_numbered,
    valid_key,
)

__all__ = [
    "INSUFFICIENT", "KEEP", "MAKE_EASIER", "MAKE_HARDER", "RETIER", "SCHEMA", "valid_key", "Band", "CalibrationError", "Measurement", "Proposal", "ResultRecord", "RunRecord", "TimeDistribution",
    "dump_jsonl", "measure", "measure_by", "monotone", "tier_trend", "nearest_tier", "invalid", "parse_jsonl", "parse_jsonl_numbered", "propose", "quantile", "time_distribution", "wilson_interval",
]
