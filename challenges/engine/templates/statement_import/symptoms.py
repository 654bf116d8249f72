"""What reporters see of this template's bugs (the task statement's raw material)."""

from __future__ import annotations

from dataclasses import replace

from challenges.engine.context import BuildContext
from challenges.engine.ir import Bug, Symptom


def attach(ctx: BuildContext, bug: Bug) -> Bug:
    owner, owners = ctx.say("owner"), ctx.say("owner", True)
    if bug.site == "strip_extension":
        symptom = Symptom(
            title=f"Statements of some {owners} are rejected on import",
            action=f"import this month's statement files of all our {owners}",
            observed="the files of a few of them are rejected because the batch name does not match the owner",
            expected="Every well-formed statement file should be imported, whatever the owner's name.",
            steps=("Name a statement file after an owner ending in 's', with the usual .csv extension",
                   "Import it", "The import is refused"),
            example=f"the rejected {owners} all have names ending in c, s or v; the others import fine",
            impact=f"we key in the statements of those {owners} by hand every month",
            vague=f"imports fail for a handful of {owners}, always the same ones",
            guess="an encoding problem in their files",
            log="statement rejected: batch name does not match",
        )
    elif bug.site == "line_order":
        symptom = Symptom(
            title="Imported statement lines are not in day order",
            action="import a statement whose lines are not sorted by day and export it",
            observed="the lines and exported months stay in the order of the file",
            expected="Lines should be kept and exported in day order.",
            steps=("Import a statement listing day 3 before day 1", "Export it",
                   "Day 3 still comes first"),
            example="monthly totals land in the wrong month",
            impact="our month-end reconciliation does not match the bank",
            vague="exports look shuffled for some statements",
            guess="the bank changing its file format",
            log="month totals out of order",
        )
    else:
        symptom = Symptom(
            title=f"Per-{owner} totals are empty after an import",
            action="import a statement with several lines and ask for the totals",
            observed=f"the import succeeds but every {owner} total is empty",
            expected=f"Each {owner} should have a total of its lines.",
            steps=("Import a statement with lines for two owners", "Ask for the per-owner totals",
                   "Both are empty"),
            example="the line count is right, the totals are zero",
            impact="the totals report is useless",
            vague="the totals report has been blank since the last release",
            guess="a database migration that did not run",
            log="totals: 0 owners",
        )
    return replace(bug, symptom=symptom, invariant=INVARIANT[bug.site])


# Phrases that would restate the rule each bug breaks (kept out of nearby prose from tier 3).
INVARIANT = {
    "strip_extension": ("without its .csv extension", "without its extension", "removesuffix"),
    "line_order": ("oldest day first", "in day order", "sorted by day"),
    "group_line": ("setdefault", "throw-away default"),
    "group_loop": ("object.entries", "iterate the map"),
}
