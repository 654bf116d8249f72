"""Staff admin for contamination detection: signals and composite on each submission,
the signals and composites on their own, the canary log with trigger rates, and the
canonical-fix library staff extend. Detection rows are records: shown, never edited here."""

from __future__ import annotations

import csv
import json
from datetime import timedelta

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html

from competition.admin import ReadOnlyInline, RecordAdmin
from competition.models import Submission
from core.admin_display import short_text
from core.dashboard import Panel, register_panel
from core.services import audit_event_record
from detection.models import CanaryInteraction, CanonicalFixEntry, CompositeScore, SubmissionSignal
from detection.selectors import BY, canary_trigger_rates

CANONICAL_FIX_SAVED_VERB = "canonical_fix.saved"


def _json(value) -> str:
    return format_html("<pre style='white-space:pre-wrap;max-width:70em'>{}</pre>",
                       json.dumps(value, indent=2, sort_keys=True, default=str))


def _shown(value) -> str:
    return "unknown" if value is None else f"{value:.3f}"


class SignalInline(ReadOnlyInline):
    model = SubmissionSignal
    fields = ("kind", "source", "value_shown", "weight", "reason", "evidence_shown")
    readonly_fields = fields
    verbose_name_plural = "Detection signals"

    @admin.display(description="Value")
    def value_shown(self, obj):
        return _shown(obj.value)

    @admin.display(description="Evidence")
    def evidence_shown(self, obj):
        return _json(obj.evidence)


class CompositeInline(ReadOnlyInline):
    model = CompositeScore
    fields = ("value_shown", "action", "reason", "updated_at")
    readonly_fields = fields
    verbose_name = verbose_name_plural = "composite contamination score"

    @admin.display(description="Value")
    def value_shown(self, obj):
        return _shown(obj.value)


class CanaryInline(ReadOnlyInline):
    model = CanaryInteraction
    fields = ("canary_id", "modified", "otherwise_fixed", "excerpt")
    readonly_fields = fields
    verbose_name_plural = "Canary interactions"


# Detection extends the submission's page with its findings (the submission admin is the
# competition app's; its inlines are the extension point, so nothing there imports detection).
_submission_admin = admin.site._registry.get(Submission)
if _submission_admin is not None:
    _submission_admin.inlines = [*_submission_admin.inlines, CompositeInline, SignalInline, CanaryInline]


def _submission_link(submission) -> str:
    url = reverse("admin:competition_submission_change", args=[submission.pk])
    return format_html('<a href="{}">{}</a>', url, submission.handle)


@admin.register(CompositeScore)
class CompositeScoreAdmin(RecordAdmin):
    list_display = ("submission_shown", "agent", "value_shown", "action", "reason_short", "updated_at")
    list_filter = ("action", "submission__attempt__challenge__bout")
    search_fields = ("submission__handle", "submission__agent__name")
    list_select_related = ("submission__agent",)
    fields = ("submission_shown", "agent", "value_shown", "action", "reason", "components_shown", "created_at",
              "updated_at")

    @admin.display(description="Submission", ordering="submission__handle")
    def submission_shown(self, obj):
        return _submission_link(obj.submission)

    @admin.display(description="Agent")
    def agent(self, obj):
        return obj.submission.agent

    @admin.display(description="Value", ordering="value")
    def value_shown(self, obj):
        return _shown(obj.value)

    @admin.display(description="Reason")
    def reason_short(self, obj):
        return short_text(obj.reason)

    @admin.display(description="Components")
    def components_shown(self, obj):
        return _json(obj.components)


@admin.register(SubmissionSignal)
class SubmissionSignalAdmin(RecordAdmin):
    list_display = ("submission_shown", "kind", "source", "value_shown", "weight", "reason_short", "updated_at")
    list_filter = ("kind", "source")
    search_fields = ("submission__handle", "kind")
    list_select_related = ("submission",)
    fields = ("submission_shown", "kind", "source", "value_shown", "weight", "reason", "evidence_shown",
              "created_at", "updated_at")

    @admin.display(description="Submission", ordering="submission__handle")
    def submission_shown(self, obj):
        return _submission_link(obj.submission)

    @admin.display(description="Value", ordering="value")
    def value_shown(self, obj):
        return _shown(obj.value)

    @admin.display(description="Reason")
    def reason_short(self, obj):
        return short_text(obj.reason)

    @admin.display(description="Evidence")
    def evidence_shown(self, obj):
        return _json(obj.evidence)


@admin.register(CanaryInteraction)
class CanaryInteractionAdmin(RecordAdmin):
    list_display = ("created_at", "canary_id", "template", "agent", "challenge", "submission_shown", "modified",
                    "otherwise_fixed")
    list_filter = ("modified", "otherwise_fixed", "instance__template__slug", "challenge__bout__season")
    search_fields = ("canary_id", "submission__handle", "agent__name")
    list_select_related = ("agent", "challenge", "submission", "instance__template")
    fields = ("canary_id", "template", "instance", "challenge", "agent", "submission_shown", "modified",
              "otherwise_fixed", "excerpt", "created_at")
    change_list_template = "admin/detection/canaryinteraction/change_list.html"

    @admin.display(description="Template", ordering="instance__template__slug")
    def template(self, obj):
        return obj.instance.template.slug

    @admin.display(description="Submission")
    def submission_shown(self, obj):
        return _submission_link(obj.submission)

    def get_urls(self):
        rates = self.admin_site.admin_view(self.trigger_rates_view)
        return [path("trigger-rates/", rates, name="detection_canaryinteraction_rates")] + super().get_urls()

    def trigger_rates_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        by = request.GET.get("by", "canary")
        if by not in BY:
            by = "canary"
        rates = [r.as_dict() for r in canary_trigger_rates(by=by)]
        if request.GET.get("format") == "csv":
            response = HttpResponse(content_type="text/csv")
            response["Content-Disposition"] = f'attachment; filename="canary-trigger-rates-by-{by}.csv"'
            columns = [*(rates[0].keys() if rates else ["attempted", "modified", "rate", "status", "reason"])]
            writer = csv.DictWriter(response, fieldnames=columns)
            writer.writeheader()
            writer.writerows(rates)
            return response
        columns = [c for c in (rates[0].keys() if rates else []) if c not in ("reason",)]
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "title": "Canary trigger rates",
                   "by": by, "choices": list(BY), "rates": rates, "columns": columns,
                   "alerting": [r for r in rates if r["status"] in ("too_obvious", "unfair", "may_be_real_bug")]}
        return TemplateResponse(request, "admin/detection/trigger_rates.html", context)


@admin.register(CanonicalFixEntry)
class CanonicalFixEntryAdmin(admin.ModelAdmin):
    """Staff extend the shipped canonical-fix library; ``clean()`` parses both functions."""

    list_display = ("key", "bug_type", "language", "family", "active", "updated_at")
    list_filter = ("language", "active", "family")
    search_fields = ("key", "bug_type", "title")
    fields = ("key", "bug_type", "language", "title", "family", "corpus_key", "before", "after", "active")

    @transaction.atomic
    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        audit_event_record(verb=CANONICAL_FIX_SAVED_VERB, target=obj, actor=request.user,
                           after={"key": obj.key, "bug_type": obj.bug_type, "language": obj.language,
                                  "active": obj.active, "changed": sorted(form.changed_data)},
                           reason="canonical-fix library edited in the admin")

    def has_delete_permission(self, request, obj=None):
        return False  # withdraw an entry by making it inactive: findings keep naming it


PANEL_WINDOW = timedelta(days=7)
ALERTS = ("too_obvious", "unfair", "may_be_real_bug")


def detection_panel(request) -> dict:
    since = timezone.now() - PANEL_WINDOW
    recent = CompositeScore.objects.filter(updated_at__gte=since)
    rates = canary_trigger_rates(by="canary")
    return {
        "days": PANEL_WINDOW.days,
        "actions": {action: recent.filter(action=action).count()
                    for action in (CompositeScore.Action.QUARANTINE, CompositeScore.Action.FLAG,
                                   CompositeScore.Action.LOG)},
        "canary_alerts": [r for r in rates if r.status in ALERTS][:10],
        "canaries": len(rates),
    }


register_panel(Panel(key="detection", title="Contamination detection", template="admin/panels/detection.html",
                     context=detection_panel, permission="detection.view_compositescore", order=30))
