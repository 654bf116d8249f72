"""Background work for contamination cases (q2 tasks take ids and call one service)."""

from __future__ import annotations


def cases_enforce_deadlines() -> dict[str, int]:
    from detection.services.cases import cases_enforce_deadlines as enforce

    return enforce()


def case_replacement_generate(case_id: int, bout_id: int, contaminated_id: int, scope: str) -> int | None:
    from detection.services.cases import case_replacement_generate as generate

    return generate(case_id=case_id, bout_id=bout_id, contaminated_id=contaminated_id, scope=scope)
