import pytest

from detection.batch.copies import CopyParams, PairRecord, copy_pairs, poisson_binomial_tail


def _challenge(name: str, agents: list[int], close: set[frozenset[int]], far: float = 0.4) -> list[PairRecord]:
    return [PairRecord(name, a, b, 0.0 if frozenset((a, b)) in close else far)
            for i, a in enumerate(agents) for b in agents[i + 1:]]


def test_poisson_binomial_tail_is_exact():
    assert poisson_binomial_tail([0.5, 0.5], 2) == pytest.approx(0.25)
    assert poisson_binomial_tail([0.1, 0.2, 0.3], 1) == pytest.approx(1 - 0.9 * 0.8 * 0.7)
    assert poisson_binomial_tail([0.5], 2) == 0.0
    assert poisson_binomial_tail([], 0) == 1.0


def test_a_pair_close_on_two_diverse_challenges_is_a_copy_pair():
    ring = frozenset((1, 2))
    agents = list(range(1, 9))  # 28 pairs a challenge, only the ring's close: chance 1/28
    pairs = _challenge("c1", agents, {ring}) + _challenge("c2", agents, {ring})
    (found,) = copy_pairs(pairs)
    assert found.agents == (1, 2) and found.copy
    assert found.p_value == pytest.approx((1 / 28) ** 2)
    assert "2 of the 2 challenges" in found.reason


def test_everyone_converging_on_the_same_fix_is_no_evidence_of_copying():
    agents = list(range(1, 7))
    everyone = {frozenset((a, b)) for a in agents for b in agents if a < b}
    pairs = _challenge("c1", agents, everyone) + _challenge("c2", agents, everyone) + _challenge("c3", agents,
                                                                                                 everyone)
    found = copy_pairs(pairs)
    assert found and not any(pair.copy for pair in found)
    assert all(pair.p_value == pytest.approx(1.0) for pair in found)


def test_one_close_challenge_is_not_enough_and_same_owner_pairs_are_left_out():
    ring = frozenset((1, 2))
    assert copy_pairs(_challenge("c1", list(range(1, 9)), {ring})) == []
    same_owner = [PairRecord("c1", 1, 2, 0.0, cross_owner=False), PairRecord("c2", 1, 2, 0.0, cross_owner=False),
                  PairRecord("c1", 1, 3, 0.5), PairRecord("c2", 1, 3, 0.5)]
    assert copy_pairs(same_owner) == []


def test_parameters_are_checked():
    with pytest.raises(ValueError):
        CopyParams(alpha=0.0)
    looser = CopyParams(min_challenges=1, alpha=0.1)
    (found,) = copy_pairs(_challenge("c1", list(range(1, 9)), {frozenset((1, 2))}), looser)
    assert found.copy
