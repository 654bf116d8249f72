"""Calibration data: JSON Lines import/export (all or nothing), a run built from a bout's stored
attempts and evaluations, and the audit trail of each."""

import json
import uuid
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command

from challenges.calibration import SCHEMA
from challenges.models import CalibrationResult, CalibrationRun
from challenges.selectors.calibration import calibration_export_text
from challenges.services.calibration import calibration_import, calibration_run_from_bout
from competition.models import Attempt, Submission
from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent
from tests import factories as f

pytestmark = pytest.mark.django_db


def _run(key="dry-run", **over):
    return {"kind": "run", "schema": SCHEMA, "key": key, "label": "Dry run", "source": "manual", "bout": None,
            "recorded_at": "2026-12-01T10:00:00+00:00", "notes": "", **over}


def _result(template, instance=None, *, run="dry-run", solver="solver-a", solved=True, seconds=50.0, **over):
    return {"kind": "result", "run": run, "instance": str(instance or uuid.uuid4()), "template": template.slug,
            "template_version": "", "language": "python", "tier": template.tier, "solver": solver, "solved": solved,
            "attempts": 1, "submissions": 1, "solve_seconds": seconds if solved else None, **over}


def _lines(*objects):
    return [json.dumps(o) for o in objects]


def test_import_then_export_round_trips_and_reimport_changes_nothing():
    template = f.challenge_template(tier=5)
    local = f.challenge_instance(tier=5, template=template)
    lines = _lines(_run(), _result(template, local.public_id), _result(template, local.public_id, solver="b",
                                                                       solved=False, attempts=3, submissions=4),
                   _result(template))
    result = calibration_import(lines=lines, by=None, source="dry.jsonl")
    assert result.created == ["dry-run"] and result.results == 3
    run = CalibrationRun.objects.get(key="dry-run")
    linked = CalibrationResult.objects.filter(run=run, instance=local)
    assert linked.count() == 2 and CalibrationResult.objects.filter(instance__isnull=True).count() == 1
    event = AuditEvent.objects.get(verb="calibration.run_imported")
    assert event.after == {"results": 3, "source": "manual"} and "dry.jsonl" in event.reason
    text = calibration_export_text()
    assert sorted(json.loads(line)["solver"] for line in text.splitlines()[1:]) == ["b", "solver-a", "solver-a"]
    again = calibration_import(lines=text.splitlines(), by=None)
    assert again.created == [] and again.unchanged == ["dry-run"]
    assert CalibrationResult.objects.count() == 3 and AuditEvent.objects.filter(verb="calibration.run_imported").count() == 1
    assert calibration_export_text() == text


def test_a_bad_line_refuses_the_whole_file_with_its_number_and_code():
    template = f.challenge_template(tier=3)
    other = f.challenge_instance(tier=3, template=f.challenge_template(tier=3))
    lines = _lines(_run(), _result(template), _result(template, solver="b", tier=9),
                   _result(template, other.public_id, solver="c"), _run("second"),
                   {**_result(template, run="second"), "template": "not-a-template"})
    with pytest.raises(ValidationFailed) as info:
        calibration_import(lines=lines, by=None)
    assert info.value.code == "invalid_calibration"
    assert [(e["line"], e["code"]) for e in info.value.extra["errors"]] == [(3, "invalid_tier")]
    # Once the format is right, the checks against this database run: every bad line is listed.
    lines[2] = json.dumps(_result(template, solver="b"))
    with pytest.raises(ValidationFailed) as info:
        calibration_import(lines=lines, by=None)
    assert [(e["line"], e["code"], e["field"]) for e in info.value.extra["errors"]] == [
        (4, "instance_mismatch", "instance"), (6, "template_unknown", "template")]
    assert not CalibrationRun.objects.exists() and not CalibrationResult.objects.exists()
    assert not AuditEvent.objects.filter(verb__startswith="calibration.").exists()


def test_a_stored_run_is_never_overwritten():
    template = f.challenge_template(tier=2)
    calibration_import(lines=_lines(_run(), _result(template)), by=None)
    with pytest.raises(ValidationFailed) as info:
        calibration_import(lines=_lines(_run(), _result(template, solver="z"), _run("new"),
                                        _result(template, run="new")), by=None)
    assert info.value.extra["errors"][0]["code"] == "run_exists" and info.value.extra["errors"][0]["line"] == 1
    assert list(CalibrationRun.objects.values_list("key", flat=True)) == ["dry-run"]
    assert CalibrationResult.objects.count() == 1


def test_commands_export_and_import_and_refuse_a_bad_file(tmp_path, capsys):
    template = f.challenge_template(tier=4)
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(_lines(_run(), _result(template), _result(template, solver="b", solved=False))) + "\n")
    call_command("calibration_import", str(good), "--json")
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {
        "ok": True, "created": ["dry-run"], "unchanged": [], "results": 2}
    out = tmp_path / "out.jsonl"
    call_command("calibration_export", str(out), "--run", "dry-run")
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    assert exported[0] == _run() and sorted(e["solver"] for e in exported[1:]) == ["b", "solver-a"]
    assert len(exported) == 3
    with pytest.raises(CommandError, match="no calibration run missing"):
        call_command("calibration_export", str(out), "--run", "missing")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(_lines(_run("other"), _result(template, run="other", attempts=0))) + "\n")
    with pytest.raises(CommandError, match="1 invalid line"):
        call_command("calibration_import", str(bad))
    assert "bad.jsonl:2: attempts:" in capsys.readouterr().err
    assert not CalibrationRun.objects.filter(key="other").exists()


def _play(bout, challenge, agent, plan):
    """``plan``: per attempt, a list of (seconds after the attempt started, result)."""
    entry = bout.entries.filter(agent=agent).first() or f.entry(bout=bout, agent=agent)
    for number, submissions in enumerate(plan, start=1):
        attempt = f.attempt(entry=entry, challenge=challenge, number=number,
                            started_at=bout.starts_at + timedelta(minutes=10 * number))
        for seconds, result in submissions:
            f.submission(attempt=attempt, seconds=seconds, result=result)
    return entry


def test_a_bout_becomes_a_calibration_run():
    SOLVED, NOT = Submission.Result.SOLVED, Submission.Result.NOT_SOLVED
    bout = f.bout(tiers=(2, 5))
    easy, hard = bout.challenges.order_by("position")
    ada, bob, eve = f.agent(name="ada", model_name="m-1"), f.agent(name="bob" + "o" * 77, model_name="x" * 120), f.agent(name="eve")
    _play(bout, easy, ada, [[(30, NOT), (95, SOLVED), (120, SOLVED)]])
    _play(bout, hard, ada, [[(60, NOT)], [(400, NOT), (700, SOLVED)]])
    _play(bout, easy, bob, [[(50, NOT)], [(80, NOT)]])
    cheat = _play(bout, hard, eve, [[(5, SOLVED)]])
    cheat.disqualified_at = bout.starts_at
    cheat.save()
    run = calibration_run_from_bout(bout=bout, by=None)
    assert (run.key, run.source, run.bout_handle) == (bout.handle, "bout", bout.handle)
    assert "1 disqualified entry left out" in run.notes
    rows = {(r.solver.split(" ")[0], r.tier): r for r in run.results.all()}
    assert set(rows) == {("ada", 2), ("ada", 5), (bob.name, 2)}
    first = rows[("ada", 2)]
    assert (first.solved, first.attempts, first.submissions, first.solve_seconds) == (True, 1, 2, 95.0)
    assert first.solver.startswith("ada (m-1) #") and first.instance == easy.instance
    second = rows[("ada", 5)]
    assert (second.solved, second.attempts, second.submissions, second.solve_seconds) == (True, 2, 3, 700.0)
    third = rows[(bob.name, 2)]
    assert len(third.solver) == 200 and third.solver.endswith(f" #{str(bob.public_id)[:8]}")
    assert (third.solved, third.attempts, third.submissions, third.solve_seconds) == (False, 2, 2, None)
    event = AuditEvent.objects.get(verb="calibration.run_from_bout")
    assert event.after == {"bout": bout.handle, "results": 3, "solved": 2}
    with pytest.raises(Conflict) as info:
        calibration_run_from_bout(bout=bout, by=None, key="another-key")
    assert info.value.code == "bout_already_calibrated"


def test_a_bout_with_pending_evaluations_or_no_attempts_is_refused():
    bout = f.bout(tiers=(1,))
    with pytest.raises(ValidationFailed) as info:
        calibration_run_from_bout(bout=bout, by=None)
    assert info.value.code == "no_attempts"
    _play(bout, bout.challenges.get(), f.agent(), [[(30, Submission.Result.PENDING)]])
    with pytest.raises(Conflict) as info:
        calibration_run_from_bout(bout=bout, by=None)
    assert info.value.code == "evaluations_pending"
    assert not CalibrationRun.objects.exists() and Attempt.objects.count() == 1


def test_command_builds_a_run_from_a_bout(capsys):
    bout = f.bout(tiers=(3,))
    _play(bout, bout.challenges.get(), f.agent(), [[(300, Submission.Result.SOLVED)]])
    call_command("calibration_from_bout", bout.handle, "--json")
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out == {"ok": True, "run": bout.handle, "results": 1, "solved": 1, "proposals": None}
    with pytest.raises(CommandError, match="no bout nope"):
        call_command("calibration_from_bout", "nope")
