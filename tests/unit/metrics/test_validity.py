from detection.metrics.validity import MET, OPEN, PARTLY, InstanceFacts, TierFacts, ValidityFacts, validity_checklist


def facts(**changes):
    base = dict(
        scores=10, under_review=0, invalidated=1,
        instances=[InstanceFacts(0.9, 0.95), InstanceFacts(0.8, 0.92)],
        tiers=[TierFacts(2, 5, 3, 0.65, 0.80)], mutation_threshold=0.9,
        decided_attempts=20, solved_attempts=10, k=3, pass_at_k=[0.5, 0.75], challenges_below_k=0,
        agents=4, agents_reporting_cost=3, latency_count=20, latency_p50=300.0, latency_p95=1200.0,
    )
    return ValidityFacts(**{**base, **changes})


def states(f):
    return {t.key: t.state for t in validity_checklist(f)}


def test_a_well_evidenced_report():
    assert states(facts()) == {"contamination": MET, "test_adequacy": MET, "retries": MET, "production_gap": PARTLY}
    contamination, adequacy, retries, gap = validity_checklist(facts())
    assert contamination.evidence[0] == "10 scores: 0 under review, 1 invalidated by the contamination checks"
    assert "uniqueness mean 0.85, lowest 0.80" in contamination.evidence[1]
    assert "tier 2: 3 of 5 attempts solved (60 %); expected 65 %–80 %" in adequacy.evidence
    assert retries.evidence[0] == "pass@1 50 % over n = 20 decided attempts"
    assert "synthetic" in gap.reason and "cost reported by 3 of 4 agents" in gap.evidence


def test_scores_under_review_leave_contamination_partly_met():
    assert states(facts(under_review=2))["contamination"] == PARTLY


def test_missing_or_weak_evidence():
    weak = facts(instances=[InstanceFacts(0.9, 0.5), InstanceFacts(None, None)], challenges_below_k=3)
    assert states(weak) == {"contamination": PARTLY, "test_adequacy": PARTLY, "retries": PARTLY,
                            "production_gap": PARTLY}
    nothing = facts(instances=[], tiers=[], decided_attempts=0, solved_attempts=0, pass_at_k=[], latency_count=0,
                    latency_p50=None, latency_p95=None, scores=0, invalidated=0, agents=0, agents_reporting_cost=0)
    assert set(states(nothing).values()) == {OPEN}
