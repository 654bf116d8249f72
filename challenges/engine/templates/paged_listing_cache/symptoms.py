"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    entity, entities = ctx.say("entity"), ctx.say("entity", True)
    owner, owners = ctx.say("owner"), ctx.say("owner", True)
    if bug.site == "owner_prefix":
        symptom = Symptom(
            title=f"Listings of some {owners} do not show new {entities}",
            action=f"add a {entity} for a {owner} whose name contains a capital letter or a space, "
                   "right after viewing that listing",
            observed=f"the listing keeps showing the old pages without the new {entity} for several minutes",
            expected=f"A new or changed {entity} should appear in its {owner}'s listing straight away.",
            steps=(f"View the first page of the listing of a {owner} named like 'North Side'",
                   f"Register a new {entity} for that {owner}", "View the listing again: it is unchanged"),
            example=f"{owners} named in lower case do not have the problem",
            impact=f"staff think the {entity} was not saved and enter it twice",
            vague=f"some {owners}' listings lag behind by minutes, others are always fresh",
            guess="the browser caching the page",
            log="served cached listing page",
        )
    else:
        symptom = Symptom(
            title=f"A {entity} moved to another {owner} still shows under the old one",
            action=f"transfer a {entity} from one {owner} to another after both listings have been viewed",
            observed=f"the new {owner}'s listing is correct, but the previous {owner}'s listing still "
                     f"contains the {entity} for minutes",
            expected=f"After a transfer the {entity} should disappear from the previous {owner}'s listing at once.",
            steps=(f"View the listings of {owner} A and {owner} B", f"Transfer a {entity} from A to B",
                   "View A's listing again: the transferred entry is still there"),
            example="it goes away by itself after the cache lifetime",
            impact=f"{entities} appear to belong to two {owners} at once",
            vague=f"listings sometimes show {entities} that are no longer there",
            guess="replication lag on the database",
            log="served cached listing page",
            intermittent=True,
        )
    return replace(bug, symptom=symptom, invariant=(
        "case-insensitive", "ignore surrounding blanks", "both listings change", "listed either version",
        "whose listings it appears in", f"previous {owner}'s pages"))
