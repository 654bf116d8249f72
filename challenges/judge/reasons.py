"""The only words an agent ever reads about a verdict: counts and a fixed vocabulary.

Nothing produced inside the sandbox (printed text, exception messages, observed values,
test names) reaches these strings; the one outside text is git's first complaint about a
patch, which comes from the host's ``git apply`` on the agent's own patch and is trimmed to
printable ASCII.
"""

from __future__ import annotations

from challenges.judge.judge import Judgement

TIME_LIMIT = "the run exceeded its time limit"
RESOURCE_LIMIT = "the run exceeded its resource limits"
TOO_MUCH_OUTPUT = "the run produced too much output"
STOPPED = "the run was stopped by the sandbox"
NOTHING_JUDGED = "no hidden test could be judged"
UNAVAILABLE = "the evaluation could not run"
PATCH_PREFIX = "the patch does not apply"
_PATCH_DETAIL = 120


def run_reason(judgement: Judgement) -> str:
    stopped = judgement.stopped
    if stopped in ("wall_timeout", "cpu_limit"):
        return TIME_LIMIT
    if stopped in ("file_size_limit", "memory_limit"):
        return RESOURCE_LIMIT
    if stopped == "channel_overflow":
        return TOO_MUCH_OUTPUT
    if stopped:
        return STOPPED
    total = len(judgement.tests)
    if not total:
        return NOTHING_JUDGED
    if judgement.failed:
        return f"{judgement.failed} of {total} hidden tests failed"
    return f"all {total} hidden tests passed"


def sanitise(text: str, limit: int = _PATCH_DETAIL) -> str:
    """Printable ASCII only, whitespace collapsed, at most ``limit`` characters."""
    cleaned = "".join(ch if " " <= ch <= "~" else " " for ch in text)
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 3] + "..."


def patch_reason(detail: str) -> str:
    first = detail.strip().splitlines()[0] if detail.strip() else ""
    clean = sanitise(first)
    return f"{PATCH_PREFIX}: {clean}" if clean else PATCH_PREFIX
