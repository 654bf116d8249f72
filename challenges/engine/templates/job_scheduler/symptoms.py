"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entities = ctx.say("entity", True)
    if bug.site == "recheck":
        symptom = Symptom(
            title="The same job runs twice when several workers are busy",
            action="run the scheduler with more than one worker under load",
            observed="some jobs are executed twice, by two different workers",
            expected="Each ready job should be handed to exactly one worker.",
            steps=("Start two workers", "Queue a single ready job",
                   "Let both workers ask for work at the same moment", "Both of them get the job"),
            example=f"duplicate notifications about the same {ctx.say('entity')}",
            impact=f"customers receive duplicate messages about their {entities}",
            vague=f"a few {entities} are processed twice each day, never the same ones",
            guess="the message broker delivering twice",
            log="job finished by two workers",
            intermittent=True,
        )
    else:
        symptom = Symptom(
            title="Jobs of equal priority run in the wrong order",
            action="queue several jobs of the same priority after some earlier jobs have already run",
            observed="they run sorted by name instead of in the order they became ready",
            expected="Jobs of equal priority should run in the order they became ready.",
            steps=("Queue three jobs and run them", "Queue three more jobs of equal priority",
                   "They come out in alphabetical order of their names"),
            example="a job queued last overtakes two that were queued before it",
            impact=f"older {entities} wait behind newer ones",
            vague=f"some {entities} wait much longer than others of the same priority",
            guess="clock drift between the machines",
            log="job waited longer than expected",
            intermittent=True,
        )
    # How the scheduler's comments and README would give either fault away: the locked
    # re-check of a claim, and the readiness order among equal priorities.
    return replace(bug, symptom=symptom, invariant=(
        "decided under the lock", "under the lock below", "decided under the mutex", "under the mutex below",
        "no longer) ready", "may have taken it first", "may have been faster", "claimed by exactly one worker",
        "in the order they became ready", "became ready first goes first"))
