"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entities = ctx.say("entity", True)
    symptom = Symptom(
        title="Service stops answering after a run of failed requests",
        action=f"send a few requests that fail halfway through (for example an invalid {ctx.say('entity')})",
        observed="after as many failures as there are database connections, every further request waits "
                 "and then times out, even valid ones",
        expected="A failed request should not affect the requests that come after it.",
        steps=("Send requests that fail inside their database work, one per configured connection",
               "Send a valid request", "It times out waiting for a connection"),
        example="with a pool of four, the fifth request after four failures hangs",
        impact=f"a burst of bad {entities} takes the whole service down until it is restarted",
        vague="the service slowly stops responding over the day, sooner on days the database server was "
              "restarted, and only a restart of the service brings it back",
        guess="a slow database or a network problem between us and the database",
        log="timed out waiting for a free database connection",
        intermittent=True,
    )
    return replace(bug, symptom=symptom, invariant=(
        "checked in again", "whatever happened while it was out", "must always be returned",
        "returned even when", "given back even when", "free its slot", "frees its slot", "gives its slot back",
    ))
