"""Threshold proposals from a red-team exercise (spec 003 "Calibration", threshold tuning).

Given the composite scores of planted and clean units, ``propose_threshold`` tries each
candidate cut (a unit counts as detected when its score is above the cut, as the composite
bands are read) and proposes the highest-detection cut whose false-positive rate stays
within the target, with the expected effect on both rates against the current cut. A
proposal is only advice: staff apply it by changing the setting, with a reason (audited).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Proposal:
    setting: str
    current: float
    proposed: float
    detection_now: float | None
    false_positive_now: float | None
    detection_then: float | None
    false_positive_then: float | None
    reason: str

    def as_dict(self) -> dict:
        return asdict(self)


def _rates(cut: float, planted: Sequence[float], clean: Sequence[float]) -> tuple[float | None, float | None]:
    detection = sum(v > cut for v in planted) / len(planted) if planted else None
    false_positive = sum(v > cut for v in clean) / len(clean) if clean else None
    return detection, false_positive


def propose_threshold(*, setting: str, current: float, planted: Sequence[float], clean: Sequence[float],
                      false_positive_max: float, candidates: Sequence[float] | None = None) -> Proposal | None:
    """The cut that detects most planted units with at most ``false_positive_max`` of clean ones
    flagged (ties: the higher cut, the more conservative); None without both kinds of unit."""
    if not planted or not clean:
        return None
    grid = sorted(set(candidates if candidates is not None else [round(i / 20, 2) for i in range(1, 20)]))
    now = _rates(current, planted, clean)
    best: tuple[float, float, float] | None = None
    for cut in grid:
        detection, false_positive = _rates(cut, planted, clean)
        if false_positive is None or detection is None or false_positive > false_positive_max:
            continue
        if best is None or detection > best[1] or (detection == best[1] and cut > best[0]):
            best = (cut, detection, false_positive)
    if best is None:
        return Proposal(setting, current, current, *now, *now,
                        reason=f"no cut keeps false positives within {false_positive_max:.0%}; keep {current}")
    cut, detection, false_positive = best
    if cut == current:
        reason = "the current cut is already the best within the false-positive target"
    else:
        reason = (f"moving {setting} from {current} to {cut} would detect {detection:.0%} of planted units "
                  f"(now {now[0]:.0%}) with {false_positive:.0%} of clean ones flagged (now {now[1]:.0%})")
    return Proposal(setting, current, cut, now[0], now[1], detection, false_positive, reason)
