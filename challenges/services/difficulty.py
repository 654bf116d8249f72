"""Measured difficulty of instances, Django side: the tier check the pipeline applies and the
backfill of instances stored before it existed.

The record kept on ``ChallengeInstance.difficulty_profile`` is the engine's profile
(``challenges.engine.difficulty``) plus a ``check``: the tier it was judged against, the
floor and enforcement in force then, and the shortfalls in words staff can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from challenges.difficulty_config import ENFORCE, difficulty_enforcement, difficulty_floor
from challenges.engine.difficulty import DifficultyProfile, code_paths, measure, profile_instance, shortfalls
from challenges.engine.instance import GeneratedInstance
from challenges.engine.patches import changed_paths
from challenges.models import ChallengeInstance
from challenges.services.workspaces import instance_secrets, workspace_tree
from core.errors import Conflict
from core.services import audit_event_record


@dataclass(frozen=True)
class DifficultyAssessment:
    profile: DifficultyProfile
    tier: int
    enforcement: str
    shortfalls: list[str]
    record: dict[str, Any]

    @property
    def refused(self) -> bool:
        """Whether generation must refuse the instance (enforced and short of its floor)."""
        return self.enforcement == ENFORCE and bool(self.shortfalls)

    def summary(self) -> str:
        return f"below the tier-{self.tier} difficulty floor: " + "; ".join(self.shortfalls)


def difficulty_assess(*, profile: DifficultyProfile, tier: int) -> DifficultyAssessment:
    """Compare ``profile`` with the floor of ``tier`` as staff set it now."""
    floor = difficulty_floor(tier)
    enforcement = difficulty_enforcement()
    missing = shortfalls(profile, floor, tier)
    record = {**profile.to_dict(),
              "check": {"tier": tier, "enforcement": enforcement, "floor": floor.to_dict(), "shortfalls": missing,
                        "passed": not missing}}
    return DifficultyAssessment(profile, tier, enforcement, missing, record)


def _gate_details(gates: dict[str, Any], name: str) -> dict[str, Any] | None:
    for result in gates.get("results", []):
        if result.get("name") == name:
            return result.get("details") or {}
    return None


def generated_difficulty_assess(*, generated: GeneratedInstance, gates: dict[str, Any],
                                tier: int) -> DifficultyAssessment:
    """The assessment of a freshly generated instance, from what its release gates recorded
    (``gates`` in the stored shape: fail-to-pass tests, visible failures caused by the bug)."""
    oracle = _gate_details(gates, "oracle") or {}
    visible = _gate_details(gates, "visible")
    profile = profile_instance(generated, fail_to_pass=oracle.get("fail_to_pass", []),
                               failing_on_bug=None if visible is None else visible.get("failing_on_bug", []))
    return difficulty_assess(profile=profile, tier=tier)


def generated_size_refusal(*, generated: GeneratedInstance, tier: int) -> DifficultyAssessment | None:
    """Before the release gates: when enforcing, the assessment of what needs no test run (source
    lines and files) if that alone refuses the instance, so no sandbox time is spent on a draw
    that cannot be released; None otherwise (observing, or the size is enough)."""
    if difficulty_enforcement() != ENFORCE:
        return None
    size_only = replace(difficulty_floor(tier), min_causal_distance=0)
    profile = profile_instance(generated)
    missing = shortfalls(profile, size_only, tier)
    if not missing:
        return None
    record = {**profile.to_dict(), "check": {"tier": tier, "enforcement": ENFORCE, "floor": size_only.to_dict(),
                                            "shortfalls": missing, "passed": False}}
    return DifficultyAssessment(profile, tier, ENFORCE, missing, record)


def _workspace_files(instance: ChallengeInstance) -> dict[str, str]:
    root = workspace_tree(instance)
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.split("/", 1)[0] == ".git" or path.is_symlink() or not path.is_file():
            continue
        try:
            files[rel] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary files carry no code to measure
    return files


def instance_difficulty_backfill(*, instance: ChallengeInstance) -> dict[str, Any]:
    """Measure and record the difficulty profile of a stored instance, from its sealed workspace,
    its sealed secrets (hidden tests, gold patch, statement) and its recorded gate results.

    The source files are found by the emitters' path rules (test directories and names),
    which agree with the generator's own list. The check uses the instance's tier and today's
    floor; ``enforcement`` is recorded but a backfill never refuses a stored instance.
    Conflict (``difficulty_unavailable``) when the secrets lack what the profile needs.
    """
    secrets = instance_secrets(instance)
    oracle_files = secrets.get("oracle_files") or {}
    fault_files = changed_paths(secrets.get("gold_patch", ""))
    if not oracle_files or not fault_files:
        raise Conflict("The difficulty profile cannot be measured: the sealed secrets hold no hidden tests or gold "
                       "patch.", code="difficulty_unavailable", extra={"instance": instance.pk})
    files = _workspace_files(instance)
    source, tests = code_paths(files, instance.language)
    oracle = _gate_details(instance.gates, "oracle") or {}
    visible = _gate_details(instance.gates, "visible")
    profile = measure(language=instance.language, files=files, source_paths=source, test_paths=tests,
                      fault_files=fault_files, statement=secrets.get("statement", ""), oracle_files=oracle_files,
                      failing_tests=oracle.get("fail_to_pass", []),
                      visible_failing=None if visible is None else bool(visible.get("failing_on_bug")))
    assessment = difficulty_assess(profile=profile, tier=instance.tier)
    with transaction.atomic():
        row = ChallengeInstance.objects.select_for_update().get(pk=instance.pk)
        before = row.difficulty_profile
        row.difficulty_profile = assessment.record
        row.save(update_fields=["difficulty_profile"])
        audit_event_record(verb="instance.difficulty_measured", target=row, actor_label="difficulty backfill",
                           before={"difficulty_profile": before} if before else None,
                           after={"difficulty_profile": assessment.record},
                           reason="measured from the sealed workspace and secrets")
    instance.difficulty_profile = row.difficulty_profile
    return assessment.record
