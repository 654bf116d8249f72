"""The ``analyze_solutions`` management command, called as staff would."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

ORIGINAL = "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"
COPY = ("def add_up(values):\n    # disguised\n    acc = 0\n    i = 0\n    while i < len(values):\n"
        "        acc = acc + values[i]\n        i += 1\n    return acc\n")
OTHER = "def total(xs):\n    return sum(x for x in xs if x is not None)\n"


@pytest.fixture
def solutions(tmp_path):
    (tmp_path / "a.py").write_text(ORIGINAL)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "main.py").write_text(COPY)
    (tmp_path / "b" / "notes.txt").write_text("not source")
    (tmp_path / "c.py").write_text(OTHER)
    (tmp_path / "broken.py").write_text("def f(:\n")
    canon = tmp_path / "canon" / "accumulate"
    canon.mkdir(parents=True)
    (canon / "sum_loop.py").write_text(ORIGINAL)
    return tmp_path


def run(*args: str) -> str:
    out = StringIO()
    call_command("analyze_solutions", *args, stdout=out)
    return out.getvalue()


def test_json_output(solutions):
    paths = [str(solutions / n) for n in ("a.py", "b", "c.py", "broken.py")]
    output = run("--language", "python", "--tier", "4", "--canonical", str(solutions / "canon"), "--json", *paths)
    data = json.loads(output.strip().splitlines()[-1])
    assert set(data) == {"language", "rules", "solutions", "pairs", "convergence", "canonical_matches", "errors"}
    assert [s["name"] for s in data["solutions"]] == paths[:3]
    pairs = {(p["a"], p["b"]): p["distance"] for p in data["pairs"]}
    assert pairs[(paths[0], paths[1])] == 0.0
    assert pairs[(paths[0], paths[2])] > 0.25
    assert data["convergence"]["band"] == "weak"
    assert data["convergence"]["score"] == pytest.approx(0.6)  # 0.4 + 0.2 for tier 4
    assert data["convergence"]["investigate"] is False
    assert {(m["solution"], m["canonical"], m["level"]) for m in data["canonical_matches"]} == {
        (paths[0], "accumulate/sum_loop", "strong"), (paths[1], "accumulate/sum_loop", "strong")}
    assert [(e["solution"], e["line"]) for e in data["errors"]] == [(paths[3], 1)]


def test_text_output_names_the_band_and_every_pair(solutions):
    output = run("--language", "python", str(solutions / "a.py"), str(solutions / "b"), str(solutions / "c.py"))
    assert output.count(" ~ ") == 3
    assert "convergence: 0.40 (band weak" in output
    assert "canonical matches: none" in output


def test_directory_errors_name_the_file_and_its_own_line(solutions):
    (solutions / "d").mkdir()
    (solutions / "d" / "a.py").write_text(ORIGINAL)
    (solutions / "d" / "b.py").write_text("x = 1\ny = (\n")
    data = json.loads(run("--language", "python", "--json", str(solutions / "d"), str(solutions / "a.py")))
    [error] = data["errors"]
    assert error["path"] == str(solutions / "d" / "b.py") and error["line"] == 2
    assert error["solution"] == str(solutions / "d")


def test_missing_path_is_a_command_error(solutions):
    with pytest.raises(CommandError, match="analysis_missing_path"):
        run("--language", "python", str(solutions / "nope.py"))


def test_language_must_be_supported(solutions):
    with pytest.raises(CommandError):
        run("--language", "cobol", str(solutions / "a.py"))
