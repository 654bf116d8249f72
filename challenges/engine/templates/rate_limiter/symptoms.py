"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entity, entities = ctx.say("entity"), ctx.say("entity", True)
    owner = ctx.say("owner")
    if bug.site == "admission":
        symptom = Symptom(
            title=f"A {owner} is locked out after sending invalid {entities}",
            action=f"send a few malformed {entities} and then a valid one",
            observed=f"the valid {entity} is rejected for exceeding the quota",
            expected=f"Rejected (invalid) {entities} should not count against the {owner}'s quota.",
            steps=(f"Send as many invalid {entities} as the quota allows", f"Send a valid {entity}",
                   "It is refused with a too-many-requests error"),
            example=f"a {owner} with a quota of five who made five typos cannot submit anything",
            impact=f"a {owner} who makes a few mistakes has to wait for the window to pass",
            vague=f"some {owner}s get rate-limited although they have barely sent anything valid",
            guess="the quota being shared between several accounts",
            log="rejected: quota exceeded",
        )
    elif bug.site == "expiry":
        symptom = Symptom(
            title=f"{entities.capitalize()} are refused at the exact moment the window frees up",
            action=f"send a {entity} exactly one window length after the oldest one counted",
            observed="it is rejected for exceeding the quota, and accepted a moment later",
            expected="At that instant the oldest request has left the window, so the new one should be "
                     "admitted.",
            steps=(f"Fill the quota with {entities}", "Wait exactly one window length after the first one",
                   f"Send another {entity}: it is refused"),
            example="the retry-after hint says zero seconds, and retrying immediately works",
            impact="clients that retry exactly on the hint get an extra rejection",
            vague="clients complain about rejections that go away if they retry",
            guess="clock skew between our servers",
            log="rejected: quota exceeded (retry after 0s)",
            intermittent=True,
        )
    else:
        symptom = Symptom(
            title=f"The quota lets one {entity} too many through",
            action=f"send {entities} quickly until the quota is reached",
            observed=f"one more {entity} than the configured quota is accepted in every window",
            expected=f"With a quota of N, the {entity} after the N-th in a window should be refused.",
            steps=("Configure a quota of 3 per window", f"Send 4 {entities} in quick succession",
                   "All 4 are accepted"),
            example="the limit of 100 per minute lets 101 through",
            impact="our downstream capacity planning is off for every busy client",
            vague=f"busy {owner}s get slightly more through than their plan allows",
            guess="two servers each counting separately",
            log="window usage above configured quota",
        )
    return replace(bug, symptom=symptom)
