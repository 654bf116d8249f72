"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    resource, entities = ctx.say("resource"), ctx.say("entity", True)
    symptom = Symptom(
        title=f"More is reserved on a {resource} than it holds",
        action=f"place holds on one {resource} from several clients at the same time",
        observed=f"the holds together exceed the {resource}'s capacity, and all of them were confirmed",
        expected="A hold that would exceed the capacity should be refused, however many arrive at once.",
        steps=(f"Give a {resource} a capacity of 10", "Send two holds of 6 at the same moment",
               "Both are confirmed"),
        example=f"a {resource} with capacity 10 shows 12 held",
        impact=f"we promise {entities} we cannot deliver",
        vague=f"now and then a {resource} ends up overbooked, always at busy times",
        guess="a stale capacity figure in the cache",
        log="held quantity exceeds capacity",
        intermittent=True,
    )
    # How the storage and service comments and the README would give the fault away.
    return replace(bug, symptom=symptom, invariant=(
        "decided under the lock", "under the lock below", "must not interleave", "checking free",
        "never lets the holds", "however many requests arrive at once", "several threads at once",
        "many requests at once", "not a promise", "slightly old one", "other requests run between"))
