"""The provenance index on public code nobody here wrote: the Python standard library
and installed packages indexed as "public code"."""

from __future__ import annotations

import difflib
import inspect
import sysconfig
import textwrap
from pathlib import Path

import pytest

from detection.analysis.errors import InvalidParameterError
from detection.analysis.provenance import ProvenanceIndex, ProvenanceParams, source_tokens

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MODULES = ["difflib", "textwrap", "heapq", "bisect", "shlex", "fnmatch", "calendar", "colorsys", "statistics",
           "string", "glob", "base64", "csv", "ipaddress", "fractions"]


@pytest.fixture(scope="module")
def index():
    built = ProvenanceIndex()
    for name in MODULES:
        built.add(f"stdlib/{name}.py", (STDLIB / f"{name}.py").read_text("utf-8"), "python")
    import idna.core  # an installed package: "public code" too
    built.add("site-packages/idna/core.py", Path(idna.core.__file__).read_text("utf-8"), "python")
    return built


def _lines(obj) -> tuple[int, int]:
    source, first = inspect.getsourcelines(obj)
    return first, first + len(source) - 1


def test_a_pasted_function_with_light_renaming_is_found_with_its_source_lines(index):
    code = textwrap.dedent(inspect.getsource(difflib.SequenceMatcher.find_longest_match))
    disguised = (code.replace("besti", "start_a").replace("bestj", "start_b").replace("bestsize", "length")
                 .replace("j2len", "run_lengths").replace("# ", "# note: "))
    solution = "import sys\n\n\ndef helper(values):\n    return sorted(set(values))\n\n\n" + disguised
    found = index.query(solution, "python")
    assert found and found[0].source == "stdlib/difflib.py"
    first, last = _lines(difflib.SequenceMatcher.find_longest_match)
    start, end = found[0].source_lines
    assert first <= start and end <= last and (end - start) >= 0.8 * (last - first)
    # and where in the solution: after the 7 lines of the solution's own code
    assert found[0].spans[0].snippet_lines[0] >= 8
    assert found[0].as_dict()["source_lines"] == [start, end]


def test_code_from_an_installed_package_is_found_too(index):
    import idna.core

    code = textwrap.dedent(inspect.getsource(idna.core.check_bidi)).replace("direction", "kind")
    found = index.query(code, "python")
    assert found and found[0].source == "site-packages/idna/core.py"
    first, last = _lines(idna.core.check_bidi)
    assert first <= found[0].source_lines[0] <= found[0].source_lines[1] <= last


def test_independent_code_is_not_found(index):
    independent = '''
def longest_common_run(a, b):
    """Length and start of the longest run of equal items."""
    best = (0, 0, 0)
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a, 1):
        for j, y in enumerate(b, 1):
            if x == y:
                table[i][j] = table[i - 1][j - 1] + 1
                if table[i][j] > best[0]:
                    best = (table[i][j], i - table[i][j], j - table[i][j])
    return best


def wrap_words(text, width):
    lines, current = [], ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return lines + ([current] if current else [])
'''
    assert index.query(independent, "python") == []


def test_the_index_survives_a_save_and_load(index, tmp_path):
    path = tmp_path / "public.npz"
    index.save(path)
    loaded = ProvenanceIndex.load(path)
    code = inspect.getsource(difflib.SequenceMatcher.find_longest_match)
    assert [m.as_dict() for m in loaded.query(code, "python")] == [m.as_dict() for m in index.query(code, "python")]
    assert loaded.fingerprint_count == index.fingerprint_count and loaded.sources == index.sources


def test_boilerplate_shared_by_many_sources_is_ignored():
    built = ProvenanceIndex(ProvenanceParams(max_sources=2, min_fingerprints=1, min_share=0.1))
    common = "if __name__ == '__main__':\n    import sys\n    sys.exit(main(sys.argv[1:]) or 0)\n"
    for k in range(3):
        built.add(f"tool{k}.py", f"def main(args):\n    return len(args) * {k}\n\n\n" + common, "python")
    assert built.query(common, "python") == []


def test_tokens_blind_names_literals_and_comments():
    assert source_tokens("x = 'a'  # c\ny = 2\n", "python") == [
        ("V", 1), ("=", 1), ("S", 1), ("V", 2), ("=", 2), ("N", 2)]
    assert source_tokens("let total = items.length; // n\n", "javascript")[:4] == [
        ("let", 1), ("V", 1), ("=", 1), ("V", 1)]


def test_bad_parameters_are_refused():
    with pytest.raises(InvalidParameterError):
        ProvenanceParams(k=0)


def test_a_directory_is_indexed_without_the_directories_it_skips(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "vendor").mkdir()
    body = "def f(values):\n    return sorted(v * 2 for v in values if v)\n"
    (tmp_path / "pkg" / "a.py").write_text(body)
    (tmp_path / "vendor" / "b.py").write_text(body)
    (tmp_path / "notes.txt").write_text("not code")
    built = ProvenanceIndex()
    assert built.add_directory(tmp_path, prefix="public/", skip=("vendor",)) == 1
    assert built.sources == ["public/pkg/a.py"]
