"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    events, owner, owners = ctx.say("event", True), ctx.say("owner"), ctx.say("owner", True)
    symptom = Symptom(
        title=f"The periodic summary lists the same {owner} several times",
        action=f"build the summary for a period in which two {owners} were active at the same time",
        observed=f"each {owner} appears on several lines with partial totals",
        expected=f"The summary should have one line per {owner} with the {owner}'s full total.",
        steps=(f"Record {events} for {owner} A, then B, then A again", "Build the summary",
               "A appears twice"),
        example=f"a quiet day has one line per {owner}; a busy one has dozens",
        impact=f"{owners} receive confusing statements with their usage split up",
        vague=f"the summary looks fine on quiet days but is cluttered with repeated {owners} on busy ones",
        guess="the export job running twice",
        log="summary lines exceed active accounts",
    )
    return replace(bug, symptom=symptom, invariant=(
        "one line per", "must already be ordered", "may come in any order", "order the input by",
        "only adjacent", "ordered by " + owner))
