"""Staff-editable numbers of the response protocol (spec 003 "Response Protocol").

The level bands are the composite thresholds ``detection.threshold.*``; the review deadlines, escalation policy and the neutral reasons competitors
read are defaults staff can change in the admin; nothing here is a literal in the services.
"""

from core.config import Setting, declare, declares, non_negative_number, positive_int

GROUP = "contamination cases"
OVERDUE_ACTIONS = ("raise_level", "reassign")
CORPUS_CATEGORIES = ("interview_contest", "debugging_qa", "textbook_bug_class", "real_world_bug")


def _text(value):
    if not isinstance(value, str) or not value.strip():
        raise TypeError("must be non-empty text")
    if len(value) > 300:
        raise ValueError("must be at most 300 characters")
    return value.strip()


_text.kind = str  # type: ignore[attr-defined]


@declares(int, 1, 3)
def _case_level(value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("must be a whole number")
    if not 1 <= value <= 3:
        raise ValueError("must be a level from 1 (flag) to 3 (quarantine)")
    return value


declare(
    Setting("cases.l2_deadline_hours", 24.0, "Hours an L2 investigation has for its review.",
            validate=non_negative_number, group=GROUP),
    Setting("cases.l3_deadline_hours", 4.0, "Hours an L3 quarantine has for its full analysis.",
            validate=non_negative_number, group=GROUP),
    Setting("cases.l4_deadline_hours", 24.0, "Hours an L4 systemic case has for its audit.",
            validate=non_negative_number, group=GROUP),
    Setting("cases.overdue_grace_hours", 1.0,
            "After a deadline is breached and notified, hours until the overdue action is taken.",
            validate=non_negative_number, group=GROUP),
    Setting("cases.overdue_action", "raise_level",
            "What happens to a case still overdue after the grace period: raise its level (an L3 is reassigned "
            "to an Integrity Lead instead, since only a lead opens L4) or reassign it to an Integrity Lead.",
            group=GROUP, choices=OVERDUE_ACTIONS),
    Setting("cases.l4_approvals_required", 2, "Different Integrity Leads who must approve before bouts resume.",
            validate=positive_int, group=GROUP),
    Setting("cases.monitoring_days", 30, "Days of raised monitoring on a template after an inconclusive review.",
            validate=positive_int, group=GROUP),
    Setting("cases.watch_min_level", 2,
            "While a template is under raised monitoring (an inconclusive review), a detection finding on it opens "
            "a case at this level at least (1: no change; 2: a flag is investigated; 3: quarantined).",
            validate=_case_level, group=GROUP),
    Setting("cases.threshold_expiry_hours", 72.0, "Default lifetime of a threshold tightened by an L4 remediation.",
            validate=non_negative_number, group=GROUP),
    Setting("cases.systemic_templates", 3,
            "Open L3 cases on this many different templates within the window open an L4 systemic case.",
            validate=positive_int, group=GROUP),
    Setting("cases.systemic_window_days", 7, "Window of the systemic rule, in days.", validate=positive_int,
            group=GROUP),
    Setting("cases.corpus_category", "textbook_bug_class",
            "Known-contamination corpus category for a template fingerprint added by a template-level outcome.",
            group=GROUP, choices=CORPUS_CATEGORIES),
    Setting("cases.public_reason_review", "under integrity review", "What competitors read on a score under review.",
            validate=_text, group=GROUP),
    Setting("cases.public_reason_invalidated", "invalidated after an integrity review",
            "What competitors read on a score a case invalidated.", validate=_text, group=GROUP),
    Setting("cases.public_reason_restored", "integrity review closed; the score stands",
            "What competitors read on a score a case restored.", validate=_text, group=GROUP),
    Setting("cases.public_reason_halt", "paused for an integrity audit",
            "What competitors read on a bout halted by an L4 systemic case.", validate=_text, group=GROUP),
    Setting("cases.public_reason_resume", "integrity audit complete",
            "What competitors read on a bout resumed after an L4 systemic case.", validate=_text, group=GROUP),
)
