"""Admin for measured difficulty: calibration runs and their results (import, export, build from a
bout), the measured-versus-expected overview, and tier proposals staff accept or dismiss with a
reason. Thin: every change goes through a service, state changes are POSTs, nothing is deleted."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from challenges.admin.instances import ReasonedProposalActions
from challenges.models import CalibrationResult, CalibrationRun, TierProposal
from challenges.selectors.calibration import calibration_export_text, calibration_overview, solve_time_prior
from challenges.selectors.difficulty import instance_difficulty_by_tier
from challenges.services.calibration import (
    calibration_import,
    calibration_run_from_bout,
    tier_proposal_accept,
    tier_proposal_dismiss,
    tier_proposals_refresh,
)
from core import formatting
from core.dashboard import Panel, register_panel
from core.errors import ApplicationError


class CalibrationImportForm(forms.Form):
    file = forms.FileField(help_text="JSON Lines, schema gauntlet.calibration/1: run lines and result lines.")


class FromBoutForm(forms.Form):
    bout = forms.CharField(max_length=24, help_text="The handle of a bout played by solver agents.")
    key = forms.CharField(max_length=80, required=False, help_text="Run key (default: bout-<handle>).")
    label = forms.CharField(max_length=200, required=False)


class ResultInline(admin.TabularInline):
    model = CalibrationResult
    extra = 0
    can_delete = False
    fields = ("template", "instance_public_id", "language", "tier", "solver", "solved", "attempts", "submissions",
              "solve_time")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="Solve time (server)")
    def solve_time(self, obj):
        return "—" if obj.solve_seconds is None else formatting.duration(obj.solve_seconds)


@admin.register(CalibrationRun)
class CalibrationRunAdmin(admin.ModelAdmin):
    list_display = ("key", "label", "source", "bout_handle", "recorded_at", "result_count", "solved_count")
    list_filter = ("source",)
    search_fields = ("key", "label", "bout_handle")
    readonly_fields = ("key", "label", "source", "bout_handle", "recorded_at", "notes", "created_by", "created_at")
    inlines = [ResultInline]
    actions = ["export_selected"]
    change_list_template = "admin/challenges/calibrationrun/change_list.html"

    def has_add_permission(self, request):
        return False  # runs arrive by import or from a bout, never typed in

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _can_record(self, request) -> bool:
        return request.user.has_perm("challenges.add_calibrationrun")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            result_total=Count("results"), solved_total=Count("results", filter=Q(results__solved=True)))

    @admin.display(description="Results", ordering="result_total")
    def result_count(self, obj):
        return obj.result_total

    @admin.display(description="Solved", ordering="solved_total")
    def solved_count(self, obj):
        return obj.solved_total

    @admin.action(description="Export the selected runs as JSON Lines")
    def export_selected(self, request, queryset):
        return _jsonl(calibration_export_text(run_keys=queryset.values_list("key", flat=True)))

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {**(extra_context or {}), "can_record": self._can_record(request)})

    def get_urls(self):
        urls = [
            path("overview/", self.admin_site.admin_view(self.overview_view), name="challenges_calibration_overview"),
            path("import/", self.admin_site.admin_view(self.import_view), name="challenges_calibrationrun_import"),
            path("export/", self.admin_site.admin_view(self.export_view), name="challenges_calibrationrun_export"),
            path("from-bout/", self.admin_site.admin_view(self.from_bout_view),
                 name="challenges_calibrationrun_from_bout"),
            path("propose/", self.admin_site.admin_view(self.propose_view), name="challenges_calibration_propose"),
        ]
        return urls + super().get_urls()

    def overview_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            overview = calibration_overview()
        except ApplicationError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return redirect("admin:challenges_calibrationrun_changelist")
        measured = instance_difficulty_by_tier()
        tiers = [(tier, band, overview.per_tier.get(tier), measured.get(tier))
                 for tier, band in sorted(overview.bands.items())]
        context = {**self.admin_site.each_context(request), "title": "Difficulty: measured versus expected",
                   "overview": overview, "tiers": tiers, "prior": sorted(solve_time_prior().items()),
                   "can_propose": request.user.has_perm("challenges.add_tierproposal"), "opts": self.model._meta}
        return TemplateResponse(request, "admin/challenges/calibrationrun/overview.html", context)

    def propose_view(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not request.user.has_perm("challenges.add_tierproposal"):
            raise PermissionDenied
        try:
            outcome = tier_proposals_refresh(by=request.user)
        except ApplicationError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            self.message_user(request, f"Proposals: {len(outcome['opened'])} opened, "
                                       f"{len(outcome['superseded'])} superseded, "
                                       f"{len(outcome['unchanged'])} unchanged.")
        return redirect("admin:challenges_calibration_overview")

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self._can_record(request):
            raise PermissionDenied
        form = CalibrationImportForm(request.POST or None, request.FILES or None)
        errors: list[dict] = []
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                text = upload.read().decode("utf-8")
                result = calibration_import(lines=text.splitlines(), by=request.user, source=upload.name)
            except UnicodeDecodeError:
                form.add_error("file", "The file is not UTF-8 text; nothing was imported.")
            except ApplicationError as exc:
                errors = exc.extra.get("errors", [])
                form.add_error("file", exc.message if not errors else
                               f"{formatting.plural(len(errors), 'invalid line')}; nothing was imported.")
            else:
                self.message_user(request, f"Imported {upload.name}: {len(result.created)} run(s) with "
                                           f"{result.results} result(s), {len(result.unchanged)} unchanged.")
                return redirect("admin:challenges_calibrationrun_changelist")
        context = {**self.admin_site.each_context(request), "title": "Import calibration data", "form": form,
                   "errors": errors, "opts": self.model._meta}
        return TemplateResponse(request, "admin/challenges/calibrationrun/import.html", context)

    def from_bout_view(self, request: HttpRequest) -> HttpResponse:
        from competition.models import Bout

        if not self._can_record(request):
            raise PermissionDenied
        form = FromBoutForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            bout = Bout.objects.filter(handle=form.cleaned_data["bout"].strip()).first()
            if bout is None:
                form.add_error("bout", "No bout has this handle.")
            else:
                try:
                    run = calibration_run_from_bout(bout=bout, by=request.user, key=form.cleaned_data["key"],
                                                    label=form.cleaned_data["label"])
                except ApplicationError as exc:
                    form.add_error(None, exc.message)
                else:
                    self.message_user(request, f"Calibration run {run.key} built from bout {bout.handle}.")
                    return redirect("admin:challenges_calibrationrun_change", run.pk)
        context = {**self.admin_site.each_context(request), "title": "Calibration run from a bout", "form": form,
                   "opts": self.model._meta}
        return TemplateResponse(request, "admin/challenges/calibrationrun/from_bout.html", context)

    def export_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        return _jsonl(calibration_export_text())


def _jsonl(text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="calibration.jsonl"'
    return response


@admin.register(TierProposal)
class TierProposalAdmin(ReasonedProposalActions, admin.ModelAdmin):
    list_display = ("template", "action", "from_tier", "to_tier", "state", "created_at", "decided_by")
    list_filter = ("state", "action")
    search_fields = ("template__slug", "reason")
    readonly_fields = ("template", "action", "from_tier", "to_tier", "reason", "evidence", "state", "created_at",
                       "decided_by", "decided_at", "decision_reason")
    actions = ["accept", "dismiss"]

    def has_add_permission(self, request):
        return False  # proposals come from measurement

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Accept (with a reason; a re-tier sets the template's tier)", permissions=["change"])
    def accept(self, request, queryset):
        return self._decide(request, queryset, "accept", tier_proposal_accept, "accepted")

    @admin.action(description="Dismiss (with a reason)", permissions=["change"])
    def dismiss(self, request, queryset):
        return self._decide(request, queryset, "dismiss", tier_proposal_dismiss, "dismissed")


def _calibration_panel(request):
    return {
        "runs": CalibrationRun.objects.count(),
        "results": CalibrationResult.objects.count(),
        "open_proposals": TierProposal.objects.filter(state=TierProposal.State.OPEN).select_related("template")[:10],
    }


register_panel(Panel(key="calibration", title="Measured difficulty", template="admin/panels/calibration.html",
                     context=_calibration_panel, permission="challenges.view_calibrationrun", order=25))
