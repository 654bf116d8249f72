"""Check 2: catalogue vocabulary is caught on every surface, in every spelling."""

from __future__ import annotations

import pytest

from challenges.audit import AuditTarget, CatalogueTerm, run_audit
from challenges.audit.text import TermMatcher, WordIndex, words
from tests.unit.audit.builders import MARA, CommitSpec, RepoSpec, clean_history, write_repo
from tests.unit.audit.conftest import make_context


def audit(target: AuditTarget, **context):
    return run_audit(target, make_context(**context), checks=["identifiers"])


def test_words_split_identifiers():
    assert [w.text for w in words("RateLimiter rate_limiter RATE-LIMITER HTTPServer v2Api e89b")] == [
        "rate", "limiter", "rate", "limiter", "rate", "limiter", "http", "server", "v2", "api", "e89b"]


@pytest.mark.parametrize("text", ["class RateLimiter:", "rate_limiter = 1", "RATE-LIMITER", "rateLimiter()",
                                  "a rate\nlimiter", "import ratelimiter", "Ratelimiter"])
def test_slug_matches_every_spelling(text):
    assert TermMatcher.compile("rate-limiter").hits(WordIndex(text))


@pytest.mark.parametrize("text", ["ratelimiterpool", "rate", "limiter", "moderate limiter", "rate limiters"])
def test_slug_does_not_match_inside_other_words(text):
    assert not TermMatcher.compile("rate-limiter").hits(WordIndex(text))


def test_fused_form_of_an_ordinary_word_is_not_matched():
    matcher = TermMatcher.compile("time-out")
    assert not matcher.hits(WordIndex("DEFAULT_TIMEOUT = 30"))
    assert matcher.hits(WordIndex("time_out = 30"))
    assert not TermMatcher.compile("berth-ledger", frozenset({"berthledger"})).hits(WordIndex("berthledger"))


def test_slug_in_a_path_is_caught(clean):
    (clean / "rate_limiter").mkdir()
    (clean / "rate_limiter" / "core.py").write_text("x = 1\n")
    locations = [f.location for f in audit(AuditTarget(clean)).findings]
    assert locations == ["path rate_limiter", "path rate_limiter/core.py"]


@pytest.mark.parametrize("text, kind", [
    ("class RateLimiter:\n", "slug"),
    ("# family: resource error handling\n", "family"),
    ("log.info('strict has more')\n", "canary"),
    ("MISLEADING_LOG = True\n", "red-herring"),
    ("SEED = 2109959071934479925\n", "draw-id"),
    ("run = 'inst-7f3a9c'\n", "instance-id"),
    ("# an off-by-one window boundary\n", "bug-class"),
])
def test_terms_in_file_contents_are_caught(clean, text, kind):
    (clean / "tidewater" / "extra.py").write_text(text)
    findings = audit(AuditTarget(clean)).findings
    assert len(findings) == 1
    assert findings[0].location == "tidewater/extra.py:1" and findings[0].message.startswith(kind)


def test_terms_in_git_metadata_are_caught(tmp_path):
    commits = clean_history()
    commits[1] = CommitSpec(commits[1].files, "Add rate limiter window handling")
    spec = RepoSpec(commits, tags={"misleading-log-v1": (2, "Release", MARA)},
                    refs={"refs/heads/fix/strict-has-more": 1}, notes={2: "see instance inst-7f3a9c"})
    root = write_repo(tmp_path / "ws", spec)
    findings = audit(AuditTarget(root)).findings
    assert [f.message for f in findings] == [
        "instance-id 'inst-7f3a9c' in history-blob",  # the note blob
        "slug 'rate-limiter' in commit-message",
        "canary 'strict-has-more' in ref",
        "red-herring 'misleading-log' in ref",
        "red-herring 'misleading-log' in tag",
    ]
    assert findings[2].location == "ref refs/heads/fix/strict-has-more"
    assert findings[3].location == "ref refs/tags/misleading-log-v1"


def test_terms_in_delivery_surfaces_are_caught(clean):
    target = AuditTarget(
        clean, archive_name="rate-limiter-s0.tar.gz", urls=("https://forge.local/repos/inst-7f3a9c.git",),
        headers={"X-Challenge": "resource-error-handling"},
        payload={"session_id": "preflight-strict-has-more-k2", "cwd": "/workspace"},
        environment={"PWD": "/runs/misleading-log/workspace"}, texts={"task page": "Fix the rate limiter."},
    )
    found = {(f.location.split(":")[0], f.message.split(" ")[0]) for f in audit(target).findings}
    assert found == {("archive name", "slug"), ("url[0]", "instance-id"), ("header X-Challenge", "family"),
                     ("payload", "canary"), ("env PWD", "red-herring"), ("text task page", "slug")}


def test_clean_names_pass(clean):
    target = AuditTarget(clean, archive_name="ws-3f9a0c1d2e4b5a69.tar.gz",
                         urls=("https://forge.local/repo-8c1d2e3f4a5b6c7d.git",),
                         headers={"X-Request-Id": "req-1"}, payload={"cwd": "/workspace"})
    assert audit(target).findings == ()


def test_single_word_terms_are_whole_words_and_skip_ordinary_words(clean):
    (clean / "tidewater" / "extra.py").write_text("quuxcache = 1\nuse_quuxcache()\ntimeout = 3\n")
    context = dict(catalogue_terms=(CatalogueTerm("quuxcache"), CatalogueTerm("timeout")))
    findings = audit(AuditTarget(clean), **context).findings
    assert [f.location for f in findings] == ["tidewater/extra.py:1", "tidewater/extra.py:2"]


def test_archetype_noun_is_vocabulary_inside_but_a_leak_outside(clean):
    term = CatalogueTerm("berth-ledger", "slug", "literal-in-workspace")
    (clean / "tidewater" / "extra.py").write_text("class BerthLedger:\n    '''The berth ledger.'''\n")
    assert audit(AuditTarget(clean), catalogue_terms=(term,)).findings == ()
    (clean / "tidewater" / "origin.py").write_text("# generated from berth-ledger\n")
    target = AuditTarget(clean, archive_name="BerthLedger.tar.gz", payload={"cwd": "/runs/berth_ledger-s0"})
    found = [(f.location, f.message) for f in audit(target, catalogue_terms=(term,)).findings]
    assert found == [("archive name", "slug 'berth-ledger' in archive-name"), ("payload:2", "slug 'berth-ledger' in payload"),
                     ("tidewater/origin.py:1", "slug 'berth-ledger' in file")]


def test_unknown_spelling_rule_is_refused():
    from challenges.audit import AuditError

    with pytest.raises(AuditError) as info:
        CatalogueTerm("x-y", "slug", "fuzzy")
    assert info.value.code == "term_spelling_unknown" and info.value.field == "spelling"
