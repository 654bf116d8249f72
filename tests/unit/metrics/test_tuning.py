from detection.metrics.tuning import propose_threshold


def test_the_best_cut_within_the_false_positive_target_is_proposed_with_its_effect():
    planted = [0.9, 0.8, 0.35, 0.3]
    clean = [0.1, 0.15, 0.2, 0.25, 0.05]
    proposal = propose_threshold(setting="detection.threshold.flag", current=0.4, planted=planted, clean=clean,
                                 false_positive_max=0.05)
    assert (proposal.detection_now, proposal.false_positive_now) == (0.5, 0.0)
    # 0.25 flags nothing clean (scores must be above the cut) and catches every planted unit.
    assert proposal.proposed == 0.25 and proposal.detection_then == 1.0 and proposal.false_positive_then == 0.0
    assert "from 0.4 to 0.25" in proposal.reason


def test_no_acceptable_cut_keeps_the_current_one_and_says_why():
    proposal = propose_threshold(setting="s", current=0.4, planted=[0.5], clean=[0.99], false_positive_max=0.0,
                                 candidates=[0.1, 0.5])
    assert proposal.proposed == 0.4 and "no cut keeps" in proposal.reason


def test_nothing_to_propose_without_both_kinds_of_unit():
    assert propose_threshold(setting="s", current=0.4, planted=[], clean=[0.1], false_positive_max=0.05) is None
