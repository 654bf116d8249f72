"""The real-time signals and the composite, on plain facts (no database)."""

import pytest

from core.config import declared
from detection.composite import composite_score
from detection.signals import Canary, SignalResult, SubmissionFacts, TierSolveTimes, get_signal, signals
from detection.signals.solve_time import solve_time_value

SETTINGS = {key.removeprefix("detection."): s.default for key, s in declared().items()
            if key.startswith("detection.")}
LEDGER = ('def overlaps(start_a, end_a, start_b, end_b):\n'
          '    return start_a <= end_b and start_b < end_a\n')
GOLD = ("--- a/rooms/ledger.py\n+++ b/rooms/ledger.py\n@@ -1,2 +1,2 @@\n def overlaps(start_a, end_a, start_b, end_b):\n"
        "-    return start_a <= end_b and start_b < end_a\n+    return start_a < end_b and start_b < end_a\n")


def facts(**changes) -> SubmissionFacts:
    base = dict(submission="s1", patch=GOLD, result="solved", language="python", tier=2, bug_type="boundary",
                family="logic-boundary", solve_seconds=600.0, tier_solve_times=TierSolveTimes(2, ()),
                trace=None, gold_patch=GOLD, canaries=(), workspace={"rooms/ledger.py": LEDGER}, library=())
    base.update(changes)
    return SubmissionFacts(**base)


def test_the_four_realtime_signals_are_registered_with_spec_weights():
    assert sorted(signals("realtime")) == ["canary_modified", "canonical_match", "skips_debugging", "solve_time"]
    assert [SETTINGS[f"weight.{k}"] for k in ("solve_time", "canonical_match", "canary_modified",
                                              "skips_debugging")] == [0.30, 0.35, 0.20, 0.15]


@pytest.mark.parametrize("ratio, value", [(0.5, 0.0), (0.30, 0.0), (0.2, 0.75), (0.0999, 1.0), (0.01, 1.0)])
def test_solve_time_value(ratio, value):
    assert solve_time_value(ratio, flag_below=0.30, investigate_below=0.10) == pytest.approx(value, abs=1e-3)


def test_solve_time_uses_the_prior_until_enough_solves_and_says_so():
    result = get_signal("solve_time").evaluate(facts(solve_seconds=60.0, tier_solve_times=TierSolveTimes(2, (300.0,))),
                                                SETTINGS)
    assert result.evidence["basis"] == "prior" and result.evidence["median_seconds"] == 18 * 60
    assert "fewer than the 20 needed" in result.reason
    # Only a measured median flags by itself: the human-minute prior would flag every capable agent.
    assert result.value == 1.0 and result.trigger == "none"
    strict = get_signal("solve_time").evaluate(facts(solve_seconds=60.0), {**SETTINGS, "solve_time.flag_on_prior": True})
    assert strict.trigger == "flag"


def test_solve_time_uses_the_measured_median():
    measured = TierSolveTimes(2, tuple(float(s) for s in range(40, 80)))  # median 59.5 s
    honest = get_signal("solve_time").evaluate(facts(solve_seconds=45.0, tier_solve_times=measured), SETTINGS)
    assert honest.evidence["basis"] == "measured" and honest.value == 0.0 and honest.trigger == "none"
    fast = get_signal("solve_time").evaluate(facts(solve_seconds=3.0, tier_solve_times=measured), SETTINGS)
    assert fast.value == 1.0 and fast.trigger == "flag" and "under 10%" in fast.reason


def test_solve_time_reads_a_tier_own_lines_once_recalibrated():
    measured = TierSolveTimes(2, tuple(float(s) for s in range(40, 80)))  # median 59.5 s
    recalibrated = {**SETTINGS, "solve_time.investigate_below_tier2": 0.5, "solve_time.flag_below_tier2": 0.6}
    result = get_signal("solve_time").evaluate(facts(solve_seconds=20.0, tier_solve_times=measured), recalibrated)
    # 20 s is 34 % of the median: under tier 2's own investigate line (50 %), above the all-tier one (10 %).
    assert result.value == 1.0 and result.trigger == "flag"
    assert (result.evidence["investigate_below"], result.evidence["flag_below"]) == (0.5, 0.6)
    other_tier = get_signal("solve_time").evaluate(
        facts(tier=3, solve_seconds=20.0, tier_solve_times=TierSolveTimes(3, measured.seconds)), recalibrated)
    assert other_tier.value == 0.0 and other_tier.evidence["investigate_below"] == 0.10


def test_solve_time_is_unknown_for_a_non_solve():
    assert get_signal("solve_time").evaluate(facts(result="not_solved"), SETTINGS).value is None


def test_canary_modified():
    canary = Canary("closed-interval", "rooms/ledger.py", (2, 2))
    hit = get_signal("canary_modified").evaluate(facts(canaries=(canary,)), SETTINGS)
    assert hit.value == 1.0 and hit.trigger == "flag" and "closed-interval" in hit.reason
    miss = get_signal("canary_modified").evaluate(facts(canaries=(Canary("c", "rooms/ledger.py", (1, 1)),)),
                                                  SETTINGS)
    assert miss.value == 0.0 and miss.trigger == "none"
    assert get_signal("canary_modified").evaluate(facts(), SETTINGS).value is None


def test_skips_debugging_unknown_without_trace_and_scored_with_one():
    signal = get_signal("skips_debugging")
    assert signal.evaluate(facts(), SETTINGS).value is None
    assert signal.evaluate(facts(trace=[{"step": 1}]), SETTINGS).value is None
    straight = signal.evaluate(facts(trace=[{"action": "edit", "target": "rooms/ledger.py"}]), SETTINGS)
    assert straight.value == 1.0 and "no test run" in straight.reason
    careful = signal.evaluate(facts(trace=[{"action": "search", "target": "overlaps"},
                                           {"action": "read", "target": "rooms/ledger.py"},
                                           {"action": "edit", "target": "rooms/ledger.py"},
                                           {"action": "test"}]), SETTINGS)
    assert careful.value == 0.0


def test_canonical_match_against_a_library_entry():
    from detection.analysis.canonical_fixes import CanonicalFix

    entry = CanonicalFix(id="rooms/half-open/py", bug_type="boundary", language="python",
                         after="def overlaps(a, b, c, d):\n    return a < d and c < b\n",
                         before="def overlaps(a, b, c, d):\n    return a <= d and c < b\n")
    result = get_signal("canonical_match").evaluate(facts(library=(entry,)), SETTINGS)
    assert result.value == 1.0 and result.trigger == "flag"
    assert result.evidence["best"]["entry"] == "rooms/half-open/py"
    assert result.evidence["gold_overlap"]["overlap"] == 1.0
    assert get_signal("canonical_match").evaluate(facts(), SETTINGS).value is None


def test_composite_weights_thresholds_triggers_and_unknowns():
    weights = {"a": 0.30, "b": 0.35, "c": 0.20, "d": 0.15}
    results = {"a": SignalResult(1.0, {}, "fast"), "b": SignalResult(1.0, {}, "match"),
               "c": SignalResult(0.0, {}, "none"), "d": SignalResult(None, {}, "no trace")}
    composite = composite_score(results, weights, quarantine=0.7, flag=0.4, log=0.2)
    assert composite.value == 0.65 and composite.action == "flag" and composite.upper == 0.8
    assert "unknown: d" in composite.reason
    logged = composite_score({"c": SignalResult(1.0, {}, "canary", "flag", "canary code modified")},
                             weights, quarantine=0.7, flag=0.4, log=0.2)
    assert logged.value == 0.2 and logged.action == "flag" and "c demands flag" in logged.reason
    clean = composite_score({"a": SignalResult(0.0, {}, "ok")}, weights, quarantine=0.7, flag=0.4, log=0.2)
    assert clean.action == "none"
    assert composite_score({"d": SignalResult(None, {}, "?")}, weights, quarantine=0.7, flag=0.4,
                           log=0.2).value is None


def test_consistently_sub_median_solves_call_for_an_agent_audit():
    measured = TierSolveTimes(2, tuple(float(s) for s in range(40, 80)))
    consistent = facts(solve_seconds=30.0, tier_solve_times=measured, agent_solves=((20.0, 60.0), (50.0, 90.0)))
    result = get_signal("solve_time").evaluate(consistent, SETTINGS)
    assert result.evidence["agent_audit"] is True and "agent-level audit" in result.reason
    assert result.evidence["agent_sub_median"] == 3 and result.value == 0.0
    mixed = facts(solve_seconds=30.0, tier_solve_times=measured, agent_solves=((20.0, 60.0), (95.0, 90.0)))
    assert "agent_audit" not in get_signal("solve_time").evaluate(mixed, SETTINGS).evidence
