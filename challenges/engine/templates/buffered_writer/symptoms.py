"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    events, owner = ctx.say("event", True), ctx.say("owner")
    if bug.site == "final_flush":
        symptom = Symptom(
            title=f"The last {events} before a shutdown never reach the archive",
            action=f"write a handful of {events} and shut the writer down right after",
            observed=f"shutdown returns at once and the final few {events} are missing from the archive",
            expected=f"Once shutdown has returned, every {events[:-1] if events.endswith('s') else events} "
                     "written before it should be archived.",
            steps=(f"Write fewer {events} than one full batch", "Shut the writer down and wait for it to return",
                   "Read the archive back: the partial batch is not there"),
            example="after a deploy the archive is short by the tail of the last batch",
            impact=f"every deploy loses a few {events}, and the {owner} reports do not reconcile",
            vague=f"the archive is sometimes short by a few {events} after a restart",
            guess="the archive dropping writes under load",
            log="archive count lower than accepted count after shutdown",
            intermittent=True,
        )
    elif ctx.py:
        symptom = Symptom(
            title="Writes give up immediately when the archive hiccups",
            action="write a batch while the archive is unavailable for a moment",
            observed="every retry happens straight away and the batch is given up within milliseconds",
            expected="Retries should wait the configured back-off between attempts, so a brief outage is "
                     "ridden out.",
            steps=("Make the archive refuse the first two writes", f"Write a batch of {events}",
                   "All attempts are made at once and the batch fails"),
            example="three attempts land within the same millisecond",
            impact=f"short archive blips now cost us whole batches of {events}",
            vague=f"batches of {events} fail whenever the archive has a short blip, as if nothing waited",
            guess="the archive's own rate limiting",
            log="archive unavailable; retries exhausted",
            intermittent=True,
        )
    else:
        symptom = Symptom(
            title="One failed archive write fails the whole batch",
            action="write a batch while the archive rejects the first attempt",
            observed="the error surfaces immediately and no second attempt is made",
            expected="A failed archive write should be retried up to the configured number of attempts.",
            steps=("Make the archive reject the first write once", f"Write a batch of {events}",
                   "The write fails and the archive sees a single attempt"),
            example="the archive logs one attempt per failed batch",
            impact=f"transient archive errors now lose {events}",
            vague=f"batches of {events} fail on errors that should be transient",
            guess="a change in the archive's error codes",
            log="archive write rejected (no further attempts)",
            intermittent=True,
        )
    return replace(bug, symptom=symptom, invariant=_INVARIANT[bug.site if bug.site == "final_flush" else "retry"])


# How the writer's comments and README would give the fault away: the close contract for the
# final flush, the back-off between tries for the retry helper.
_INVARIANT = {
    "final_flush": ("after it returns every", "once it has resolved every", "whatever is still buffered",
                    "archives whatever is left", "archive what is left", "archives what is left"),
    "retry": ("the pause before try", "trying again after", "waits between tries", "pausing between tries"),
}
