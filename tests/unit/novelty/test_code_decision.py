"""The code dedup decision: bands, enforcement modes, reasons, both comparison sets."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from challenges.novelty import CodeIndex, CodeThresholds, ConfigError, Enforcement, Verdict, code_check, code_signature
from challenges.novelty.code_decision import combine

from .test_code import JS_A, PY_A, PY_B, PY_C

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _index(**signatures):
    index = CodeIndex()
    for key, files in signatures.items():
        index.add(int(key[1:]), code_signature(files), NOW)
    return index


def test_a_renamed_copy_is_rejected_when_enforced_and_named_in_the_reason():
    window = _index(k7={"lib/sched.py": PY_A}, k8={"lib/total.py": PY_C})
    decision = code_check(code_signature({"app/d.py": PY_B}), window, label={7: "job-scheduler/python 1a2b"}.get)
    assert decision.verdict is Verdict.REJECT and decision.effective is Verdict.REJECT
    assert decision.score == 1.0 and decision.nearest.key == 7 and decision.nearest.source == "window"
    assert "recent instance job-scheduler/python 1a2b" in decision.reasons[0]
    assert "above the code reject threshold 0.50" in decision.reasons[0]


@pytest.mark.parametrize(("enforcement", "effective", "note"), [
    (Enforcement.ENFORCE, Verdict.REJECT, None),
    (Enforcement.REVIEW, Verdict.FLAG, "sent to manual review"),
    (Enforcement.OBSERVE, Verdict.ACCEPT, "recorded only"),
])
def test_enforcement_decides_what_a_reject_does(enforcement, effective, note):
    decision = code_check(code_signature({"a.py": PY_B}), _index(k1={"a.py": PY_A}), enforcement=enforcement)
    assert decision.verdict is Verdict.REJECT
    assert decision.effective is effective
    if note:
        assert note in decision.reasons[-1] and "novelty.code.enforcement" in decision.reasons[-1]
    else:
        assert len(decision.reasons) == 1


def test_the_flag_band_and_the_accept_band():
    window = _index(k1={"a.py": PY_A, "b.py": PY_C, "c.js": JS_A})
    candidate = code_signature({"x.py": PY_B})
    score = code_check(candidate, window).score
    assert 0 < score <= 1
    flagged = code_check(candidate, window, thresholds=CodeThresholds(reject=1.0, flag=score))
    assert flagged.verdict is Verdict.FLAG and "code review band" in flagged.reasons[0]
    accepted = code_check(code_signature({"t.py": PY_C}), _index(k2={"a.py": PY_A}))
    assert accepted.verdict is Verdict.ACCEPT and accepted.matches == ()
    assert "structurally novel" in accepted.reasons[0]


def test_hall_of_fame_is_compared_and_an_instance_is_not_its_own_match():
    window = _index(k3={"a.py": PY_A})
    hall = _index(k9={"a.py": PY_A})
    decision = code_check(code_signature({"b.py": PY_B}), window, hall, exclude=3)
    assert [(m.key, m.source) for m in decision.matches] == [(9, "hall_of_fame")]
    assert "hall-of-fame challenge" in decision.reasons[0]


def test_thresholds_are_validated_and_verdicts_combine_to_the_stricter():
    with pytest.raises(ConfigError):
        CodeThresholds(reject=0.3, flag=0.4)
    with pytest.raises(ConfigError):
        CodeThresholds(reject=1.5)
    assert combine(Verdict.ACCEPT_WITH_NOTE, Verdict.FLAG) is Verdict.FLAG
    assert combine(Verdict.REJECT, Verdict.ACCEPT) is Verdict.REJECT
    assert combine(Verdict.ACCEPT_WITH_NOTE, Verdict.ACCEPT) is Verdict.ACCEPT_WITH_NOTE
