"""create_bout and create_agent: thin commands over the services, refusing bad input cleanly."""

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from competition import keys
from competition.models import Agent, AgentKey, Bout, BoutChallenge
from competition.selectors import agent_key_authenticate
from competition.services.staff import duration_parse
from core.errors import ValidationFailed
from core.models import AuditEvent
from tests import factories as rows

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_create_bout_opens_an_active_bout_and_prints_json_last():
    pool = [rows.challenge_instance() for _ in range(3)]
    out = run("create_bout", "--instances", "2", "--name", "Night shift", "--duration", "90m", "--json")
    facts = json.loads(out.strip().splitlines()[-1])
    bout = Bout.objects.get()
    assert facts["bout"] == bout.handle and facts["name"] == "Night shift" and facts["state"] == "active"
    assert facts["challenges"] == list(bout.challenges.order_by("position").values_list("handle", flat=True))
    assert len(facts["challenges"]) == 2
    assert {c.instance for c in bout.challenges.all()} <= set(pool)
    assert bout.ends_at - bout.starts_at == timedelta(minutes=90)
    assert facts["starts_at"] == bout.starts_at.isoformat() and facts["ends_at"] == bout.ends_at.isoformat()
    assert AuditEvent.objects.filter(verb="bout.created", target_id=str(bout.pk)).count() == 1


def test_create_bout_human_output_names_handle_times_and_challenges():
    rows.challenge_instance()
    out = run("create_bout", "--instances", "1")
    bout = Bout.objects.get()
    assert bout.handle in out and bout.challenges.get().handle in out and bout.starts_at.isoformat() in out
    assert bout.ends_at - bout.starts_at == timedelta(hours=2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--instances", "4"], "Only 2 released instances are available; 4 were asked for."),
        (["--instances", "1", "--duration", "soon"], "duration must look like 90m, 2h, 1d or 1h30m; got 'soon'."),
        (["--instances", "1", "--duration", "0h"], "duration must be longer than zero."),
        (["--instances", "0"], "Ask for at least one instance."),
        (["--instances", "two"], "invalid int value"),
    ],
)
def test_create_bout_bad_input_writes_nothing(args, message):
    rows.challenge_instance()
    rows.challenge_instance()
    with pytest.raises(CommandError, match=message):
        run("create_bout", *args)
    assert not Bout.objects.exists() and not BoutChallenge.objects.exists()
    assert not AuditEvent.objects.exists()


def test_create_bout_failure_exits_non_zero():
    # manage.py turns a CommandError into sys.exit(returncode) with the message on stderr.
    with pytest.raises(CommandError) as caught:
        run("create_bout", "--instances", "3")
    assert caught.value.returncode != 0
    assert str(caught.value) == "Only 0 released instances are available; 3 were asked for."


def test_create_agent_prints_a_working_key_once():
    owner = User.objects.create_user("ada", password="x" * 16)
    out = run("create_agent", "ada", "patcher", "--json")
    facts = json.loads(out.strip().splitlines()[-1])
    agent = Agent.objects.get()
    assert facts["agent"] == str(agent.public_id) and facts["name"] == "patcher" and facts["owner"] == "ada"
    assert agent.owner == owner
    key = agent_key_authenticate(raw=facts["key"])
    assert key is not None and key.agent == agent
    # Only the digest is stored.
    assert facts["key"] not in json.dumps(list(AgentKey.objects.values("prefix", "digest", "label")))
    assert AuditEvent.objects.filter(verb="agent.created").count() == 1


def test_create_agent_human_output_shows_the_key():
    User.objects.create_user("ada", password="x" * 16)
    out = run("create_agent", "ada", "patcher")
    raw = out.strip().splitlines()[-1]
    assert keys.parse_prefix(raw) == AgentKey.objects.get().prefix
    assert agent_key_authenticate(raw=raw).agent.name == "patcher"


@pytest.mark.parametrize(
    ("username", "name", "message"),
    [
        ("nobody", "patcher", "No user named 'nobody'."),
        ("ada", "   ", "An agent needs a name."),
        ("ada", "taken", "You already have an agent named 'taken'."),
        ("ada", "n" * 81, "at most 80 characters"),
    ],
)
def test_create_agent_bad_input_writes_nothing(username, name, message):
    owner = User.objects.create_user("ada", password="x" * 16)
    rows.agent(owner=owner, name="taken")
    before = (Agent.objects.count(), AgentKey.objects.count(), AuditEvent.objects.count())
    with pytest.raises(CommandError, match=message):
        run("create_agent", username, name)
    assert (Agent.objects.count(), AgentKey.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize(
    ("text", "expected"),
    [("90m", timedelta(minutes=90)), ("2h", timedelta(hours=2)), ("1d", timedelta(days=1)),
     ("1h30m", timedelta(minutes=90)), (" 45S ", timedelta(seconds=45))],
)
def test_duration_parse_accepts(text, expected):
    assert duration_parse(text) == expected


@pytest.mark.parametrize("text", ["", "2", "h", "2x", "-1h", "1.5h", "2h foo", "0m"])
def test_duration_parse_refuses_with_a_stable_code(text):
    with pytest.raises(ValidationFailed) as caught:
        duration_parse(text)
    assert caught.value.code == "duration_invalid" and caught.value.extra == {"field": "duration"}
