"""Admin for the operating schedule: checklists, sign-off by named staff, the calendar."""

from __future__ import annotations

import calendar as pycalendar
from datetime import UTC, date, datetime, timedelta

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone

from core.errors import ApplicationError
from detection.models import Checklist, ChecklistItem
from detection.services.procedures import checklist_item_sign_off, checklist_run_checks


class SignOffForm(forms.Form):
    item = forms.IntegerField(widget=forms.HiddenInput)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=4000,
                           help_text="What you did or found; it is recorded with your name.")


@admin.register(Checklist)
class ChecklistAdmin(admin.ModelAdmin):
    list_display = ("__str__", "cadence", "period_label", "due_at", "progress", "status")
    list_filter = ("cadence", ("completed_at", admin.EmptyFieldListFilter))
    date_hierarchy = "period_start"
    change_list_template = "admin/detection/checklist/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("items")

    @admin.display(description="Done")
    def progress(self, obj):
        items = list(obj.items.all())
        return f"{sum(i.done for i in items)} / {len(items)}"

    @admin.display(description="Status")
    def status(self, obj):
        if obj.completed_at:
            return "complete"
        return "overdue" if obj.due_at < timezone.now() else "open"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _can_sign(self, request) -> bool:
        return request.user.has_perm("detection.change_checklistitem")

    def get_urls(self):
        return [path("calendar/", self.admin_site.admin_view(self.calendar_view), name="detection_checklist_calendar")
                ] + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        checklist = get_object_or_404(Checklist, pk=object_id)
        form = SignOffForm(request.POST or None)
        if request.method == "POST":
            if not self._can_sign(request):
                raise PermissionDenied
            if "run_checks" in request.POST:
                checklist_run_checks(checklist=checklist)
                self.message_user(request, "Automatic checks run.", messages.SUCCESS)
                return redirect("admin:detection_checklist_change", checklist.pk)
            if form.is_valid():
                item = get_object_or_404(ChecklistItem, pk=form.cleaned_data["item"], checklist=checklist)
                try:
                    checklist_item_sign_off(item=item, by=request.user, note=form.cleaned_data["note"])
                except ApplicationError as exc:
                    self.message_user(request, exc.message, messages.ERROR)
                else:
                    self.message_user(request, f"“{item.title}” signed off.", messages.SUCCESS)
                    return redirect("admin:detection_checklist_change", checklist.pk)
            else:
                self.message_user(request, "Signing off needs a note.", messages.ERROR)
        return TemplateResponse(request, "admin/detection/checklist/detail.html", {
            **self.admin_site.each_context(request), "title": str(checklist), "opts": self.opts,
            "checklist": checklist, "items": checklist.items.select_related("signed_by"),
            "can_sign": self._can_sign(request), "overdue": checklist.completed_at is None and
            checklist.due_at < timezone.now(),
        })

    def calendar_view(self, request):
        """A month of the operating schedule: each day's checklist, and the week's, month's and quarter's."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        today = timezone.now().date()
        try:
            year, month = (int(x) for x in request.GET.get("month", f"{today:%Y-%m}").split("-"))
            first = date(year, month, 1)
        except ValueError:
            first = today.replace(day=1)
        days_in_month = pycalendar.monthrange(first.year, first.month)[1]
        start = datetime(first.year, first.month, 1, tzinfo=UTC)
        end = datetime(first.year, first.month, days_in_month, 23, 59, 59, tzinfo=UTC)
        checklists = list(Checklist.objects.filter(period_start__lte=end, period_end__gt=start)
                          .prefetch_related("items").order_by("period_start"))
        by_day = {c.period_start.date(): c for c in checklists if c.cadence == Checklist.Cadence.DAILY}
        weeks = []
        for week in pycalendar.Calendar().monthdatescalendar(first.year, first.month):
            weekly = next((c for c in checklists if c.cadence == Checklist.Cadence.WEEKLY
                           and c.period_start.date() == week[0]), None)
            weeks.append({"days": [{"date": d, "in_month": d.month == first.month, "checklist": by_day.get(d),
                                    "today": d == today} for d in week], "weekly": weekly})
        previous = (first - timedelta(days=1)).replace(day=1)
        following = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
        return TemplateResponse(request, "admin/detection/checklist/calendar.html", {
            **self.admin_site.each_context(request), "title": f"Operating schedule, {first:%B %Y}", "opts": self.opts,
            "weeks": weeks, "month": first, "previous": previous, "following": following, "now": timezone.now(),
            "longer": [c for c in checklists if c.cadence in (Checklist.Cadence.MONTHLY, Checklist.Cadence.QUARTERLY)],
        })
