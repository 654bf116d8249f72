"""Code-level dedup core: erasure, winnowing, signatures, the LSH index and shared regions."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from challenges.novelty.code import (
    CodeIndex,
    CodeSignature,
    candidate_probability,
    code_signature,
    compare,
    kgram_hashes,
    shared_regions,
    source_files,
    structure_tokens,
    winnow,
)
from challenges.novelty.errors import CodeSignatureError, WindowIndexError

NOW = datetime(2026, 6, 1, tzinfo=UTC)

PY_A = '''
import os

RETRIES = 3


class Scheduler:
    """Runs jobs by priority."""

    def __init__(self, queue, limit=10):
        self.queue = queue  # pending jobs
        self.limit = limit

    def run(self, jobs):
        done = []
        for job in jobs:
            if job.priority > self.limit:
                continue
            try:
                done.append(job.execute(os.environ.get("MODE", "fast")))
            except ValueError as exc:
                raise RuntimeError("job failed") from exc
        return done
'''

# The same program under other names, strings, numbers and comments.
PY_B = '''
import sys

ATTEMPTS = 7


class Dispatcher:
    """Dispatches parcels."""

    def __init__(self, backlog, ceiling=99):
        # a different comment
        self.backlog = backlog
        self.ceiling = ceiling

    def go(self, parcels):
        sent = []
        for parcel in parcels:
            if parcel.weight > self.ceiling:
                continue
            try:
                sent.append(parcel.ship(sys.environ.get("ROUTE", "slow")))
            except ValueError as err:
                raise RuntimeError("parcel lost") from err
        return sent
'''

# Different structure: a while loop, early return, no exception handling.
PY_C = '''
def total(values, cap):
    index = 0
    acc = 0
    while index < len(values):
        if acc > cap:
            return cap
        acc += values[index] * 2
        index += 1
    return acc
'''

JS_A = '''
const MAX = 5;
// keeps the ledger
class Ledger {
  constructor(entries) { this.entries = entries; }
  balance(account) {
    let sum = 0;
    for (const e of this.entries) {
      if (e.account === account) { sum += e.amount * 1.5; }
    }
    return `${account}: ${sum}`;
  }
}
module.exports = { Ledger, MAX };
'''

JS_B = '''
const LIMIT = 99;
class Inventory {
  constructor(items) { this.items = items; }
  count(sku) {
    let n = 0;
    for (const it of this.items) {
      if (it.sku === sku) { n += it.qty * 7; }
    }
    return `${sku} -> ${n}`;
  }
}
module.exports = { Inventory, LIMIT };
'''


def _tokens(source: str, language: str) -> list[str]:
    return [token for token, _ in structure_tokens(source, language)]


def test_renaming_strings_numbers_and_comments_do_not_change_python_structure():
    assert _tokens(PY_A, "python") == _tokens(PY_B, "python")
    assert "I" in _tokens(PY_A, "python") and "Scheduler" not in _tokens(PY_A, "python")
    assert _tokens(PY_A, "python") != _tokens(PY_C, "python")


def test_renaming_does_not_change_javascript_structure():
    assert _tokens(JS_A, "javascript") == _tokens(JS_B, "javascript")
    assert "class" in _tokens(JS_A, "javascript") and "Ledger" not in _tokens(JS_A, "javascript")


def test_python_blocks_are_bracketed_so_indentation_counts():
    nested = "if a:\n    if b:\n        x()\n    y()\n"
    flat = "if a:\n    if b:\n        x()\ny()\n"
    assert _tokens(nested, "python") != _tokens(flat, "python")


def test_tokens_carry_their_lines():
    lines = dict((line, token) for token, line in structure_tokens("a = 1\n\nb = 'x'\n", "python"))
    assert set(lines) == {1, 3}


def test_source_files_leave_out_tests_and_non_code():
    files = {"app/core.py": "x = 1\n", "tests/test_core.py": "", "app/test_util.py": "", "README.md": "",
             "src/a.js": "", "test/a.test.js": "", "src/b.spec.js": "", "conftest.py": ""}
    assert list(source_files(files)) == ["app/core.py", "src/a.js"]


def test_winnowing_guarantees_a_common_fingerprint_for_long_shared_runs():
    rng = random.Random(7)
    k, w = 5, 4
    for _ in range(50):
        shared = [rng.choice("abcdefgh") for _ in range(k + w - 1)]
        left = [rng.choice("xyz") for _ in range(rng.randint(0, 30))] + shared
        right = shared + [rng.choice("pqr") for _ in range(rng.randint(0, 30))]
        hl, hr = kgram_hashes(left, k), kgram_hashes(right, k)
        assert set(hl[winnow(hl, w)].tolist()) & set(hr[winnow(hr, w)].tolist())


def test_winnow_of_short_and_empty_inputs():
    assert winnow(np.empty(0, dtype=np.uint32), 4).tolist() == []
    assert winnow(np.array([5, 1, 1], dtype=np.uint32), 4).tolist() == [2]


def test_a_renamed_instance_is_identical_and_a_different_one_is_not():
    a = code_signature({"pkg/sched.py": PY_A, "tests/test_sched.py": PY_C})
    b = code_signature({"other/dispatch.py": PY_B})
    c = code_signature({"pkg/total.py": PY_C})
    assert a.files == ("pkg/sched.py",)
    same = compare(a, b)
    assert same.jaccard == 1.0 and same.containment == 1.0 and same.shared == len(a)
    assert compare(a, c).shared == 0 and compare(a, c).score == 0.0


def test_containment_catches_an_instance_built_from_part_of_an_earlier_one():
    big = code_signature({"a.py": PY_A, "b.py": PY_C})
    part = code_signature({"x.py": PY_B})
    match = compare(part, big)
    assert match.containment == 1.0
    assert match.jaccard < 1.0
    assert match.score == 1.0


def test_signature_round_trips_through_its_dict():
    sig = code_signature({"a.py": PY_A, "src/b.js": JS_A})
    back = CodeSignature.from_dict(sig.to_dict())
    assert back.files == sig.files and back.tokens == sig.tokens and back.params == sig.params
    for name in ("hashes", "file", "start", "end", "unique", "minhash"):
        assert np.array_equal(getattr(back, name), getattr(sig, name))
    assert compare(back, sig).jaccard == 1.0


@pytest.mark.parametrize("bad", [None, [], {"version": 1}, {**code_signature({"a.py": PY_A}).to_dict(), "file": "!!"}])
def test_malformed_signatures_are_refused(bad):
    with pytest.raises(CodeSignatureError) as caught:
        CodeSignature.from_dict(bad)
    assert caught.value.code == "signature_invalid"


def test_signatures_of_other_parameters_are_not_compared():
    with pytest.raises(CodeSignatureError) as caught:
        compare(code_signature({"a.py": PY_A}), code_signature({"a.py": PY_A}, k=6))
    assert caught.value.code == "signature_params"


def test_shared_regions_point_at_the_matching_lines_in_both_instances():
    earlier = code_signature({"lib/total.py": PY_C, "lib/sched.py": PY_A})
    candidate = code_signature({"app/dispatch.py": "\n\n\n" + PY_B})
    regions = shared_regions(candidate, earlier)
    assert regions, "the renamed class must be found"
    top = regions[0]
    assert (top.path, top.other_path) == ("app/dispatch.py", "lib/sched.py")
    # PY_B was shifted by three lines; the span moves with it.
    assert top.start - top.other_start == 3
    assert top.other_start >= 2 and top.other_end <= PY_A.count("\n") + 1
    assert shared_regions(candidate, code_signature({"z.py": PY_C})) == []


def _mutated(base: CodeSignature, keep: float, rng: np.random.Generator) -> CodeSignature:
    """``base`` with a share of its fingerprints replaced by fresh ones."""
    hashes = base.hashes.copy()
    change = rng.random(len(hashes)) > keep
    hashes[change] = rng.integers(0, 2**32, size=int(change.sum()), dtype=np.uint32)
    unique = np.unique(hashes)
    from challenges.novelty.code import minhash

    return CodeSignature(files=base.files, tokens=base.tokens, hashes=hashes, file=base.file, start=base.start,
                         end=base.end, unique=unique, minhash=minhash(unique))


def test_index_finds_the_near_copies_with_exact_scores_and_skips_unrelated_code():
    rng = np.random.default_rng(3)
    base = code_signature({"a.py": PY_A, "b.py": PY_C, "c.js": JS_A})
    near = {key: _mutated(base, keep, rng) for key, keep in ((1, 0.9), (2, 0.7), (3, 0.5))}
    unrelated = {10 + i: _mutated(base, 0.0, rng) for i in range(50)}
    index = CodeIndex()
    index.add_many((key, sig, NOW) for key, sig in {**near, **unrelated}.items())
    found = index.nearest(base, k=5)
    assert [m.key for m in found][:3] == [1, 2, 3]
    for match in found:
        exact = compare(base, {**near, **unrelated}[match.key])
        assert (match.jaccard, match.containment, match.shared) == pytest.approx(
            (exact.jaccard, exact.containment, exact.shared))
    assert all(m.key < 10 for m in found), "unrelated code shares no fingerprints"
    assert [m.key for m in index.nearest(base, k=5, exclude=1)][:2] == [2, 3]


def test_lsh_recall_in_the_flag_band_is_near_certain():
    assert candidate_probability(0.35) > 0.999
    assert candidate_probability(0.2) > 0.9


def test_index_remove_expire_and_compact_keep_lookups_exact():
    rng = np.random.default_rng(5)
    base = code_signature({"a.py": PY_A, "b.py": PY_C})
    index = CodeIndex()
    for key in range(600):
        index.add(key, _mutated(base, 0.8, rng), NOW - timedelta(days=key % 100))
    assert len(index) == 600
    assert index.remove(0) and not index.remove(0)
    expired = index.expire(NOW - timedelta(days=49, hours=1))
    assert expired == sum(1 for key in range(1, 600) if key % 100 >= 50)
    live = set(index.keys())
    assert live == {key for key in range(1, 600) if key % 100 < 50}
    assert {m.key for m in index.nearest(base, k=1000)} <= live
    assert len(index.nearest(base, k=1000)) == len(live)


def test_index_refuses_misuse():
    sig = code_signature({"a.py": PY_A})
    index = CodeIndex()
    index.add(1, sig, NOW)
    with pytest.raises(WindowIndexError):
        index.add(1, sig, NOW)
    with pytest.raises(WindowIndexError):
        index.add(2, sig, datetime(2026, 1, 1))
    with pytest.raises(CodeSignatureError):
        index.add(3, code_signature({"a.py": PY_A}, w=5), NOW)
    assert len(index) == 1


@pytest.mark.parametrize("size", [0, 1, 7, 600, 5000])
def test_query_set_membership_is_exact(size):
    from challenges.novelty.code import _QuerySet

    rng = np.random.default_rng(size)
    values = np.unique(np.concatenate([rng.integers(0, 2**32, size=size, dtype=np.uint32),
                                       np.array([0, 1], dtype=np.uint32)[: min(size, 2)]]))
    probes = np.concatenate([values, rng.integers(0, 2**32, size=20_000, dtype=np.uint32),
                             np.arange(0, 40, dtype=np.uint32)])
    assert np.array_equal(_QuerySet(values).contains(probes), np.isin(probes, values))
