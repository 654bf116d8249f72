"""Admin for metric values, integrity reports, notices and the integrity dashboard."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from core.dashboard import Panel, register_panel
from core.errors import ApplicationError
from detection.metrics import MONTH, WEEK, MetricError, format_value, last_complete, metric, parse_period
from detection.models import IntegrityReport, MetricValue, StaffNotification
from detection.selectors.dashboard import integrity_dashboard, integrity_panel
from detection.selectors.reports import report_csv, report_html, report_json
from detection.services.metrics import metrics_recompute
from detection.services.notifications import staff_notification_acknowledge
from detection.services.reports import integrity_report_generate


@admin.register(MetricValue)
class MetricValueAdmin(admin.ModelAdmin):
    list_display = ("metric_title", "period_label", "shown_value", "state_badge", "fraction", "computed_at")
    list_filter = ("metric", "period_kind", "state")
    search_fields = ("metric", "period_label")
    readonly_fields = ("metric", "period_kind", "period_label", "period_start", "period_end", "value", "numerator",
                       "denominator", "state", "state_reason", "bounds_shown", "trace_shown", "details_shown",
                       "computed_at")
    exclude = ("bounds", "trace", "details")
    change_list_template = "admin/detection/metricvalue/change_list.html"

    @admin.display(description="Metric", ordering="metric")
    def metric_title(self, obj):
        try:
            return metric(obj.metric).title
        except MetricError:
            return obj.metric

    @admin.display(description="Value", ordering="value")
    def shown_value(self, obj):
        try:
            return format_value(obj.value, metric(obj.metric).unit)
        except MetricError:
            return obj.value

    @admin.display(description="State", ordering="state")
    def state_badge(self, obj):
        return format_html('<span class="state state-{}" title="{}">{}</span>', obj.state, obj.state_reason,
                           obj.get_state_display())

    @admin.display(description="Numerator / denominator")
    def fraction(self, obj):
        return "—" if obj.denominator is None else f"{obj.numerator:g} / {obj.denominator:g}"

    def _pretty(self, value):
        return format_html("<pre>{}</pre>", json.dumps(value, indent=2, sort_keys=True, default=str))

    @admin.display(description="Thresholds in force")
    def bounds_shown(self, obj):
        return self._pretty(obj.bounds)

    @admin.display(description="Rows behind the figure")
    def trace_shown(self, obj):
        return self._pretty(obj.trace)

    @admin.display(description="Details")
    def details_shown(self, obj):
        return self._pretty(obj.details)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        return [
            path("dashboard/", self.admin_site.admin_view(self.dashboard_view), name="detection_dashboard"),
            path("recompute/", self.admin_site.admin_view(require_POST(self.recompute_view)),
                 name="detection_metrics_recompute"),
            path("calibration/", self.admin_site.admin_view(self.calibration_view), name="detection_calibration"),
        ] + super().get_urls()

    def dashboard_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        return TemplateResponse(request, "admin/detection/dashboard.html", {
            **self.admin_site.each_context(request), "title": "Integrity dashboard", "opts": self.opts,
            "can_recompute": request.user.has_perm("detection.add_integrityreport"),
            **integrity_dashboard(),
        })

    def calibration_view(self, request):
        """The red-team exercise: past runs (audit events) and a button that queues a new one."""
        from core.models import AuditEvent
        from detection.services.calibration import calibration_run_request

        if not self.has_view_permission(request):
            raise PermissionDenied
        can_run = request.user.has_perm("detection.add_integrityreport")
        form = CalibrationForm(request.POST or None)
        if request.method == "POST":
            if not can_run:
                raise PermissionDenied
            if form.is_valid():
                calibration_run_request(populations=form.cleaned_data["populations"], by=request.user)
                self.message_user(request, "Red-team exercise queued; its figures appear here when it finishes.",
                                  messages.SUCCESS)
                return redirect("admin:detection_calibration")
        runs = AuditEvent.objects.filter(verb="calibration.run").order_by("-occurred_at")[:20]
        return TemplateResponse(request, "admin/detection/calibration.html", {
            **self.admin_site.each_context(request), "title": "Red-team exercise", "opts": self.opts,
            "form": form, "can_run": can_run, "runs": runs})

    def recompute_view(self, request):
        if not request.user.has_perm("detection.add_integrityreport"):
            raise PermissionDenied
        done = metrics_recompute()
        self.message_user(request, "Recomputed " + ", ".join(f"{k}: {' and '.join(v)}" for k, v in done.items()) + ".",
                          messages.SUCCESS)
        return redirect("admin:detection_dashboard")


class CalibrationForm(forms.Form):
    populations = forms.IntegerField(min_value=1, max_value=20, initial=1,
                                     help_text="Populations of six simulated agents (planted kinds once each).")


class GenerateReportForm(forms.Form):
    kind = forms.ChoiceField(choices=IntegrityReport.Kind.choices)
    period = forms.CharField(max_length=16, required=False,
                             help_text="A week (2026-W49) for a weekly report, a month (2026-12) for a monthly one. "
                                       "Empty: the last complete one.")

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        if not kind:
            return cleaned
        period_kind = WEEK if kind == IntegrityReport.Kind.WEEKLY else MONTH
        label = (cleaned.get("period") or "").strip()
        from django.utils import timezone

        try:
            cleaned["resolved"] = parse_period(label, period_kind) if label else last_complete(period_kind, timezone.now())
        except MetricError as exc:
            raise forms.ValidationError({"period": exc.message}) from None
        return cleaned


@admin.register(IntegrityReport)
class IntegrityReportAdmin(admin.ModelAdmin):
    list_display = ("__str__", "period_label", "alerts", "revision", "generated_at", "generated", "links")
    list_filter = ("kind",)
    date_hierarchy = "period_start"
    change_list_template = "admin/detection/integrityreport/change_list.html"

    @admin.display(description="By")
    def generated(self, obj):
        return obj.generated_by.get_username() if obj.generated_by_id else (obj.generated_label or "system")

    @admin.display(description="Download")
    def links(self, obj):
        return format_html(
            '<a href="{}">HTML</a> · <a href="{}">JSON</a> · <a href="{}">CSV</a>',
            reverse("admin:detection_integrityreport_download", args=[obj.pk, "html"]),
            reverse("admin:detection_integrityreport_download", args=[obj.pk, "json"]),
            reverse("admin:detection_integrityreport_download", args=[obj.pk, "csv"]))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _can_generate(self, request) -> bool:
        return request.user.has_perm("detection.add_integrityreport")

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/download/<str:fmt>/", view(self.download_view), name="detection_integrityreport_download"),
            path("<int:pk>/regenerate/", view(require_POST(self.regenerate_view)),
                 name="detection_integrityreport_regenerate"),
            path("generate/", view(self.generate_view), name="detection_integrityreport_generate"),
        ] + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        report = get_object_or_404(IntegrityReport, pk=object_id)
        return HttpResponse(report_html(report, standalone=False, request=request, extra={
            **self.admin_site.each_context(request), "title": str(report), "opts": self.opts,
            "can_regenerate": self._can_generate(request)}))

    def download_view(self, request, pk, fmt):
        if not self.has_view_permission(request):
            raise PermissionDenied
        report = get_object_or_404(IntegrityReport, pk=pk)
        name = f"gauntlet-{report.kind}-report-{report.period_label}"
        if fmt == "html":
            body, content_type = report_html(report, standalone=True), "text/html; charset=utf-8"
        elif fmt == "json":
            body, content_type = report_json(report), "application/json"
        elif fmt == "csv":
            body, content_type = report_csv(report), "text/csv; charset=utf-8"
        else:
            raise PermissionDenied
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
        return response

    def regenerate_view(self, request, pk):
        if not self._can_generate(request):
            raise PermissionDenied
        report = get_object_or_404(IntegrityReport, pk=pk)
        period = parse_period(report.period_label)
        report = integrity_report_generate(kind=report.kind, period=period, by=request.user)
        self.message_user(request, f"{report} regenerated (revision {report.revision}).", messages.SUCCESS)
        return redirect("admin:detection_integrityreport_change", report.pk)

    def generate_view(self, request):
        if not self._can_generate(request):
            raise PermissionDenied
        form = GenerateReportForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                report = integrity_report_generate(kind=form.cleaned_data["kind"], period=form.cleaned_data["resolved"],
                                                   by=request.user)
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, f"{report} generated (revision {report.revision}).", messages.SUCCESS)
                return redirect("admin:detection_integrityreport_change", report.pk)
        return TemplateResponse(request, "admin/detection/integrityreport/generate.html", {
            **self.admin_site.each_context(request), "title": "Generate an integrity report", "form": form,
            "opts": self.opts})

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(request, {**(extra_context or {}), "can_generate": self._can_generate(request)})


@admin.register(StaffNotification)
class StaffNotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "title", "for_roles", "acknowledged")
    list_filter = ("kind", ("acknowledged_at", admin.EmptyFieldListFilter))
    search_fields = ("title", "body")
    readonly_fields = ("kind", "title", "body", "roles", "link_shown", "created_at", "acknowledged_at",
                       "acknowledged_by", "acknowledged_note")
    exclude = ("link", "target_type", "target_id")
    actions = ("acknowledge",)

    @admin.display(description="For")
    def for_roles(self, obj):
        return ", ".join(obj.roles)

    @admin.display(description="Acknowledged")
    def acknowledged(self, obj):
        if obj.acknowledged_at is None:
            return "—"
        who = obj.acknowledged_by.get_username() if obj.acknowledged_by_id else "system"
        return f"{who}, {obj.acknowledged_at:%Y-%m-%d %H:%M}"

    @admin.display(description="Link")
    def link_shown(self, obj):
        return format_html('<a href="{}">{}</a>', obj.link, obj.link) if obj.link else "—"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        # Only the acknowledge action changes a notice; the form itself is read-only.
        return request.user.has_perm("detection.change_staffnotification")

    @admin.action(description="Acknowledge the selected notices", permissions=["change"])
    def acknowledge(self, request, queryset):
        done = 0
        for notice in queryset.filter(acknowledged_at__isnull=True):
            staff_notification_acknowledge(notice=notice, by=request.user)
            done += 1
        self.message_user(request, f"{done} notice{'s' if done != 1 else ''} acknowledged.", messages.SUCCESS)


register_panel(Panel(
    key="integrity-metrics", title="Integrity metrics", template="admin/panels/integrity.html",
    context=lambda request: integrity_panel(), permission="detection.view_metricvalue", order=40,
))
