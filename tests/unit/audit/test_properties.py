"""Property tests: archives are deterministic and round-trip; terms match in every spelling."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from challenges.audit import build_archive, safe_extract
from challenges.audit.text import TermMatcher, WordIndex

segment = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
paths = st.lists(segment, min_size=1, max_size=3).map("/".join)
contents = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)


def _no_prefix_clash(files: dict[str, str]) -> bool:
    names = set(files)
    return not any(other.startswith(name + "/") for name in names for other in names)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(paths, contents, min_size=1, max_size=8).filter(_no_prefix_clash),
       st.integers(min_value=0, max_value=2**31 - 1))
def test_archive_is_deterministic_and_round_trips(files, mtime):
    first = build_archive(files, top_dir="ws-0000000000000000", mtime=mtime)
    again = build_archive(dict(reversed(list(files.items()))), top_dir="ws-0000000000000000", mtime=mtime)
    assert first == again
    with tempfile.TemporaryDirectory() as tmp:
        safe_extract(first, Path(tmp) / "out")
        for rel, text in files.items():
            assert (Path(tmp) / "out" / "ws-0000000000000000" / rel).read_bytes() == text.encode("utf-8")


word = st.from_regex(r"[a-z]{3,8}", fullmatch=True)


@given(st.lists(word, min_size=2, max_size=3))
def test_every_spelling_of_a_slug_matches(parts):
    matcher = TermMatcher.compile("-".join(parts))
    spellings = [
        "-".join(parts), "_".join(parts), " ".join(parts), "_".join(parts).upper(),
        parts[0] + "".join(p.capitalize() for p in parts[1:]), "".join(p.capitalize() for p in parts),
    ]
    for spelling in spellings:
        assert matcher.hits(WordIndex(f"x = {spelling}()\n")), spelling
