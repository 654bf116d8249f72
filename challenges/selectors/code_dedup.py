"""Reads for code-level dedup: the shared regions of two instances as text, for staff."""

from __future__ import annotations

from typing import Any

from challenges.models import ChallengeInstance
from challenges.services.workspaces import WorkspaceError, workspace_tree
from core.crypto import SealError

#: Lines shown per side of one region at most (a long region is cut, and says so).
MAX_REGION_LINES = 80


def _lines(root, path: str, start: int, end: int) -> tuple[str, bool]:
    try:
        target = (root / path).resolve()
        if root.resolve() not in target.parents:
            return "", False
        lines = target.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return "", False
    stop = min(end, start + MAX_REGION_LINES - 1)
    numbered = [f"{n:>5}  {lines[n - 1]}" for n in range(start, min(stop, len(lines)) + 1)]
    return "\n".join(numbered), stop < end


def code_regions_side_by_side(*, instance: ChallengeInstance, earlier: ChallengeInstance | None,
                              regions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each shared region with the code of both sides (from the stored workspaces).

    A workspace that cannot be read (for example a row without a stored archive) leaves
    that side empty rather than failing the page.
    """
    def root_of(row: ChallengeInstance | None):
        if row is None:
            return None
        try:
            return workspace_tree(row)
        except (WorkspaceError, SealError, OSError, ValueError):
            return None

    mine, theirs = root_of(instance), root_of(earlier)
    shown = []
    for region in regions:
        left, left_cut = _lines(mine, region["path"], region["start"], region["end"]) if mine else ("", False)
        right, right_cut = (_lines(theirs, region["other_path"], region["other_start"], region["other_end"])
                            if theirs else ("", False))
        shown.append({**region, "mine": left, "theirs": right, "cut": left_cut or right_cut})
    return shown


def code_dedup_summary(*, now=None) -> dict[str, Any]:
    """What code dedup is doing over the comparison window, for the staff dashboard.

    Enforcement and thresholds as set, how many window instances were judged reject /
    flag / accept by their code (whatever the enforcement did with it), and how many
    have no signature (made before code dedup: ``manage.py code_dedup_backfill``).
    """
    from django.db.models import Count
    from django.utils import timezone

    from challenges.novelty_config import code_dedup_settings
    from challenges.services.code_dedup import EXCLUDED_STATES, params_label

    now = now or timezone.now()
    config = code_dedup_settings()
    window = ChallengeInstance.objects.filter(created_at__gte=config.window.window_start(now),
                                              created_at__lte=now).exclude(state__in=EXCLUDED_STATES)
    verdicts = dict(window.filter(dedup__has_key="code").values_list("dedup__code__verdict")
                    .annotate(n=Count("pk")).values_list("dedup__code__verdict", "n"))
    return {
        "enforcement": str(config.enforcement), "reject_above": config.thresholds.reject,
        "flag_from": config.thresholds.flag, "days": config.window.days,
        "instances": window.count(),
        "unsigned": window.exclude(code_signature__params=params_label()).count(),
        "reject": verdicts.get("reject", 0), "flag": verdicts.get("flag", 0), "accept": verdicts.get("accept", 0),
    }
