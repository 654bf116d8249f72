"""The contamination case admin: the inbox by deadline and one page an analyst works from.

The list is the inbox (open cases first, overdue at the top). A case's page shows the
evidence (agents, submissions, linked signals), the checklist, approvals and the full
timeline, with one small form per step the case can take now; every form needs a reason
and posts to one service, which checks the permission and the case's state again. Case
rows are never edited field by field or deleted here.
"""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from challenges.models import ChallengeInstance
from competition.models import Submission
from core.config import config_value
from core.dashboard import Panel, register_panel
from core.errors import ApplicationError
from detection.models import CaseChecklistItem, ContaminationCase
from detection.selectors.cases import case_inbox, case_metrics, template_case_history, templates_watched
from detection.services import cases as svc

Case = ContaminationCase
L = Case.Level


def _reason_field(label: str = "Reason (staff)") -> forms.CharField:
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}), max_length=2000, label=label,
                           help_text="Recorded on the timeline and in the audit log. Competitors never see it.")


class OpenForm(forms.Form):
    level = forms.TypedChoiceField(choices=Case.Level.choices, coerce=int)
    title = forms.CharField(max_length=200)
    instance = forms.UUIDField(required=False, help_text="Public id of the challenge instance (L1–L3).")
    submissions = forms.CharField(required=False, help_text="Submission handles, comma-separated.")
    reason = _reason_field()


class ReasonForm(forms.Form):
    reason = _reason_field()


class AssignForm(ReasonForm):
    assignee = forms.ModelChoiceField(queryset=get_user_model().objects.none())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assignee"].queryset = get_user_model().objects.filter(
            is_active=True, is_staff=True).order_by("username")


class NoteForm(forms.Form):
    reason = _reason_field("Note")


class EscalateForm(ReasonForm):
    to_level = forms.TypedChoiceField(choices=Case.Level.choices, coerce=int, label="Raise to")


class ChecklistForm(forms.Form):
    key = forms.SlugField()
    state = forms.ChoiceField(choices=[(CaseChecklistItem.State.DONE, "Done"),
                                       (CaseChecklistItem.State.NOT_APPLICABLE, "Not applicable")])
    reason = _reason_field("Finding")


class ReviewForm(ReasonForm):
    outcome = forms.ChoiceField(choices=[(o.value, o.label) for o in svc.REVIEW_OUTCOMES])
    threshold_suggestion = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Required for a false positive: what calibration should change.")


class QuarantineForm(ReasonForm):
    scope = forms.ChoiceField(choices=[("instance", "Instance-level: invalidate, regenerate, fresh attempts"),
                                       ("template", "Template-level: retire, invalidate the season (Integrity Lead)")])


class ThresholdForm(ReasonForm):
    key = forms.CharField(max_length=120, help_text="A novelty.* or detection.* setting.")
    value = forms.FloatField()
    hours = forms.FloatField(required=False, min_value=0.1, help_text="Empty: the default lifetime.")


def _submissions(text: str) -> list[Submission]:
    handles = [part.strip() for part in text.split(",") if part.strip()]
    found = list(Submission.objects.filter(handle__in=handles).select_related("agent", "attempt__challenge__bout"))
    missing = sorted(set(handles) - {s.handle for s in found})
    if missing:
        raise ApplicationError(f"No submission {', '.join(missing)}.", code="not_found")
    return found


# Each step: its form and the one service it calls (which checks permission and state).
STEPS = {
    "acknowledge": (forms.Form, lambda r, c, d: svc.case_acknowledge(case=c, by=r.user)),
    "assign": (AssignForm, lambda r, c, d: svc.case_assign(case=c, assignee=d["assignee"], by=r.user,
                                                            reason=d["reason"])),
    "note": (NoteForm, lambda r, c, d: svc.case_note_add(case=c, text=d["reason"], by=r.user)),
    "checklist": (ChecklistForm, lambda r, c, d: svc.case_checklist_record(
        case=c, key=d["key"], state=d["state"], finding=d["reason"], by=r.user)),
    "escalate": (EscalateForm, lambda r, c, d: svc.case_escalate(case=c, to_level=d["to_level"], by=r.user,
                                                                  reason=d["reason"])),
    "close-flag": (ReasonForm, lambda r, c, d: svc.case_flag_close(case=c, by=r.user, reason=d["reason"])),
    "review": (ReviewForm, lambda r, c, d: svc.case_review_decide(
        case=c, outcome=d["outcome"], by=r.user, reason=d["reason"],
        threshold_suggestion=d["threshold_suggestion"])),
    "quarantine": (QuarantineForm, lambda r, c, d: svc.case_quarantine_decide(case=c, scope=d["scope"], by=r.user,
                                                                              reason=d["reason"])),
    "approve": (ReasonForm, lambda r, c, d: svc.case_systemic_approve(case=c, by=r.user, reason=d["reason"])),
    "resume": (ReasonForm, lambda r, c, d: svc.case_systemic_resume(case=c, by=r.user, reason=d["reason"])),
    "threshold": (ThresholdForm, lambda r, c, d: svc.case_threshold_tighten(
        case=c, key=d["key"], value=d["value"], hours=d["hours"], by=r.user, reason=d["reason"])),
}


def steps_for(case: Case, user) -> list[str]:
    """The steps the page offers for this case now (the services check again on POST)."""
    if case.state != Case.State.OPEN:
        return ["note"] if user.has_perm(svc.PERM_WORK) else []
    if not user.has_perm(svc.PERM_WORK):
        return []
    lead = user.has_perm(svc.PERM_SYSTEMIC)
    steps = ["acknowledge"] if case.acknowledged_at is None else []
    steps += ["assign", "note"]
    if case.checklist.filter(state=CaseChecklistItem.State.PENDING).exists() and (case.level < L.SYSTEMIC or lead):
        steps.append("checklist")
    if case.level < L.SYSTEMIC and (case.level < L.QUARANTINE or lead):
        steps.append("escalate")
    steps += {L.FLAG: ["close-flag"], L.INVESTIGATE: ["review"], L.QUARANTINE: ["quarantine"]}.get(case.level, [])
    if case.level == L.SYSTEMIC and lead:
        steps += ["approve", "resume", "threshold"]
    return steps


@admin.register(ContaminationCase)
class ContaminationCaseAdmin(admin.ModelAdmin):
    list_display = ("reference_link", "level_badge", "state", "title", "template", "assignee", "due", "opened_at")
    list_filter = ("state", "level", "outcome", "source", ("assignee", admin.RelatedOnlyFieldListFilter))
    search_fields = ("title", "template__slug", "agents__name", "submissions__handle")
    list_select_related = ("template", "assignee")
    # Open cases first, the nearest deadline on top (cases without one after them) on every database.
    ordering = ("state", F("deadline_at").asc(nulls_last=True), "-opened_at")

    @admin.display(description="Case", ordering="pk")
    def reference_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("admin:detection_contaminationcase_change", args=[obj.pk]),
                           obj.reference)

    @admin.display(description="Level", ordering="level")
    def level_badge(self, obj):
        return format_html('<span class="case-level case-level-{}">{}</span>', obj.level, obj.get_level_display())

    @admin.display(description="Deadline", ordering="deadline_at")
    def due(self, obj):
        if obj.deadline_at is None:
            return "—"
        overdue = obj.state == Case.State.OPEN and obj.deadline_at <= timezone.now()
        return format_html('<span class="{}">{}{}</span>', "case-overdue" if overdue else "",
                           obj.deadline_at.strftime("%Y-%m-%d %H:%M UTC"), " (overdue)" if overdue else "")

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/act/<slug:step>/", wrap(self.step_view), name="detection_contaminationcase_step"),
        ] + super().get_urls()

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None) -> HttpResponse:
        """Staff open a case by hand (an L4 needs an Integrity Lead; the service checks)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = OpenForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                instance = None
                if data["instance"]:
                    instance = ChallengeInstance.objects.filter(public_id=data["instance"]).first()
                    if instance is None:
                        raise ApplicationError("No such challenge instance.", code="not_found")
                case = svc.case_open(level=data["level"], source=Case.Source.STAFF, title=data["title"],
                                     reason=data["reason"], instance=instance,
                                     submissions=_submissions(data["submissions"]), by=request.user)
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, f"{case.reference} opened at {case.get_level_display()}.")
                return HttpResponseRedirect(reverse("admin:detection_contaminationcase_change", args=[case.pk]))
        context = {**self.admin_site.each_context(request), "opts": self.opts, "title": "Open a contamination case",
                   "form": form}
        return TemplateResponse(request, "admin/detection/case_open.html", context)

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context=None):
        if request.method == "POST":
            raise PermissionDenied  # changes go through the step forms and their services
        if not object_id.isdigit():
            raise Http404
        case = get_object_or_404(Case.objects.select_related("instance", "template", "bout", "assignee", "parent"),
                                 pk=int(object_id))
        if not self.has_view_permission(request, case):
            raise PermissionDenied
        offered = steps_for(case, request.user)
        forms_by_step = {}
        for step in offered:
            form_class = STEPS[step][0]
            form = form_class(prefix=step)
            if step == "checklist":
                form.fields["key"] = forms.ChoiceField(choices=[
                    (i.key, i.label) for i in case.checklist.filter(state=CaseChecklistItem.State.PENDING)])
            forms_by_step[step] = form
        context = {
            **self.admin_site.each_context(request), "opts": self.opts, "title": f"{case.reference}: {case.title}",
            "case": case, "original": case,
            "agents": case.agents.order_by("pk"),
            "submissions": case.submissions.select_related("agent", "attempt__challenge").order_by("pk"),
            "signals": case.signals.select_related("submission").order_by("pk"),
            "checklist": case.checklist.select_related("done_by"),
            "approvals": case.approvals.select_related("approver"),
            "timeline": case.timeline.select_related("actor"),
            "held": case.held_scores.select_related("score__entry__agent", "score__challenge"),
            "replacements": case.replacement_instances.all(),
            "halted": case.halted_bouts.all(),
            "history": template_case_history(case)[:20],
            "watch": (templates_watched().filter(template_id=case.template_id).select_related("case")
                      .order_by("-ends_at").first() if case.template_id else None),
            "watch_level": L(config_value("cases.watch_min_level")).label,
            "steps": [{"name": s, "form": forms_by_step[s],
                       "url": reverse("admin:detection_contaminationcase_step", args=[case.pk, s])} for s in offered],
            "overdue": case.state == Case.State.OPEN and case.deadline_at is not None
                       and case.deadline_at <= timezone.now(),
        }
        return TemplateResponse(request, "admin/detection/case.html", context)

    def step_view(self, request: HttpRequest, pk: int, step: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:detection_contaminationcase_change", args=[pk]))
        if step not in STEPS or not self.has_view_permission(request):
            raise Http404
        case = get_object_or_404(Case, pk=pk)
        form_class, call = STEPS[step]
        form = form_class(request.POST, prefix=step)
        if step == "checklist":
            form.fields["key"] = forms.CharField()
        back = HttpResponseRedirect(reverse("admin:detection_contaminationcase_change", args=[pk]))
        if not form.is_valid():
            errors = "; ".join(f"{name}: {' '.join(errs)}" for name, errs in form.errors.items())
            self.message_user(request, f"Nothing changed — {errors}", messages.ERROR)
            return back
        try:
            call(request, case, form.cleaned_data)
        except ApplicationError as exc:
            self.message_user(request, f"Nothing changed — {exc.message}", messages.ERROR)
        else:
            self.message_user(request, f"{case.reference}: {step.replace('-', ' ')} recorded.")
        return back


def _inbox_context(request: HttpRequest) -> dict:
    week = case_metrics(since=timezone.now() - timedelta(days=7))
    return {"cases": case_inbox()[:15], "week": week,
            "mttd_minutes": None if week["mean_time_to_detect_seconds"] is None
            else round(week["mean_time_to_detect_seconds"] / 60, 1),
            "mttr_hours": None if week["mean_time_to_resolve_seconds"] is None
            else round(week["mean_time_to_resolve_seconds"] / 3600, 1)}


register_panel(Panel(key="contamination-cases", title="Open contamination cases", template="admin/panels/cases.html",
                     context=_inbox_context, permission="detection.view_contaminationcase", order=30))
