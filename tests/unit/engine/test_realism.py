"""Realism of generated projects: prose, lexicon fit, history shape, identities, times.

Each tell a reviewer would spot is covered twice: the generator does not produce it
(sweeps over real draws), and the realism gate refuses it when planted.
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
from collections import Counter

import pytest

from challenges.engine import draw, generate, registry
from challenges.engine.gates import realism_gate
from challenges.engine.history import draw_people, member_times, people_groups
from challenges.engine.prose import article, grammar_problems, prose_of
from challenges.engine.realism import (
    dead_settings,
    error_fit_problems,
    identity_problems,
    time_problems,
    warning_problems,
)
from challenges.engine.render import render
from challenges.engine.styles import CommitVoice, past_tense
from tests.unit.engine.conftest import BY_KEY, make_instance
from tests.unit.engine.lexicon_fixture import LEXICONS

COMBOS = [(slug, lang) for slug, cls in sorted(registry().items()) for lang in cls.spec.languages]


def _instances(seeds: range) -> list:
    return [make_instance(slug, lang, seed) for slug, lang in COMBOS for seed in seeds]


# -- prose ----------------------------------------------------------------------

@pytest.mark.parametrize(("word", "expected"), [
    ("weather report", "a"), ("invoice", "an"), ("hour", "an"), ("unit", "a"), ("user", "a"),
    ("SLA", "an"), ("UUID", "a"), ("honest", "an"), ("one-off", "a"), ("European", "a"), ("umbrella", "an"),
])
def test_article_follows_sound(word, expected):
    assert article(word) == expected


def test_grammar_problems_flags_articles_and_agreement_in_prose_only():
    nouns = [("record", "records"), ("care order", "care orders")]
    assert grammar_problems("An weather report arrived.") == ["'An weather' should be 'A weather'"]
    assert grammar_problems("Returns a invoice.")
    assert grammar_problems("It keeps one records per day.", nouns)
    assert grammar_problems("We found three care order.", nouns)
    assert not grammar_problems("Two care order numbers and a record; an hour later, an SLA.", nouns)
    code = "def f(a, b):\n    x = a if b else None\n    return a\n"
    assert grammar_problems(prose_of("pkg/m.py", code)) == []
    assert grammar_problems(prose_of("pkg/m.py", '# A invoice is issued here\nx = 1\n'))


@pytest.mark.parametrize("text", [
    "Pass a url here.", "Pass a URL here.", "Make a URL-safe slug.", "Forward it to a SIEM.",
    "Forward it to an SIEM.", "Run an SQL query or a SQL query.", "An URL or a UUID.", "a user and a one-off",
    "an hour", "an HTTP client or a HTTP client",
])
def test_grammar_accepts_either_article_where_usage_differs(text):
    assert grammar_problems(text) == []


@pytest.mark.parametrize("text", ["An weather report arrived.", "Pick a apple.", "an user", "an one-off", "a hour"])
def test_grammar_still_refuses_articles_against_the_sound(text):
    assert grammar_problems(text)


def test_prose_of_reads_comments_and_docstrings_not_string_data():
    py = ('"""A apple module."""\nWORDS = ["a and", "a or"]\nx = f(\n    "a end",\n)\n\n\n'
          'def g():\n    """An weather report."""\n    return "a invoice"\n')
    assert grammar_problems(prose_of("tests/test_m.py", py)) == [
        "'A apple' should be 'An apple'", "'An weather' should be 'A weather'"]
    js = ("// A apple here\nassert.equal(list(['a', 'b']), 'a and b');\ntrace.push('a end');\n"
          "const u = 'http://x'; /* An weather report */\n")
    assert grammar_problems(prose_of("test/m.test.js", js)) == [
        "'A apple' should be 'An apple'", "'An weather' should be 'A weather'"]
    assert grammar_problems(prose_of("test/m.test.js", "schema.load({ URL: 'not a url with a and b' });\n")) == []
    assert grammar_problems("Sort a and b, then a or c.") == []


def test_article_reads_the_initialism_at_the_head_of_a_compound():
    assert article("URL-safe") == "a" and article("SLA-based") == "an"


def test_renderer_fits_an_article_written_before_a_placeholder():
    out = render('"""An {{e}} or a {{f}}."""\nA{{e}} x.a {{f}}', {"e": "weather report", "f": "invoice"}, {})
    assert out.text == '"""A weather report or an invoice."""\nAweather report x.a invoice'


def test_every_template_writes_grammatical_prose_and_fitting_errors():
    for instance in _instances(range(2)):
        result = realism_gate(instance)
        assert result.passed, (instance.template, instance.language, result.reasons)


# -- lexicon fit, logs, settings ------------------------------------------------

def test_error_fit_refuses_a_specific_name_raised_for_something_else():
    bad = {"pkg/config.py": 'raise InvalidTaxCode(f"unknown settings: {key}")\n',
           "src/a.js": "throw new BedDoubleBooked(`donation ${id} is already recorded`);\n"}
    problems = error_fit_problems(bad, {"InvalidTaxCode", "BedDoubleBooked"})
    assert len(problems) == 2 and "not about tax code" in problems[0]
    good = {"pkg/tax.py": 'raise InvalidTaxCode(f"tax code {code!r} is malformed")\n',
            "pkg/x.py": 'raise ValidationError("unknown settings")\n'}
    assert error_fit_problems(good, {"InvalidTaxCode", "ValidationError"}) == []


def test_generated_errors_fall_back_to_generic_names_where_the_lexicon_name_misfits():
    seen = Counter()
    for instance in _instances(range(2)):
        lex = instance.lexicon
        sources = {p: instance.files[p] for p in instance.source_paths}
        names = set(lex["errors"].values())
        assert error_fit_problems(sources, names) == [], instance.template
        seen.update(names)
    assert seen  # the sweep looked at something


def test_warning_on_every_call_and_dead_settings_are_refused():
    files = {"pkg/a.py": "import logging\nlogger = logging.getLogger(__name__)\n\n"
                         "def close(self):\n    logger.warning('closed; acks may lag')\n\n"
                         "def fail(job):\n    logger.warning('job failed')\n\n"
                         "def check(x):\n    if x:\n        logger.warning('odd')\n",
             "config/settings.json": '{"page_size": 10, "window_model": "half-open"}\n'}
    files["pkg/b.py"] = "PAGE = settings['page_size']\n"
    assert [p.split(":")[2].strip() for p in warning_problems(files, ["pkg/a.py"])] == [
        "close() logs a warning on every call"]
    js = ("class Writer {\n  close() {\n    this._logger?.warn(`closed`);\n    if (odd) {\n      console.warn('odd');\n"
          "    }\n  }\n\n  fail(job) {\n    console.warn('failed');\n  }\n}\n")
    assert warning_problems({"src/w.js": js}, ["src/w.js"]) == ["src/w.js:3: close() logs a warning on every call"]
    assert dead_settings(files, ["pkg/a.py", "pkg/b.py"]) == [
        "config/settings.json: 'window_model' is documented but no source reads it"]


# -- identities -------------------------------------------------------------------

def test_people_come_in_locale_pairs_and_avoid_used_surnames():
    groups = people_groups()
    rng = random.Random(5)
    used: set[str] = set()
    for _ in range(60):
        people = draw_people(rng, 5, avoid=used)
        for first, last, locale in people:
            assert first in groups[locale]["first"] and last in groups[locale]["last"]
            assert last.lower() not in used
        used |= {last.lower() for _, last, _ in people}
    assert len(used) == 300


def test_identity_reuse_is_refused():
    assert identity_problems(["Ana Souza"], {"Ana Souza"}, set()) == [
        "contributor 'Ana Souza' already appears in another project"]
    assert identity_problems(["Rui Souza"], set(), {"souza"})
    assert identity_problems(["Rui Lima"], {"Ana Souza"}, {"souza"}) == []


def test_draw_records_people_and_avoids_registry_surnames():
    used = {last.lower() for group in people_groups().values() for last in group["last"][:200]}
    d = draw("booking-ledger", "python", random.Random(3), lexicons=LEXICONS, avoid_surnames=used)
    assert 3 <= len(d.people) <= 6 and not {p[1].lower() for p in d.people} & used
    again = type(d).from_json(d.to_json())
    assert again == d
    instance = generate(d, lexicon=BY_KEY[d.lexicon_key])
    assert {p.name for p in instance.history.people} <= {f"{f} {s}" for f, s, _ in d.people}
    gate = realism_gate(instance, used_surnames={d.people[0][1].lower()})
    assert not gate.passed and "identity_reuse" in gate.reasons[0]


# -- history shape ----------------------------------------------------------------

def test_histories_have_branches_reverts_fixups_bodies_and_applied_commits():
    instances = _instances(range(3))
    merges = reverts = typo_fixes = bodies = applied = 0
    voices = set()
    for instance in instances:
        ids = [c.id for c in instance.history.commits]
        for commit in instance.history.commits:
            merges += len(commit.parents) > 1
            applied += commit.committer != commit.author
            bodies += "\n\n" in commit.message.strip()
            if commit.message.startswith("Revert "):
                reverts += 1
                ref = re.search(r"This reverts commit ([0-9a-f]{40})\.", commit.message).group(1)
                assert ref in ids[: ids.index(commit.id)]
            typo_fixes += commit.kind == "fixup"
        voices.add(CommitVoice.draw(random.Random(instance.draw.history_seed ^ 0x0B0D_1E55), "x").voice)
    assert merges and reverts and typo_fixes and applied and bodies
    assert len(voices) >= 4


def test_merge_history_is_what_git_reads(tmp_path):
    instance = next(i for i in _instances(range(3)) if any(len(c.parents) > 1 for c in i.history.commits))
    repo = instance.history.write(tmp_path / "ws")
    graph = subprocess.run(["git", "log", "--graph", "--format=%h %p", "--all"], cwd=repo, capture_output=True,
                           text=True, check=True).stdout
    assert "|\\" in graph or "|/" in graph
    merges = subprocess.run(["git", "rev-list", "--merges", "HEAD"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout.split()
    assert set(merges) == {c.id for c in instance.history.commits if len(c.parents) > 1}
    fsck = subprocess.run(["git", "fsck", "--strict"], cwd=repo, capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stderr


def test_readme_and_changelog_layouts_vary_across_projects():
    instances = _instances(range(3))
    openings = Counter()
    changelogs = Counter()
    for instance in instances:
        readme = instance.files["README.md"]
        openings[tuple(re.findall(r"^(?:#+ .+|.+\n[=-]{3,})$", readme, re.M)[1:3])] += 1
        changelogs[next(p for p in instance.files if p in ("CHANGELOG.md", "NEWS.md"))] += 1
        assert "Settings are read from" not in readme or "config/settings.json" in instance.files
    assert len(openings) >= 6 and len(changelogs) == 2


def test_past_tense():
    assert [past_tense(v) for v in ("Add", "Retry", "Wrap", "Read", "Parse", "Give")] == [
        "Added", "Retried", "Wrapped", "Read", "Parsed", "Gave"]
    voice = CommitVoice(random.Random(1), "x", "past")
    assert voice.subject("feature", "Place, confirm and release holds") == "Placed, confirmed and released holds"
    assert voice.subject("feature", "Add the scheduler: submit, claim") == "Added the scheduler: submit, claim"
    assert voice.subject("docs", "Document the x module and expand the README") == (
        "Documented the x module and expanded the README")


def test_sample_data_is_the_domains_own():
    for instance in _instances(range(1)):
        for path, text in instance.files.items():
            assert not re.search(r"[A-Z][a-z]+ [A-Z][a-z]+ (north|south|east|annex|depot|first|second|[ABC])['\"]",
                                 text), (instance.template, path)


# -- times ------------------------------------------------------------------------

def test_file_times_follow_history_and_planted_disorder_is_refused():
    instance = make_instance("paged-listing-cache", "python", 1)
    assert time_problems(instance.history) == []
    times = member_times(instance.history)
    assert set(instance.files) <= set(times)
    history = dataclasses.replace(instance.history)
    path = instance.history.commits[-1].changed[0] if instance.history.commits[-1].changed else next(iter(times))
    history.file_times = {**instance.history.file_times, path: instance.history.commits[0].timestamp - 10}
    problems = time_problems(history)
    assert problems and any(path in p for p in problems)
