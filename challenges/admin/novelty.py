"""Admin for novelty: the known-contamination corpus, the fingerprint review queue (with
per-field similarity explanations), the hall of fame and the rotation calendar.

Thin and permissioned: every change goes through a service (so it is audited with its
reason), state changes are POSTs, nothing valuable can be deleted.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from challenges.models import (
    ChallengeInstance,
    ChallengeTemplate,
    CorpusEntry,
    FingerprintReview,
    HallOfFameEntry,
    RotationCalendar,
)
from challenges.novelty import CorpusError
from challenges.novelty.corpus import entry_from_dict
from challenges.selectors.code_dedup import code_dedup_summary
from challenges.selectors.novelty import corpus_summary, review_list_pending, review_pending_count
from challenges.selectors.rotation import rotation_calendar
from challenges.services.corpus import (
    corpus_entry_create,
    corpus_entry_update,
    corpus_export,
    corpus_import,
    corpus_import_shipped,
)
from challenges.services.novelty import REVIEW_PERMISSION, fingerprint_review_decide
from challenges.services.rotation import template_retire_emergency
from core import formatting
from core.dashboard import Panel, register_panel
from core.errors import ApplicationError

# --- corpus -----------------------------------------------------------------------------------


class CorpusEntryForm(forms.ModelForm):
    change_reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
                                    help_text="Why this entry is added or changed (kept in the audit log).")

    class Meta:
        model = CorpusEntry
        fields = ["key", "category", "title", "note", "fingerprint", "active"]

    def clean(self):
        data = super().clean()
        key = data.get("key") or (self.instance.key if self.instance.pk else "")
        content = {name: data.get(name) for name in ("category", "title", "note", "fingerprint")}
        if all(value is not None for value in content.values()):
            try:
                entry_from_dict({"key": key, **content})
            except CorpusError as exc:
                field = str(exc.extra.get("field", "")).split(".", 1)[0]
                self.add_error(field if field in self.fields else None, exc.message)
        return data


class CorpusImportForm(forms.Form):
    file = forms.FileField(help_text="JSON Lines: one entry per line (key, category, title, note, fingerprint).")


@admin.register(CorpusEntry)
class CorpusEntryAdmin(admin.ModelAdmin):
    form = CorpusEntryForm
    list_display = ("key", "category", "title", "active", "updated_at")
    list_filter = ("category", "active")
    search_fields = ("key", "title", "note")
    readonly_fields = ("created_at", "updated_at")
    actions = ["withdraw_selected", "restore_selected"]
    change_list_template = "admin/challenges/corpusentry/change_list.html"

    def get_readonly_fields(self, request, obj=None):
        return (*self.readonly_fields, "key") if obj is not None else self.readonly_fields

    def has_delete_permission(self, request, obj=None):
        return False  # withdraw instead: the record of what was compared against stays

    def save_model(self, request, obj, form, change):
        data, reason = form.cleaned_data, form.cleaned_data["change_reason"]
        if change:
            fields = {name: data[name] for name in ("category", "title", "note", "fingerprint", "active")}
            entry = corpus_entry_update(entry=CorpusEntry.objects.get(pk=obj.pk), by=request.user, reason=reason,
                                        **fields)
        else:
            entry = corpus_entry_create(key=data["key"], category=data["category"], title=data["title"],
                                        note=data["note"], fingerprint=data["fingerprint"], by=request.user,
                                        reason=reason)
            if not data["active"]:
                entry = corpus_entry_update(entry=entry, by=request.user, reason=reason, active=False)
        obj.pk = entry.pk
        obj.refresh_from_db()

    def _set_active(self, request, queryset, active: bool) -> None:
        verb = "restored" if active else "withdrawn"
        changed = 0
        for entry in queryset.filter(active=not active):
            corpus_entry_update(entry=entry, by=request.user, active=active,
                                reason=f"{verb} from the admin list by {request.user.get_username()}")
            changed += 1
        self.message_user(request, f"{formatting.plural(changed, 'entry')} {verb}.")

    @admin.action(description="Withdraw selected entries (stop comparing against them)", permissions=["change"])
    def withdraw_selected(self, request, queryset):
        self._set_active(request, queryset, False)

    @admin.action(description="Restore selected entries", permissions=["change"])
    def restore_selected(self, request, queryset):
        self._set_active(request, queryset, True)

    def get_urls(self):
        urls = [
            path("import/", self.admin_site.admin_view(self.import_view), name="challenges_corpusentry_import"),
            path("export/", self.admin_site.admin_view(self.export_view), name="challenges_corpusentry_export"),
            path("import-shipped/", self.admin_site.admin_view(self.import_shipped_view),
                 name="challenges_corpusentry_import_shipped"),
        ]
        return urls + super().get_urls()

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        form = CorpusImportForm(request.POST or None, request.FILES or None)
        errors: list[dict] = []
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                text = upload.read().decode("utf-8")
                result = corpus_import(lines=text.splitlines(), by=request.user, source=upload.name)
            except UnicodeDecodeError:
                form.add_error("file", "The file is not UTF-8 text; nothing was imported.")
            except ApplicationError as exc:
                errors = exc.extra.get("errors", [])
                form.add_error("file", exc.message if not errors else
                               f"{formatting.plural(len(errors), 'invalid line')}; nothing was imported.")
            else:
                self.message_user(request, f"Imported {upload.name}: {len(result.created)} created, "
                                           f"{len(result.updated)} changed, {result.unchanged} unchanged.")
                return redirect("admin:challenges_corpusentry_changelist")
        context = {**self.admin_site.each_context(request), "title": "Import the known-contamination corpus",
                   "form": form, "errors": errors, "opts": self.model._meta}
        return TemplateResponse(request, "admin/challenges/corpusentry/import.html", context)

    def import_shipped_view(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        result = corpus_import_shipped(by=request.user, actor_label="")
        self.message_user(request, f"Shipped corpus: {len(result.created)} created, {len(result.updated)} changed, "
                                   f"{result.unchanged} unchanged.")
        return redirect("admin:challenges_corpusentry_changelist")

    def export_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        response = HttpResponse(corpus_export(), content_type="application/x-ndjson; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="contamination_corpus.jsonl"'
        return response


# --- fingerprint reviews ------------------------------------------------------------------------


class ReviewDecisionForm(forms.Form):
    # Radio buttons with nothing chosen: releasing a look-alike must be a deliberate choice.
    decision = forms.ChoiceField(choices=[("approve", "Approve and release"), ("reject", "Reject")],
                                 widget=forms.RadioSelect)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
                             help_text="Recorded with the decision in the audit log.")


@admin.register(FingerprintReview)
class FingerprintReviewAdmin(admin.ModelAdmin):
    list_display = ("id", "instance", "similarity", "nearest", "code_similarity", "state", "created_at",
                    "decided_by")
    list_filter = ("state",)
    list_select_related = ("instance__template", "decided_by")
    ordering = ("state", "created_at")

    @admin.display(description="Highest similarity", ordering="max_similarity")
    def similarity(self, obj: FingerprintReview) -> str:
        return formatting.decimal(obj.max_similarity)

    @admin.display(description="Code similarity")
    def code_similarity(self, obj: FingerprintReview) -> str:
        if not obj.code:
            return "-"
        top = (obj.code.get("matches") or [{}])[0]
        return f"{formatting.decimal(obj.code['score'])} ({top.get('label', '-')})"

    @admin.display(description="Nearest match")
    def nearest(self, obj: FingerprintReview) -> str:
        if not obj.matches:
            return "-"
        top = obj.matches[0]
        return f"{top.get('label', top['key'])} ({top['source']}, {formatting.decimal(top['score'])})"

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        urls = [
            path("<int:review_id>/decide/", self.admin_site.admin_view(self.decide_view),
                 name="challenges_fingerprintreview_decide"),
        ]
        return urls + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        review = get_object_or_404(FingerprintReview.objects.select_related("instance__template"), pk=object_id)
        can_decide = request.user.has_perm(REVIEW_PERMISSION) and review.state == FingerprintReview.State.PENDING
        context = {
            **self.admin_site.each_context(request), "title": f"Fingerprint review {review.pk}", "review": review,
            "matches": _explained(review), "form": ReviewDecisionForm(), "can_decide": can_decide,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/challenges/fingerprintreview/review.html", context)

    def decide_view(self, request: HttpRequest, review_id: int) -> HttpResponse:
        return _decide(request, review_id)


@require_POST
def _decide(request: HttpRequest, review_id: int) -> HttpResponse:
    if not request.user.has_perm(REVIEW_PERMISSION):
        raise PermissionDenied
    review = get_object_or_404(FingerprintReview, pk=review_id)
    form = ReviewDecisionForm(request.POST)
    back = reverse("admin:challenges_fingerprintreview_change", args=[review.pk])
    if not form.is_valid():
        messages.error(request, "Choose approve or reject and give a reason.")
        return HttpResponseRedirect(back)
    try:
        fingerprint_review_decide(review=review, approve=form.cleaned_data["decision"] == "approve",
                                  by=request.user, reason=form.cleaned_data["reason"])
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return HttpResponseRedirect(back)
    messages.success(request, f"Review {review.pk} decided: {form.cleaned_data['decision']}.")
    return redirect("admin:challenges_fingerprintreview_changelist")


def _explained(review: FingerprintReview) -> list[dict]:
    """Each match with its fields ranked by contribution (largest first) and, per field,
    the value on both sides, so staff see what is alike and what is not."""
    instances = dict(ChallengeInstance.objects.filter(
        pk__in=[m["key"] for m in review.matches if m["source"] != "corpus"]).values_list("pk", "fingerprint"))
    corpus = dict(CorpusEntry.objects.filter(
        key__in=[m["key"] for m in review.matches if m["source"] == "corpus"]).values_list("key", "fingerprint"))
    mine = review.instance.fingerprint if isinstance(review.instance.fingerprint, dict) else {}
    explained = []
    for match in review.matches:
        theirs = (corpus if match["source"] == "corpus" else instances).get(match["key"]) or {}
        ranked = sorted(match.get("fields", []), key=lambda f: (-f["contribution"], -f["weight"], f["field"]))
        rows = [{**f, "mine": _shown(mine.get(f["field"])), "theirs": _shown(theirs.get(f["field"]))}
                for f in ranked]
        explained.append({**match, "ranked": rows})
    return explained


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(_shown(item) for item in value)
    if isinstance(value, float):
        return formatting.decimal(value)
    return "" if value is None else str(value)


# --- hall of fame ----------------------------------------------------------------------------


@admin.register(HallOfFameEntry)
class HallOfFameEntryAdmin(admin.ModelAdmin):
    list_display = ("rank", "instance", "solves", "computed_at")
    list_select_related = ("instance__template",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- rotation calendar -------------------------------------------------------------------------


class EmergencyRetireForm(forms.Form):
    template = forms.ModelChoiceField(queryset=ChallengeTemplate.objects.exclude(state=ChallengeTemplate.State.RETIRED))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}))


@admin.register(RotationCalendar)
class RotationCalendarAdmin(admin.ModelAdmin):
    """The calendar replaces the change list; templates are edited elsewhere."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        urls = [
            path("retire/", self.admin_site.admin_view(self.retire_view), name="challenges_rotationcalendar_retire"),
        ]
        return urls + super().get_urls()

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        rows = rotation_calendar()
        can_retire = request.user.has_perm("challenges.change_challengetemplate")
        context = {
            **self.admin_site.each_context(request), "title": "Rotation calendar", "rows": rows,
            "eligible": sum(1 for r in rows if r.eligible), "opts": self.model._meta,
            "can_retire": can_retire, "retire_form": EmergencyRetireForm() if can_retire else None,
        }
        return TemplateResponse(request, "admin/challenges/rotationcalendar/calendar.html", context)

    def retire_view(self, request: HttpRequest) -> HttpResponse:
        return _retire(request)


@require_POST
def _retire(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm("challenges.change_challengetemplate"):
        raise PermissionDenied
    form = EmergencyRetireForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a template and give a reason.")
    else:
        result = template_retire_emergency(template=form.cleaned_data["template"], by=request.user,
                                           reason=form.cleaned_data["reason"])
        retired = len(result["instances_retired"])
        messages.success(request, f"{result['template']} retired; {formatting.plural(retired, 'pool instance')} "
                                  "retired with it.")
    return redirect("admin:challenges_rotationcalendar_changelist")


# --- dashboard panels ----------------------------------------------------------------------------


def _reviews_panel(request: HttpRequest) -> dict:
    return {"pending": review_pending_count(), "oldest": list(review_list_pending()[:5]), "corpus": corpus_summary()}


def _rotation_panel(request: HttpRequest) -> dict:
    rows = rotation_calendar()
    return {"eligible": [r for r in rows if r.eligible], "total": len(rows)}


register_panel(Panel(key="fingerprint-reviews", title="Fingerprint reviews pending",
                     template="admin/challenges/panels/reviews.html", context=_reviews_panel,
                     permission="challenges.view_fingerprintreview", order=30))
def _code_dedup_panel(request: HttpRequest) -> dict:
    return code_dedup_summary()


register_panel(Panel(key="code-dedup", title="Code-level dedup",
                     template="admin/challenges/panels/code_dedup.html", context=_code_dedup_panel,
                     permission="challenges.view_fingerprintreview", order=32))
register_panel(Panel(key="rotation-eligible", title="Templates eligible now",
                     template="admin/challenges/panels/rotation.html", context=_rotation_panel,
                     permission="challenges.view_rotationcalendar", order=31))

