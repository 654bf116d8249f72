"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entity, entities, resource = ctx.say("entity"), ctx.say("entity", True), ctx.say("resource")
    units = ctx.lex.unit("duration").replace("_", " ")
    inclusive = ctx.slot("interval_model") == "inclusive"
    # Client windows use the other convention: unconverted, they arrive one unit off.
    refused = inclusive if bug.site == "to_ledger" else not inclusive
    if refused:
        symptom = Symptom(
            title=f"Back-to-back {entities} on one {resource} are refused",
            action=f"book a {resource} for a {entity} that starts exactly when the previous {entity} ends",
            observed=f"the second {entity} is refused as a conflict although the two do not overlap",
            expected=f"A {entity} that begins where another one ends should be accepted.",
            steps=(f"Book a {resource} from 10 to 12 ({units})", f"Book the same {resource} from 12 to 14",
                   "The second request is rejected with a conflict"),
            example=f"Turnaround-free schedules are impossible: every second {entity} in a row fails",
            impact=f"we lose {entities} every day because consecutive slots cannot be booked",
            vague=f"some {entities} are rejected as conflicts even though the {resource} looks free",
            guess="a caching problem on our side",
            log=f"booking rejected: {resource} already taken for the requested period",
        )
    else:
        symptom = Symptom(
            title=f"Two {entities} share the same {resource} at the boundary",
            action=f"book a {resource} for a {entity} whose first unit is the last unit of an existing {entity}",
            observed=f"both {entities} are accepted, so the {resource} is double-booked for that unit",
            expected=f"The second {entity} should be refused because both claim the shared unit.",
            steps=(f"Book a {resource} for {units} 3 to 5, both included",
                   f"Book the same {resource} for {units} 5 to 7", "Both requests succeed"),
            example=f"unit 5 now belongs to two {entities}",
            impact=f"two customers turn up for the same {resource}",
            vague=f"we have had two double-booked {resource}s this month",
            guess="two clerks booking at the same moment",
            log=f"{resource} booked twice for overlapping periods",
        )
    return replace(bug, symptom=symptom)
