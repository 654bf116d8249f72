"""Contamination cases (spec 003 "Response Protocol", levels L1–L4).

A case is what staff work from when a signal fires: its level, the challenge instance and
template, the agents and submissions involved, the evidence (linked, never copied), an
assignee, a state, a deadline and a timeline. Rows change only through
``detection.services.cases``; each change is a timeline entry and an audit event written
in the same transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from challenges.models import ChallengeInstance, ChallengeTemplate
from competition.models import Agent, Bout, Score, Submission
from detection.models.signals import SubmissionSignal


class ContaminationCase(models.Model):
    class Level(models.IntegerChoices):
        FLAG = 1, "L1 Flag"
        INVESTIGATE = 2, "L2 Investigate"
        QUARANTINE = 3, "L3 Quarantine"
        SYSTEMIC = 4, "L4 Systemic"

    class State(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    class Source(models.TextChoices):
        SIGNAL = "signal", "Real-time signal"
        BATCH = "batch", "Post-bout batch"
        STAFF = "staff", "Opened by staff"
        RULE = "rule", "Systemic rule"
        ESCALATION = "escalation", "Escalated from another case"

    class Outcome(models.TextChoices):
        NONE = "", "—"
        NOTED = "noted", "Flag noted"
        FALSE_POSITIVE = "false_positive", "False positive"
        INCONCLUSIVE = "inconclusive", "Inconclusive (monitoring raised)"
        CONFIRMED = "confirmed", "Confirmed (escalated)"
        INSTANCE = "instance", "Instance-level contamination"
        TEMPLATE = "template", "Template-level contamination"
        SYSTEMIC_REMEDIATED = "systemic_remediated", "Systemic: audited, remediated, resumed"
        MERGED = "merged", "Merged into another case"

    level = models.PositiveSmallIntegerField(choices=Level.choices, db_index=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    outcome = models.CharField(max_length=24, choices=Outcome.choices, blank=True, default="")
    source = models.CharField(max_length=12, choices=Source.choices)
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    composite = models.FloatField(null=True, blank=True, help_text="Composite contamination score that opened it.")
    instance = models.ForeignKey(ChallengeInstance, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="contamination_cases")
    template = models.ForeignKey(ChallengeTemplate, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="contamination_cases")
    bout = models.ForeignKey(Bout, null=True, blank=True, on_delete=models.PROTECT, related_name="contamination_cases")
    agents = models.ManyToManyField(Agent, blank=True, related_name="contamination_cases")
    submissions = models.ManyToManyField(Submission, blank=True, related_name="contamination_cases")
    # The detection findings behind the case, linked (never copied): their values and
    # evidence stay where the detectors wrote them.
    signals = models.ManyToManyField(SubmissionSignal, blank=True, related_name="contamination_cases")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="children",
                               help_text="The case this one was escalated from or merged into.")
    assignee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="assigned_contamination_cases")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    opened_label = models.CharField(max_length=100, blank=True)
    # When the earliest evidence arrived (the first flagged submission); time to detect is
    # opened_at - evidence_at.
    evidence_at = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(db_index=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    level_changed_at = models.DateTimeField()
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # 0: on time; 1: breach notified; 2: breach acted on (escalated or reassigned).
    overdue_step = models.PositiveSmallIntegerField(default=0)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    resolution = models.TextField(blank=True)
    time_to_detect_seconds = models.FloatField(null=True, blank=True)
    time_to_resolve_seconds = models.FloatField(null=True, blank=True)
    # A calibration note recorded with a false positive (spec: "tune detection thresholds").
    threshold_suggestion = models.TextField(blank=True)
    # L3: what replaced the contaminated instance; L4: the bouts this case halted.
    replacement_instances = models.ManyToManyField(ChallengeInstance, blank=True, related_name="replaced_for_cases")
    halted_bouts = models.ManyToManyField(Bout, blank=True, related_name="halted_by_cases")
    # What competitors may read; never signals or names.
    public_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["state", "deadline_at", "-opened_at"]
        indexes = [models.Index(fields=["state", "deadline_at"])]
        permissions = [
            ("decide_template_case", "Can confirm template-level contamination (retire, invalidate the season)"),
            ("decide_systemic_case", "Can open, approve and resume an L4 systemic case"),
        ]

    def __str__(self) -> str:
        return f"Case {self.pk} ({self.get_level_display()})"

    @property
    def reference(self) -> str:
        return f"CASE-{self.pk}"


class CaseTimelineEntry(models.Model):
    """One thing that happened to a case, in order: opening, level changes, checklist
    findings, notes, notifications, deadline breaches, approvals, outcomes."""

    class Kind(models.TextChoices):
        OPENED = "opened", "Opened"
        EVIDENCE = "evidence", "Evidence linked"
        LEVEL = "level", "Level changed"
        ASSIGNED = "assigned", "Assigned"
        ACKNOWLEDGED = "acknowledged", "Acknowledged"
        NOTE = "note", "Note"
        CHECKLIST = "checklist", "Checklist item"
        EFFECT = "effect", "Effect applied"
        NOTIFIED = "notified", "Notified"
        OVERDUE = "overdue", "Deadline breached"
        APPROVAL = "approval", "Approval"
        REFUSED = "refused", "Action refused"
        OUTCOME = "outcome", "Outcome"

    case = models.ForeignKey(ContaminationCase, on_delete=models.CASCADE, related_name="timeline")
    occurred_at = models.DateTimeField()
    kind = models.CharField(max_length=14, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    actor_label = models.CharField(max_length=100, blank=True)
    message = models.TextField()
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["occurred_at", "id"]
        verbose_name_plural = "case timeline entries"

    def __str__(self) -> str:
        return f"{self.case_id} {self.kind}: {self.message[:60]}"


class CaseChecklistItem(models.Model):
    """One item of a level's checklist, recorded item by item (L2 review, L3 analysis,
    L4 audit and remediation steps)."""

    class Section(models.TextChoices):
        REVIEW = "review", "L2 review"
        ANALYSIS = "analysis", "L3 analysis"
        AUDIT = "audit", "L4 audit"
        REMEDIATION = "remediation", "L4 remediation"

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        NOT_APPLICABLE = "not_applicable", "Not applicable"

    case = models.ForeignKey(ContaminationCase, on_delete=models.CASCADE, related_name="checklist")
    section = models.CharField(max_length=12, choices=Section.choices)
    key = models.SlugField(max_length=60)
    label = models.CharField(max_length=200)
    position = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    finding = models.TextField(blank=True)
    done_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["case_id", "position"]
        constraints = [models.UniqueConstraint(fields=["case", "key"], name="case_checklist_unique_key")]

    def __str__(self) -> str:
        return f"{self.label} ({self.state})"


class CaseScore(models.Model):
    """A score a case acted on, with the state it had before, so an outcome can restore it."""

    case = models.ForeignKey(ContaminationCase, on_delete=models.CASCADE, related_name="held_scores")
    score = models.ForeignKey(Score, on_delete=models.PROTECT, related_name="contamination_holds")
    state_before = models.CharField(max_length=12)
    # True while the case keeps the score from becoming final (bout close skips it).
    holding = models.BooleanField(default=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["case", "score"], name="case_score_unique")]

    def __str__(self) -> str:
        return f"case {self.case_id} holds score {self.score_id}"


class CaseApproval(models.Model):
    """An Integrity Lead's approval to resume bouts after an L4 audit (two different leads)."""

    case = models.ForeignKey(ContaminationCase, on_delete=models.CASCADE, related_name="approvals")
    approver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField()
    reason = models.TextField()

    class Meta:
        ordering = ["approved_at"]
        constraints = [models.UniqueConstraint(fields=["case", "approver"], name="case_approval_one_per_lead")]

    def __str__(self) -> str:
        return f"{self.approver} approved case {self.case_id}"


class TemplateWatch(models.Model):
    """Raised monitoring on a template after an inconclusive review, until ``ends_at``."""

    template = models.ForeignKey(ChallengeTemplate, on_delete=models.CASCADE, related_name="watches")
    case = models.ForeignKey(ContaminationCase, on_delete=models.CASCADE, related_name="watches")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)
    reason = models.TextField()

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"watch {self.template} until {self.ends_at:%Y-%m-%d}"


class TemporaryThreshold(models.Model):
    """A setting tightened by an L4 remediation step, reverted automatically at ``expires_at``."""

    case = models.ForeignKey(ContaminationCase, on_delete=models.CASCADE, related_name="temporary_thresholds")
    key = models.CharField(max_length=120)
    # The override in force before (None: the declared default applied).
    previous = models.JSONField(null=True, blank=True)
    had_override = models.BooleanField(default=False)
    value = models.JSONField()
    set_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)
    reverted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-set_at"]

    def __str__(self) -> str:
        return f"{self.key}={self.value} until {self.expires_at:%Y-%m-%d %H:%M}"
