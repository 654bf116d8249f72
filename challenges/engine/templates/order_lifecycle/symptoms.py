"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entity, entities = ctx.say("entity"), ctx.say("entity", True)
    statuses = [s.replace("_", " ") for s in ctx.lex.statuses]
    committed, final = statuses[len(statuses) // 2], statuses[-1]
    if bug.site == "commit_row":
        symptom = Symptom(
            title=f"{entities.capitalize()} that are already {committed} can still be cancelled",
            action=f"cancel a {entity} that has reached {committed}",
            observed="the cancellation goes through and a refund is issued",
            expected=f"Once a {entity} is {committed}, cancelling it should be refused.",
            steps=(f"Create a {entity} and move it forward until it is {committed}", f"Cancel the {entity}",
                   "The request succeeds and the refund is recorded"),
            example=f"a {committed} {entity} ends up cancelled and refunded",
            impact=f"we refund {entities} that we have already committed to",
            vague=f"refunds are going out for {entities} that should not have been refundable",
            guess="staff overriding the workflow by hand",
            log=f"refund issued for {entity} in late stage",
        )
    else:
        symptom = Symptom(
            title=f"Finished {entities} can be cancelled",
            action=f"cancel a {entity} that is already {final}",
            observed="the cancellation is accepted and money is refunded",
            expected=f"Cancelling a {entity} should be refused once it is {committed} or later.",
            steps=(f"Move a {entity} all the way to {final}", f"Cancel the {entity}",
                   "It is marked cancelled and refunded"),
            example=f"a {final} {entity} shows up as cancelled",
            impact=f"refunds for {entities} that were delivered long ago",
            vague=f"the refund report lists {entities} that were completed weeks ago",
            guess="a double click in the back office",
            log=f"refund issued for {entity} in late stage",
        )
    # How the lifecycle's comments and README would give either fault away.
    return replace(bug, symptom=symptom, invariant=(
        "can only move forward", "may also be cancelled", "no cancelling", "goes through the lifecycle table",
        "it may be cancelled", "it is committed and"))
