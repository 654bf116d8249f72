"""The generation pipeline with the real engine, sandbox, dedup and leak audit."""

import pytest

from challenges.models import ChallengeInstance, ChallengeTemplate, GenerationAttempt
from challenges.services.generation import instance_generate, regeneration_rate, template_sync
from challenges.services.oracle import oracle_run
from challenges.services.workspaces import instance_secrets
from core.models import AuditEvent
from core.services import config_set

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def templates():
    return {t.slug: t for t in template_sync(activate=True)}


def test_sync_mirrors_the_engine_registry_idempotently(templates):
    assert len(templates) >= 3
    count = AuditEvent.objects.filter(verb="template.registered").count()
    assert count == len(templates)
    template_sync(activate=True)
    assert AuditEvent.objects.filter(verb="template.registered").count() == count
    ChallengeTemplate.objects.filter(slug=next(iter(templates))).update(spec_tier=5 if templates[next(iter(templates))].tier != 5 else 4)
    template_sync()
    assert AuditEvent.objects.filter(verb="template.synced").count() == 1


def test_pipeline_releases_an_instance_that_the_oracle_separates(templates):
    template = templates["booking-ledger"]
    result = instance_generate(template=template, language="python")
    instance = result.instance
    assert instance is not None and instance.state == ChallengeInstance.State.RELEASED
    assert instance.gates["passed"] is True and instance.audit["findings"] == []
    assert {g["name"] for g in instance.gates["results"]} >= {"oracle", "canaries", "mutation", "visible", "static",
                                                              "statement", "hints"}
    # The task statement is sealed with the instance; the difficulty knobs are recorded.
    from challenges.selectors.statements import instance_statement

    statement = instance_statement(instance)
    assert statement and statement.encode() not in bytes(instance.statement_sealed)
    assert template.slug not in statement and "booking ledger" not in statement.lower()
    assert instance.difficulty["tier"] == 1 and instance.difficulty["statement_precision"] == "reproduction"
    assert instance.difficulty["fail_to_pass"] >= 1
    assert [a.outcome for a in result.attempts] == [GenerationAttempt.Outcome.RELEASED]
    secrets = instance_secrets(instance)
    assert oracle_run(instance=instance, patch=secrets["gold_patch"]).result == "solved"
    assert oracle_run(instance=instance, patch=None).result == "not_solved"
    for alternative in secrets["alternatives"]:
        assert oracle_run(instance=instance, patch=alternative["patch"]).result == "solved"
    # Sealed at rest: the gold patch is not readable from the row.
    assert secrets["gold_patch"].encode() not in bytes(instance.secrets_sealed)
    # The expectations recorded by the release gates were sealed with it and used as they are.
    assert instance.judge_kit_sealed and b"__probe" not in bytes(instance.judge_kit_sealed)
    assert not AuditEvent.objects.filter(verb="instance.judge_kit_recorded").exists()
    assert AuditEvent.objects.filter(verb="instance.released", target_id=str(instance.pk)).exists()


def test_collisions_redraw_then_give_up_with_a_reason(templates):
    config_set(key="generation.max_collisions", value=2, by=None, reason="short test")
    for key, value in (("novelty.note_from", 0.01), ("novelty.flag_from", 0.02), ("novelty.reject_above", 0.05)):
        config_set(key=key, value=value, by=None, reason="force collisions")
    template = templates["booking-ledger"]
    first = instance_generate(template=template, language="python").instance
    assert first is not None
    second = instance_generate(template=template, language="python")
    assert second.instance is None
    assert second.reason == "2 consecutive dedup collisions on booking-ledger"
    assert [a.outcome for a in second.attempts] == [GenerationAttempt.Outcome.COLLISION] * 2
    assert "above the reject threshold" in second.attempts[0].reason
    assert regeneration_rate(attempts=GenerationAttempt.objects.all()) == pytest.approx(2 / 3)


def test_only_active_templates_release(templates):
    from core.errors import ValidationFailed

    draft = templates["booking-ledger"]
    ChallengeTemplate.objects.filter(pk=draft.pk).update(state=ChallengeTemplate.State.DRAFT)
    draft.refresh_from_db()
    with pytest.raises(ValidationFailed) as info:
        instance_generate(template=draft, language="python")
    assert info.value.code == "template_not_active"
    assert not ChallengeInstance.objects.exists() and not GenerationAttempt.objects.exists()


def test_released_instances_never_share_contributors_and_pack_times_from_history(templates):
    import io
    import tarfile

    from challenges.audit.archive import DEFAULT_MTIME
    from challenges.engine import api as engine
    from challenges.models import ContributorName
    from challenges.services.workspaces import sealed_archive
    from core.crypto import unseal

    first = instance_generate(template=templates["booking-ledger"], language="python").instance
    second = instance_generate(template=templates["rate-limiter"], language="python").instance
    assert first is not None and second is not None
    assert {g["name"] for g in second.gates["results"]} >= {"realism"}
    names = {i.pk: set(ContributorName.objects.filter(instance=i).values_list("full_name", flat=True))
             for i in (first, second)}
    assert names[first.pk] and names[second.pk] and not names[first.pk] & names[second.pk]
    surnames = list(ContributorName.objects.values_list("surname", flat=True))
    assert len(surnames) == len(set(surnames))
    generated = engine.rebuild(unseal(second.draw_sealed).decode())
    assert {p.name for p in generated.history.people} == names[second.pk]
    # The stored workspace's times come from its history, not one fixed date.
    with tarfile.open(fileobj=io.BytesIO(sealed_archive(second))) as tar:
        members = {m.name.split("/", 1)[1]: m.mtime for m in tar.getmembers() if "/" in m.name}
    first_commit = generated.history.commits[0].timestamp
    assert DEFAULT_MTIME not in members.values() or first_commit <= DEFAULT_MTIME
    assert all(when >= first_commit for when in members.values())
    assert members["README.md"] >= max(c.timestamp for c in generated.history.commits if "README.md" in c.changed)
    assert ".git/hooks/pre-commit.sample" in members and ".git/logs/HEAD" in members


def test_a_reused_contributor_name_is_refused_at_store(templates):
    from challenges.models import ContributorName
    from core.errors import Conflict

    instance = instance_generate(template=templates["booking-ledger"], language="python").instance
    taken = ContributorName.objects.filter(instance=instance).first()
    from challenges.services.instances import instance_store

    with pytest.raises(Conflict) as info:
        instance_store(template=instance.template, language="python", tier=1, lexicon_key="x", tech_stack=[],
                       fingerprint={}, draw={}, secrets={"oracle_files": {"t.py": ""}}, workspace_dir=None,
                       archive=b"x", contributors=[f"Someone {taken.surname.capitalize()}"])
    assert info.value.code == "contributor_name_reused"
    assert ChallengeInstance.objects.count() == 1
