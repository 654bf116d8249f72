"""Hypothesis strategies for fingerprints drawn from small vocabularies (many overlaps)."""

from __future__ import annotations

from hypothesis import strategies as st

from challenges.novelty.fingerprint import Fingerprint
from challenges.novelty.similarity import Weights

WORDS = ["off", "by", "one", "race", "lock", "cache", "null", "loop", "bound", "index"]
ITEMS = ["python", "go", "redis", "postgres", "kafka", "async", "retry", "C++", "c#"]

text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=4).map(" ".join)
non_empty_text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map("-".join)
item_set = st.lists(st.sampled_from(ITEMS), min_size=0, max_size=4)

fingerprints = st.builds(
    Fingerprint,
    bug_type=non_empty_text,
    bug_location=text,
    architecture=text,
    domain=text,
    tech_stack=item_set,
    solution_approach=text,
    complexity_tier=st.integers(1, 5),
    red_herring_types=item_set,
    key_concepts=item_set,
)


@st.composite
def weights(draw: st.DrawFn) -> Weights:
    if draw(st.booleans()):
        return Weights()
    names = list(Weights().to_dict())
    raw = [draw(st.integers(0, 10)) for _ in names]
    if sum(raw) == 0:
        raw[0] = 1
    total = sum(raw)
    values = [r / total for r in raw]
    # make the sum exact-enough for validation whatever the rounding
    values[0] += 1.0 - sum(values)
    values[0] = max(values[0], 0.0)
    return Weights(**dict(zip(names, values, strict=True)))
