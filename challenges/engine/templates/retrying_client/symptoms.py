"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entity, entities = ctx.say("entity"), ctx.say("entity", True)
    owner = ctx.say("owner")
    if bug.site == "row_key":
        symptom = Symptom(
            title=f"Batch import reports {entities} as created that never appear",
            action=f"import a batch with several rows for the same {owner}",
            observed=f"the import reports every row as created, but the registry only holds the first "
                     f"{entity} of each {owner}",
            expected="Every row of the batch should be stored once.",
            steps=(f"Import a file with three rows for one {owner}", "The report says three created",
                   f"Look the {entities} up in the registry: only one exists"),
            example=f"a batch of 40 rows for 10 {owner}s stores 10",
            impact=f"we are missing most of the {entities} we imported last week",
            vague=f"after imports we have fewer {entities} than the import report claims",
            guess="the registry silently dropping writes",
            log="import finished: all rows created",
        )
    elif bug.site == "give_up":
        symptom = Symptom(
            title="The client retries one time more than configured",
            action="call the registry while it keeps failing, with the attempt limit set to three",
            observed="the registry receives four attempts and the call waits one back-off longer before failing",
            expected="With a limit of three attempts, exactly three requests should be sent.",
            steps=("Set the maximum number of attempts to 3", "Make every registry call fail",
                   "Count the requests: 4"),
            example="a limit of 1 still sends a retry",
            impact="failed imports take longer and add load to a registry that is already struggling",
            vague="the registry sees more traffic from us than our retry settings should allow",
            guess="a load balancer retrying on its own",
            log="giving up after attempts exhausted",
        )
    else:
        symptom = Symptom(
            title=f"Imports duplicate some {entities} and fail on others after timeouts",
            action=f"import {entities} while the registry is slow enough to time out now and then",
            observed=f"{entities} without an idempotency key show up twice, while keyed ones make the "
                     "import fail",
            expected="Only requests that are safe to repeat should be sent again after a timeout; the "
                     "others should be reported as failed.",
            steps=("Make the registry time out on the first create request", f"Create a {entity} without a key",
                   "It is stored twice"),
            example=f"a slow afternoon left us with a dozen duplicate {entities}",
            impact=f"duplicate {entities} have to be cleaned up by hand",
            vague=f"duplicate {entities} appear after slow periods, and some imports fail for no clear reason",
            guess="users pressing the import button twice",
            log="request timed out; retrying",
            intermittent=True,
        )
    return replace(bug, symptom=symptom, invariant=_INVARIANT.get(bug.site, _INVARIANT["timeout_retry"]))


# How the client's comments and README would give each fault away.
_INVARIANT = {
    "row_key": ("batch and row position", "derived from the batch and the row", "every row of a batch exactly once",
                "nothing is doubled", "keys are reused"),
    "give_up": ("last permitted attempt", "attempts in total", "until it succeeds or the policy runs out",
                "until it succeeds or policy runs out"),
    "timeout_retry": ("cannot apply it twice", "may already have been applied", "only sent again when that is safe",
                      "creates that carry an idempotency key", "always safe to repeat"),
}
