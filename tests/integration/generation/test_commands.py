"""Staff commands over generated instances, with bad input that exits non-zero."""

import json

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

from challenges.models import ChallengeInstance
from challenges.services.generation import instance_generate, template_sync
from core.models import AuditEvent

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def instance():
    templates = {t.slug: t for t in template_sync(activate=True)}
    return instance_generate(template=templates["booking-ledger"], language="python").instance


def _json(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_generate_list_rebuild_audit_export_and_oracle(instance, capsys, tmp_path):
    call_command("generate_instances", "--template", "config-coercion", "--json")
    row = _json(capsys)
    assert row["state"] == "released" and row["template"] == "config-coercion" and all(row["gates"].values())

    call_command("list_templates", "--json")
    listing = {r["slug"]: r for r in _json(capsys)}
    assert listing["config-coercion"]["eligible_now"] is False and listing["config-coercion"]["next_eligible"]

    call_command("rebuild_instance", str(instance.public_id), "--json")
    assert _json(capsys) == {"instance": str(instance.public_id), "identical": True,
                             "checks": {"workspace": True, "secrets": True, "fingerprint": True,
                                        "statement": True}}

    call_command("leak_audit", str(instance.public_id), "--json")
    report = _json(capsys)
    assert report["passed"] is True and report["findings"] == []

    call_command("export_instance", str(instance.pk), str(tmp_path / "out"), "--with-secrets")
    assert {p.name for p in (tmp_path / "out").iterdir()} == {
        "workspace", "oracle", "gold.patch", "canaries.json", "fingerprint.json", "draw.json"}
    assert AuditEvent.objects.filter(verb="instance.exported", target_id=str(instance.pk)).exists()
    capsys.readouterr()

    call_command("run_oracle", str(instance.pk), "--patch", str(tmp_path / "out" / "gold.patch"), "--json")
    assert _json(capsys)["result"] == "solved"
    call_command("run_oracle", str(instance.pk), "--json")
    assert _json(capsys)["result"] == "not_solved"

    # The exported workspace alone is clean; the export with its secrets is not.
    call_command("leak_audit", "--path", str(tmp_path / "out" / "workspace"), "--instance", str(instance.pk), "--json")
    assert _json(capsys)["passed"] is True
    with pytest.raises(CommandError) as info:
        call_command("leak_audit", "--path", str(tmp_path / "out"), "--instance", str(instance.pk))
    assert info.value.returncode == 1


@pytest.mark.parametrize(
    "args, code",
    [
        (["leak_audit", "no-such-instance"], 2),
        (["leak_audit", "--path", "/nonexistent/dir", "--instance", "1"], 2),
        (["leak_audit"], 2),
    ],
)
def test_leak_audit_bad_input_exits_non_zero(instance, args, code):
    if "--instance" in args:
        args = [*args[:-1], str(instance.pk)]
    with pytest.raises(CommandError) as info:
        call_command(*args)
    assert info.value.returncode == code


def test_export_refuses_a_non_empty_directory_and_writes_nothing(instance, tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("x")
    with pytest.raises(CommandError, match="not empty"):
        call_command("export_instance", str(instance.pk), str(tmp_path / "busy"))
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["keep.txt"]
    assert not AuditEvent.objects.filter(verb="instance.exported").exists()


def test_instance_admin_shows_gates_and_guards_secrets(instance, client):
    viewer = User.objects.create_user("viewer", password="x" * 12, is_staff=True)
    viewer.groups.add(Group.objects.get(name="Viewer"))
    client.force_login(viewer)
    page = client.get(f"/admin/challenges/challengeinstance/{instance.pk}/change/").content.decode()
    assert "mutation" in page and "no findings" in page
    # The task statement as agents receive it, and the instance's difficulty knobs.
    from django.utils.html import escape

    from challenges.selectors.statements import instance_statement

    assert escape(instance_statement(instance)) in page
    assert "statement_precision" in page and "reproduction" in page
    assert client.get(f"/admin/challenges/challengeinstance/{instance.pk}/secrets/").status_code == 403

    analyst = User.objects.create_user("analyst", password="x" * 12, is_staff=True)
    analyst.groups.add(Group.objects.get(name="Integrity Analyst"))
    client.force_login(analyst)
    secrets_page = client.get(f"/admin/challenges/challengeinstance/{instance.pk}/secrets/").content.decode()
    assert "Gold patch" in secrets_page and "@@" in secrets_page
    assert AuditEvent.objects.filter(verb="instance.secrets_viewed", actor=analyst).count() == 1


def test_statement_backfill_rebuilds_the_sealed_statement_or_says_why_not(instance, capsys):
    from challenges.selectors.statements import instance_statement
    from core.crypto import seal, unseal

    statement = instance_statement(instance)
    assert statement
    ChallengeInstance.objects.filter(pk=instance.pk).update(statement_sealed=None, difficulty={})
    instance.refresh_from_db()
    assert instance_statement(instance) is None
    call_command("backfill_statements", "--json")
    assert _json(capsys) == {"recorded": [instance.pk], "failed": {}}
    instance.refresh_from_db()
    assert instance_statement(instance) == statement  # rebuilt byte for byte from the draw
    assert instance.difficulty["statement_precision"] == "reproduction"
    assert AuditEvent.objects.filter(verb="instance.statement_backfilled").count() == 1
    call_command("rebuild_instance", str(instance.pk), "--json")
    rebuilt = _json(capsys)
    assert rebuilt["identical"] is True and rebuilt["checks"]["statement"] is True

    # A draw made by another template version cannot be rebuilt: the instance keeps no statement.
    draw = json.loads(unseal(bytes(instance.draw_sealed)))
    ChallengeInstance.objects.filter(pk=instance.pk).update(
        statement_sealed=None, draw_sealed=seal(json.dumps({**draw, "template_version": "0"}).encode()))
    call_command("backfill_statements", "--json")
    failed = _json(capsys)["failed"][str(instance.pk)]
    assert "draw_version_mismatch" in failed[0] or "cannot be rebuilt byte for byte" in failed[0]
    instance.refresh_from_db()
    assert instance_statement(instance) is None


def test_retire_action_needs_a_reason(instance, client):
    operator = User.objects.create_user("op", password="x" * 12, is_staff=True)
    operator.groups.add(Group.objects.get(name="Operator"))
    client.force_login(operator)
    url = "/admin/challenges/challengeinstance/"
    response = client.post(url, {"action": "retire", "_selected_action": [instance.pk]})
    assert response.status_code == 200 and "reason" in response.content.decode()
    instance.refresh_from_db()
    assert instance.state == ChallengeInstance.State.RELEASED
    client.post(url, {"action": "retire", "_selected_action": [instance.pk], "apply": "1", "reason": "stale domain"})
    instance.refresh_from_db()
    assert instance.state == ChallengeInstance.State.RETIRED and instance.state_reason == "stale domain"
