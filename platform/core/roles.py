"""Staff roles and what each may do.

A role grants Django model permissions by action and app. The table is declarative so a
later capability adds its models to an app here and the roles pick them up on the next
``migrate`` (or ``manage.py setup_roles``). Custom permissions (e.g. deciding a
contamination case) are listed by full codename under ``extra``.

- Viewer: read everything staff can see, change nothing.
- Operator: runs the competition — seasons, bouts, agents, templates, generation.
- Integrity Analyst: works contamination cases and review queues; reads competition data.
- Integrity Lead: everything an analyst can, plus final decisions (quarantine, invalidation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

OPERATOR = "Operator"
INTEGRITY_ANALYST = "Integrity Analyst"
INTEGRITY_LEAD = "Integrity Lead"
VIEWER = "Viewer"

STAFF_APPS = ("core", "competition", "challenges", "detection", "django_q")


@dataclass(frozen=True)
class Role:
    name: str
    view: tuple[str, ...] = STAFF_APPS
    add: tuple[str, ...] = ()
    change: tuple[str, ...] = ()
    delete: tuple[str, ...] = ()
    extra: tuple[str, ...] = field(default=())


ROLES: tuple[Role, ...] = (
    Role(VIEWER),
    Role(OPERATOR, add=("competition", "challenges"), change=("competition", "challenges")),
    Role(INTEGRITY_ANALYST, add=("detection",), change=("detection",),
         extra=("challenges.view_instance_secrets",)),
    Role(
        INTEGRITY_LEAD,
        add=("detection", "challenges"),
        change=("detection", "challenges", "competition"),
        delete=("detection",),
        extra=("competition.disqualify_boutentry", "challenges.view_instance_secrets",
               "detection.decide_template_case", "detection.decide_systemic_case"),
    ),
)

# Audit events are append-only for everyone, whatever the table above says.
NEVER_GRANTED = {"core.add_auditevent", "core.change_auditevent", "core.delete_auditevent"}
