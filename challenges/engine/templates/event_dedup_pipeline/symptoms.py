"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    events, event, entity = ctx.say("event", True), ctx.say("event"), ctx.say("entity")
    if bug.site == "window_arg":
        symptom = Symptom(
            title=f"Redelivered {events} are counted twice",
            action=f"let the upstream feed redeliver an {event} a few seconds after the original",
            observed=f"the redelivery is processed again and the {entity} totals double",
            expected="A redelivery inside the configured de-duplication window should be dropped.",
            steps=(f"Ingest an {event}", "Ingest the same delivery again two seconds later",
                   "Both are processed"),
            example="a window of 300 seconds drops only repeats that arrive within the same second",
            impact=f"our {entity} figures are inflated every time upstream retries",
            vague=f"some {entity} totals are higher than the source says, on no particular day",
            guess="the upstream feed sending genuinely new data",
            log="duplicate delivery processed",
            intermittent=True,
        )
    elif bug.site == "sighting":
        symptom = Symptom(
            title=f"Late {events} are dropped for good",
            action=f"ingest an {event} whose source time is far in the past, then the same {event} again "
                   "after the de-duplication window has passed",
            observed="the second delivery is still dropped as a duplicate, however long we wait",
            expected="Once the window has passed since a delivery was first ingested, the same delivery "
                     "should be accepted again.",
            steps=(f"Ingest an {event} stamped a day ago", "Wait longer than the window",
                   "Ingest it again: it is dropped"),
            example="replays from the archive never get through",
            impact=f"we cannot replay {events} after an outage",
            vague=f"replayed {events} vanish without a trace",
            guess="the replay tool sending malformed data",
            log="delivery dropped as duplicate",
            intermittent=True,
        )
    else:
        symptom = Symptom(
            title=f"Distinct {events} about one {entity} are dropped as duplicates",
            action=f"ingest two different {events} about the same {entity} close together",
            observed="only the first is processed; the second is dropped as a duplicate",
            expected=f"Different {events} should be processed even when they concern the same {entity}.",
            steps=(f"Ingest two {events} with different ids for one {entity}",
                   "Only one of them is processed"),
            example=f"a busy {entity} shows one update per window instead of all of them",
            impact=f"busy {entity} records are missing updates",
            vague=f"updates go missing for our busiest {entity} records",
            guess="upstream throttling",
            log="delivery dropped as duplicate",
            intermittent=True,
        )
    return replace(bug, symptom=symptom, invariant=_invariant(bug.site, entity))


def _invariant(site: str, entity: str) -> tuple[str, ...]:
    """Phrases that would restate the rule the bug at ``site`` breaks (kept out of nearby prose)."""
    if site == "window_arg":
        return ("convert them with", "converts them to milliseconds", "written in seconds for people",
                "where they enter the pipeline")
    if site == "sighting":
        return ("ingest clock", "time it was received", "occurrence time", "when it occurred")
    return ("never share one", "not one delivery of it", f"about the same {entity}", "from the same source")
