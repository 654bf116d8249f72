"""Class 5: nothing produced inside the sandbox reaches what an agent reads (issue 10).

Hostile patches read the hidden tests (present in the sandbox as probes) and try every
channel back out: stdout and stderr, exception messages, forged records whose free-text
fields carry the file, and observations whose values do. Agents read only the result, the
counts and a reason from a fixed vocabulary; the bounded, escaped details stay with staff.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.engine.patches import unified_diff
from challenges.models import ChallengeTemplate
from challenges.services.instances import instance_release, instance_store
from competition.models import Evaluation, Submission
from competition.services.bouts import bout_create
from competition.services.evaluation import submission_evaluate
from tests.security.judge_support import (
    LANGUAGES,
    assert_not_solved_and_silent,
    at_bug,
    evaluate,
    hidden_fragments,
    released,
)

pytestmark = pytest.mark.slow

PY_LEAK = r'''
import glob, sys
_text = "".join(open(p).read() for p in sorted(glob.glob("tests/**/test_*.py", recursive=True)))
print(_text)
print(_text, file=sys.stderr)
_runtime = sys.modules.get("probe_runtime")
if _runtime is not None:
    _runtime.emit({"t": "load", "file": _text[:900], "detail": _text[:3900]})
    _runtime.emit({"t": "obs", "s": 1, "v": [_text[:4000]]})
    _runtime.emit({"t": "end", "id": _text[:900], "outcome": "error", "detail": _text[:3900]})
    _runtime.emit({"id": "x", "verdict": _text[:3900], "reason": _text[:3900]})
raise RuntimeError(_text[:5000])
'''

JS_LEAK = r"""
const fs = require('node:fs');
const text = fs.readdirSync('test').map((f) => fs.readFileSync(`test/${f}`, 'utf8')).join('');
console.log(text);
console.error(text);
const runtime = globalThis[Symbol.for('probe.runtime')];
if (runtime) {
  runtime.emit({ t: 'load', file: text.slice(0, 900), detail: text.slice(0, 3900) });
  runtime.emit({ t: 'obs', s: 1, v: [text.slice(0, 4000)] });
  runtime.emit({ t: 'end', id: text.slice(0, 900), outcome: 'error', detail: text.slice(0, 3900) });
}
throw new Error(text.slice(0, 5000));
"""


def leak_patch(language: str) -> str:
    return at_bug(language, PY_LEAK if language == "python" else JS_LEAK)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_patch_that_pours_the_hidden_tests_into_every_channel_leaks_nothing(language):
    outcome = evaluate(language, leak_patch(language))
    assert_not_solved_and_silent(language, outcome)
    # Staff still see what happened, bounded: at most a few hundred characters per test.
    assert all(len(t["detail"]) <= 800 for t in outcome.details["tests"].values())
    assert len(json.dumps(outcome.details["notes"])) < 20_000


def test_the_reason_for_a_patch_that_does_not_apply_is_gits_first_line_sanitised():
    language = "python"
    path = released(language).instance.gold_region.path
    patch = (f"--- a/{path}\n+++ b/{path}\n@@ -1,1 +1,1 @@\n-not the first line\u202e\x1b[2J\n+x\n")
    outcome = evaluate(language, patch)
    assert outcome.result == "error"
    assert outcome.reason.startswith("the patch does not apply: ")
    assert outcome.reason.isascii() and outcome.reason.isprintable() and len(outcome.reason) <= 160
    assert "\x1b" not in outcome.reason


@pytest.fixture
def challenge(db, agent_client, language):
    made = released(language)
    template = ChallengeTemplate.objects.get_or_create(
        slug=made.instance.template, defaults={"title": "t", "family": made.instance.family, "bug_class": "b",
                                               "spec_tier": made.instance.tier, "languages": [language],
                                               "state": ChallengeTemplate.State.ACTIVE})[0]
    instance = instance_store(
        template=template, language=language, tier=made.instance.tier, lexicon_key=made.instance.draw.lexicon_key,
        tech_stack=[language], fingerprint=made.instance.fingerprint, draw=made.instance.draw.to_dict(),
        secrets=made.instance.secrets_dict(), workspace_dir=made.tree, gates={"passed": True},
        audit={"findings": []}, judge_kit=made.kit.to_dict())
    instance = instance_release(instance=instance, by=None, reason="attack test")
    now = timezone.now()
    bout = bout_create(name="Attack", instances=[instance], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)
    response = agent_client.post(f"/api/v1/challenges/{bout.challenges.get().handle}/attempts")
    assert response.status_code == 201, response.content
    return response.json()["id"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_through_the_api_the_agent_reads_counts_and_the_fixed_vocabulary_only(agent_client, challenge, language):
    response = agent_client.post(f"/api/v1/attempts/{challenge}/submissions", {"patch": leak_patch(language)},
                                 format="json", HTTP_IDEMPOTENCY_KEY="leak")
    assert response.status_code == 202, response.content
    submission = Submission.objects.get(handle=response.json()["id"])
    assert submission_evaluate(submission_id=submission.pk) == "not_solved"
    shown = agent_client.get(f"/api/v1/submissions/{submission.handle}")
    body = shown.content.decode()
    assert shown.json()["reason"].endswith("hidden tests failed")
    for fragment in hidden_fragments(language):
        assert fragment not in body
    history = agent_client.get("/api/v1/agent/history")
    assert history.status_code == 200
    history = history.content.decode()
    for fragment in hidden_fragments(language):
        assert fragment not in history
    # Staff keep the per-test judgement, bounded.
    evaluation = Evaluation.objects.get(submission=submission)
    submission.refresh_from_db()
    assert evaluation.judgement["tests"] and evaluation.reason == submission.result_reason


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_through_the_api_the_gold_patch_solves_and_a_no_op_does_not(agent_client, challenge, language):
    gold = agent_client.post(f"/api/v1/attempts/{challenge}/submissions",
                             {"patch": released(language).instance.gold.patch}, format="json",
                             HTTP_IDEMPOTENCY_KEY="gold")
    assert submission_evaluate(submission_id=Submission.objects.get(handle=gold.json()["id"]).pk) == "solved"
    readme = released(language).instance.files["README.md"]
    noop = unified_diff({"README.md": readme}, {"README.md": readme + "\nMore notes.\n"})
    other = agent_client.post(f"/api/v1/attempts/{challenge}/submissions", {"patch": noop}, format="json",
                              HTTP_IDEMPOTENCY_KEY="noop")
    assert other.status_code == 202, other.content
    assert submission_evaluate(submission_id=Submission.objects.get(handle=other.json()["id"]).pk) == "not_solved"
