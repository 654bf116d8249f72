"""Staff admin for the catalogue and generated instances: templates, lexicons, instances
(gate results, leak-audit findings, dedup explanations, sealed secrets for those allowed),
generation runs and the regeneration log."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from challenges.models import (
    ChallengeInstance,
    ChallengeTemplate,
    ContributorName,
    GenerationAttempt,
    GenerationRun,
    Lexicon,
)
from challenges.selectors.code_dedup import code_regions_side_by_side
from challenges.selectors.generation import generation_run_progress
from challenges.selectors.rotation import rotation_calendar
from challenges.selectors.statements import instance_statement
from challenges.services.generation import generation_run_request
from challenges.services.instances import instance_secrets_reveal, instance_set_state
from challenges.services.statements import instance_statement_backfill
from core import formatting
from core.dashboard import Panel, register_panel
from core.errors import ApplicationError

SECRETS_PERMISSION = "challenges.view_instance_secrets"


class GenerateForm(forms.Form):
    count = forms.IntegerField(min_value=1, max_value=200, initial=2, help_text="Instances to release per template.")
    language = forms.ChoiceField(choices=[("", "Any it supports"), ("python", "Python"), ("javascript", "JavaScript")],
                                 required=False)
    override_rotation = forms.BooleanField(
        required=False, label="Generate even if the rotation calendar rests the template",
        help_text="Without this, a template resting on the calendar (cooldown, family or reuse limits) is refused "
                  "with its reasons. The override is recorded with the run.",
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))


class ReasonedProposalActions:
    """Admin actions that decide proposals through a service, each with a staff reason."""

    def _decide(self, request, queryset, action: str, service, verb: str):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for proposal in queryset:
                try:
                    service(proposal=proposal, by=request.user, reason=form.cleaned_data["reason"])
                    done += 1
                except ApplicationError as exc:
                    self.message_user(request, f"{proposal}: {exc.message}", messages.ERROR)
            self.message_user(request, f"{formatting.plural(done, 'proposal')} {verb}.", messages.SUCCESS)
            return None
        return TemplateResponse(request, "admin/challenges/reason.html", {
            **self.admin_site.each_context(request), "title": f"{verb.capitalize()}: give a reason", "form": form,
            "objects": queryset, "action": action,
        })


class TierForm(ReasonForm):
    tier = forms.TypedChoiceField(
        choices=[("", "Follow the template's spec"), *((str(t), f"Tier {t}") for t in range(1, 6))],
        coerce=int, empty_value=None, required=False,
        help_text="Staff's tier: template sync never changes it, and the next generated instance carries it.",
    )
    field_order = ["tier", "reason"]


class IntakeAdminMixin:
    """The substrate intake gate on the template page: scores with reasons, a re-check and a
    gated activation (both need the change permission; activation asks for a reason)."""

    @admin.display(description="intake gate")
    def intake_scores(self, obj):
        from challenges.services.intake import AXES

        if not obj.intake or any(axis not in obj.intake for axis in AXES):
            return "never checked: the template cannot be activated until the intake check passes"
        rows = [(axis.replace("_", "-"), obj.intake[axis]["score"],
                 f"> {obj.intake[axis]['threshold']} blocks" if obj.intake[axis]["gated"] else "report-only",
                 "; ".join(obj.intake[axis]["reasons"])) for axis in AXES]
        verdict = "passed" if obj.intake.get("passed") else "FAILED: " + " | ".join(obj.intake.get("failures", []))
        return format_html("<p>{} (probe {}, samples: {})</p>{}", verdict, obj.intake.get("probe", "?"),
                           ", ".join(obj.intake.get("samples", [])),
                           self._intake_table(rows, ["axis", "score", "gate", "reasons"]))

    @staticmethod
    def _intake_table(rows, headers):
        head = "".join(f"<th>{h}</th>" for h in headers)
        body = "".join("<tr>" + "".join("<td>{}</td>" for _ in headers) + "</tr>" for _ in rows)
        return format_html(f"<table><tr>{head}</tr>{body}</table>", *[str(v) for row in rows for v in row])

    # The intake gate's rig-confidence score, 0-100, lower is better (the template's page explains it).
    @admin.display(description="Rig-confidence")
    def intake_rig(self, obj):
        score = obj.intake.get("rig_confidence", {}).get("score")
        return "not checked" if score is None else score

    @admin.action(description="Run the intake check", permissions=["change"])
    def run_intake_check(self, request, queryset):
        from challenges.services.intake import template_intake_check

        for template in queryset:
            try:
                intake = template_intake_check(template=template, by=request.user)
            except ApplicationError as exc:
                self.message_user(request, f"{template.slug}: {exc.message}", messages.ERROR)
                continue
            scores = ", ".join(f"{a.replace('_', '-')} {intake[a]['score']}"
                               for a in ("rig_confidence", "recognisability", "memorisation"))
            level = messages.SUCCESS if intake["passed"] else messages.WARNING
            self.message_user(request, f"{template.slug}: {'passed' if intake['passed'] else 'FAILED'} ({scores})",
                              level)

    @admin.action(description="Activate (with a reason; runs the intake check)", permissions=["change"])
    def activate(self, request, queryset):
        from challenges.services.intake import template_activate

        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for template in queryset:
                try:
                    template_activate(template=template, by=request.user, reason=form.cleaned_data["reason"])
                    done += 1
                except ApplicationError as exc:
                    self.message_user(request, f"{template.slug}: {exc.message}", messages.ERROR)
            self.message_user(request, f"{formatting.plural(done, 'template')} activated.",
                              messages.SUCCESS)
            return None
        return TemplateResponse(request, "admin/challenges/intake_activate.html", {
            **self.admin_site.each_context(request), "title": "Activate templates", "form": form,
            "objects": queryset, "action": "activate",
        })


@admin.register(ChallengeTemplate)
class ChallengeTemplateAdmin(IntakeAdminMixin, admin.ModelAdmin):
    list_display = ("slug", "family", "bug_class", "tier", "tier_source", "language_list", "state", "weight_shown",
                    "intake_rig", "instance_count")
    list_filter = ("state", "family", "tier", "refresh_flag")
    search_fields = ("slug", "title", "bug_class")
    readonly_fields = ("slug", "title", "family", "bug_class", "tier", "spec_tier", "tier_override", "measured",
                       "language_list", "state", "state_reason", "refresh_flag", "refresh_note",
                       "refresh_weight_before", "intake_scores", "intake_checked_at", "created_at", "updated_at")
    fields = ("slug", "title", "family", "bug_class", "tier", "spec_tier", "tier_override", "measured", "language_list",
              "state", "state_reason", "weight", "refresh_flag", "refresh_note", "refresh_weight_before",
              "intake_scores", "intake_checked_at", "created_at", "updated_at")
    actions = ["generate_instances", "run_intake_check", "activate", "set_tier"]

    def has_add_permission(self, request):
        return False  # templates come from the engine's registry (template_sync)

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(instance_total=Count("instances"))

    @admin.display(description="Instances", ordering="instance_total")
    def instance_count(self, obj):
        return obj.instance_total

    @admin.display(description="Languages")
    def language_list(self, obj):
        return formatting.languages(obj.languages)

    @admin.display(description="Rotation weight", ordering="weight")
    def weight_shown(self, obj):
        return formatting.decimal(obj.weight, 2)

    @admin.display(description="Measured difficulty")
    def measured(self, obj):
        from challenges.selectors.calibration import template_calibration

        try:
            found = template_calibration(obj)
        except ApplicationError as exc:
            return exc.message
        link = reverse("admin:challenges_calibration_overview")
        if found.open_proposal is None:
            return format_html('{} <a href="{}">(measured versus expected)</a>', found.proposal.reason, link)
        return format_html('{} Open proposal: <a href="{}">{}</a>.', found.proposal.reason,
                           reverse("admin:challenges_tierproposal_change", args=[found.open_proposal.pk]),
                           found.open_proposal)

    @admin.display(description="Tier from")
    def tier_source(self, obj):
        return "spec" if obj.tier_override is None else f"staff (spec {obj.spec_tier})"

    @admin.action(description="Set the tier (with a reason)", permissions=["change"])
    def set_tier(self, request, queryset):
        from challenges.services.rotation import template_set_tier

        form = TierForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for template in queryset:
                try:
                    template_set_tier(template=template, tier=form.cleaned_data["tier"], by=request.user,
                                      reason=form.cleaned_data["reason"])
                    done += 1
                except ApplicationError as exc:
                    self.message_user(request, f"{template.slug}: {exc.message}", messages.ERROR)
            self.message_user(request, f"Tier set on {formatting.plural(done, 'template')}.", messages.SUCCESS)
            return None
        return TemplateResponse(request, "admin/challenges/reason.html", {
            **self.admin_site.each_context(request), "title": "Set the tier", "form": form,
            "objects": queryset, "action": "set_tier",
        })

    @admin.action(description="Generate instances from the selected templates", permissions=["change"])
    def generate_instances(self, request, queryset):
        form = GenerateForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            runs = []
            for template in queryset:
                language = form.cleaned_data["language"] or None
                try:
                    runs.append(generation_run_request(count=form.cleaned_data["count"], template=template,
                                                       language=language, by=request.user,
                                                       override_rotation=form.cleaned_data["override_rotation"]))
                except ApplicationError as exc:
                    self.message_user(request, f"{template.slug}: {exc.message}", messages.ERROR)
            if len(runs) == 1:
                self.message_user(request, f"Generation run {runs[0].pk} queued; its progress is below.",
                                  messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:challenges_generationrun_change", args=[runs[0].pk]))
            if runs:
                links = format_html_join(", ", '<a href="{}">run {}</a>', (
                    (reverse("admin:challenges_generationrun_change", args=[run.pk]), run.pk) for run in runs))
                self.message_user(request, format_html("{} queued: {}.", formatting.plural(len(runs), "generation run"),
                                                       links), messages.SUCCESS)
            return None
        calendar = {row.template.pk: row for row in rotation_calendar()}
        return TemplateResponse(request, "admin/challenges/generate.html", {
            **self.admin_site.each_context(request), "title": "Generate instances", "form": form,
            "templates": [(template, calendar.get(template.pk)) for template in queryset],
            "action": "generate_instances",
        })


@admin.register(Lexicon)
class LexiconAdmin(admin.ModelAdmin):
    list_display = ("key", "domain", "enabled", "synced_at")
    list_filter = ("enabled",)
    search_fields = ("key", "domain")
    readonly_fields = ("key", "domain", "synced_at")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AttemptInline(admin.TabularInline):
    model = GenerationAttempt
    fk_name = "instance"
    extra = 0
    can_delete = False
    fields = ("created_at", "outcome", "reason", "seconds")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ChallengeInstance)
class ChallengeInstanceAdmin(admin.ModelAdmin):
    list_display = ("short_id", "template", "language_shown", "tier", "state", "uniqueness_shown", "gates_passed",
                    "findings", "has_statement", "released_at")
    list_filter = ("state", "language", "tier", "template__family")
    search_fields = ("public_id", "template__slug", "lexicon_key")
    date_hierarchy = "created_at"
    readonly_fields = ("public_id", "template", "language", "tier", "state", "state_reason", "lexicon_key", "tech_stack",
                       "uniqueness", "fingerprint_table", "dedup_table", "code_dedup", "gates_table", "audit_table",
                       "timings",
                       "workspace_sha256", "created_at", "released_at", "secrets_link")
    # What agents are given, right after its state; how hard it is has its own fieldset.
    readonly_fields = (readonly_fields[:6] + ("statement_shown",) + readonly_fields[6:]
                       + ("difficulty_profile_shown", "difficulty_table"))
    exclude = ("draw_sealed", "secrets_sealed", "workspace_sealed", "statement_sealed", "fingerprint", "dedup", "gates",
               "audit", "difficulty", "difficulty_profile")
    DIFFICULTY_FIELDS = ("difficulty_profile_shown", "difficulty_table")
    inlines = [AttemptInline]
    actions = ["retire", "quarantine", "backfill_statement"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Id")
    def short_id(self, obj):
        return str(obj.public_id)[:8]

    @admin.display(description="Language", ordering="language")
    def language_shown(self, obj):
        return formatting.language(obj.language)

    @admin.display(description="Uniqueness", ordering="uniqueness")
    def uniqueness_shown(self, obj):
        return formatting.decimal(obj.uniqueness)

    @admin.display(boolean=True, description="gates")
    def gates_passed(self, obj):
        return bool(obj.gates.get("passed"))

    @admin.display(description="audit findings")
    def findings(self, obj):
        return len(obj.audit.get("findings", []))

    @admin.display(boolean=True, description="statement")
    def has_statement(self, obj):
        return bool(obj.statement_sealed)

    @admin.display(description="task statement")
    def statement_shown(self, obj):
        text = instance_statement(obj)
        if text is None:
            return format_html('<p class="help">{}</p>',
                               'No task statement: generated before statements existed. Use the "Backfill task '
                               'statement" action (or manage.py backfill_statements) to rebuild it from the sealed '
                               "draw.")
        return format_html('<pre style="white-space: pre-wrap; max-width: 60em">{}</pre>', text)

    def get_fieldsets(self, request, obj=None):
        fields = [f for f in self.get_fields(request, obj) if f not in self.DIFFICULTY_FIELDS]
        return [(None, {"fields": fields}), ("Difficulty", {"fields": self.DIFFICULTY_FIELDS})]

    @admin.display(description="measured")
    def difficulty_profile_shown(self, obj):
        if not obj.difficulty_profile:
            return format_html('<p class="help">{}</p>', "Not measured yet: generated before difficulty was measured. "
                               "Run manage.py difficulty_backfill to measure it from the sealed workspace.")
        return render_to_string("admin/challenges/_difficulty.html", {"profile": obj.difficulty_profile})

    @admin.display(description="knobs")
    def difficulty_table(self, obj):
        return self._table(sorted(obj.difficulty.items()), ["knob", "value"])

    def _table(self, rows, headers):
        head = "".join(f"<th>{h}</th>" for h in headers)
        body = "".join("<tr>" + "".join("<td>{}</td>" for _ in headers) + "</tr>" for _ in rows)
        values = [str(v) for row in rows for v in row]
        return format_html(f"<table><tr>{head}</tr>{body}</table>", *values) if rows else "—"

    @admin.display(description="fingerprint")
    def fingerprint_table(self, obj):
        return self._table(sorted(obj.fingerprint.items()), ["field", "value"])

    @admin.display(description="dedup decision")
    def dedup_table(self, obj):
        rows = [(m.get("source", ""), m.get("label", m.get("key", "")), f"{m.get('score', 0):.3f}",
                 "; ".join(f"{f['field']} {f['contribution']:.3f}" for f in m.get("fields", []) if f.get("weight")))
                for m in obj.dedup.get("matches", [])]
        verdict = f"{obj.dedup.get('verdict', '—')}: " + "; ".join(obj.dedup.get("reasons", []))
        return format_html("<p>{}</p>{}", verdict, self._table(rows, ["set", "match", "similarity", "why"]))

    @admin.display(description="code dedup")
    def code_dedup(self, obj):
        code = obj.dedup.get("code")
        if not code:
            return "not checked (instance made before code dedup; run manage.py code_dedup_backfill)"
        compare = reverse("admin:challenges_challengeinstance_code_dedup", args=[obj.pk]) if code.get("regions") else ""
        return render_to_string("admin/challenges/_code_dedup.html", {"code": code, "compare_url": compare})

    @admin.display(description="release gates")
    def gates_table(self, obj):
        rows = [(g["name"], "pass" if g["passed"] else "FAIL", "; ".join(g.get("reasons", [])) or "—",
                 json.dumps(g.get("details", {}))[:300]) for g in obj.gates.get("results", [])]
        return self._table(rows, ["gate", "result", "reasons", "details"])

    @admin.display(description="leak audit")
    def audit_table(self, obj):
        rows = [(f.get("check"), f.get("code"), f.get("location"), f.get("message")) for f in obj.audit.get("findings", [])]
        return self._table(rows, ["check", "code", "location", "message"]) if rows else "no findings"

    @admin.display(description="secrets")
    def secrets_link(self, obj):
        return format_html('<a href="{}">Gold patch, alternatives, canary map and draw</a>',
                           reverse("admin:challenges_challengeinstance_secrets", args=[obj.pk]))

    def get_urls(self):
        return [path("<int:pk>/secrets/", self.admin_site.admin_view(self.secrets_view),
                     name="challenges_challengeinstance_secrets"),
                path("<int:pk>/code-dedup/", self.admin_site.admin_view(self.code_dedup_view),
                     name="challenges_challengeinstance_code_dedup")] + super().get_urls()

    def code_dedup_view(self, request, pk):
        """The code this instance shares with its nearest earlier instance, side by side."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        instance = get_object_or_404(ChallengeInstance.objects.select_related("template"), pk=pk)
        code = instance.dedup.get("code") or {}
        nearest = (code.get("matches") or [None])[0]
        earlier = (ChallengeInstance.objects.select_related("template").filter(pk=nearest["key"]).first()
                   if nearest else None)
        regions = code_regions_side_by_side(instance=instance, earlier=earlier, regions=code.get("regions", []))
        return TemplateResponse(request, "admin/challenges/code_dedup.html", {
            **self.admin_site.each_context(request), "title": f"Code {instance} shares with {earlier or '-'}",
            "instance": instance, "earlier": earlier, "code": code, "regions": regions,
            "opts": self.model._meta,
        })

    def secrets_view(self, request, pk):
        if not request.user.has_perm(SECRETS_PERMISSION):
            raise PermissionDenied
        instance = get_object_or_404(ChallengeInstance, pk=pk)
        secrets = instance_secrets_reveal(instance=instance, by=request.user)
        return TemplateResponse(request, "admin/challenges/instance_secrets.html", {
            **self.admin_site.each_context(request), "title": f"Secrets of {instance}", "instance": instance,
            "secrets": secrets, "draw": json.dumps(secrets["draw"], indent=2),
            "canaries": json.dumps(secrets.get("canaries", []), indent=2),
        })

    def _with_reason(self, request, queryset, state, label):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for instance in queryset:
                try:
                    instance_set_state(instance=instance, state=state, by=request.user, reason=form.cleaned_data["reason"])
                    done += 1
                except ApplicationError as exc:
                    self.message_user(request, f"{instance}: {exc.message}", messages.ERROR)
            self.message_user(request, f"{formatting.plural(done, 'instance')} {label}.",
                              messages.SUCCESS)
            return None
        return TemplateResponse(request, "admin/challenges/reason.html", {
            **self.admin_site.each_context(request), "title": f"{label.capitalize()} instances", "form": form,
            "objects": queryset, "action": state if state != "retired" else "retire",
        })

    @admin.action(description="Backfill task statement (rebuilt from the sealed draw)", permissions=["change"])
    def backfill_statement(self, request, queryset):
        done = 0
        for instance in queryset.filter(statement_sealed__isnull=True):
            try:
                instance_statement_backfill(instance=instance)
                done += 1
            except ApplicationError as exc:
                self.message_user(request, f"{instance}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{formatting.plural(done, 'statement')} recorded.", messages.SUCCESS)

    @admin.action(description="Retire (with a reason)", permissions=["change"])
    def retire(self, request, queryset):
        return self._with_reason(request, queryset, ChallengeInstance.State.RETIRED, "retired")

    @admin.action(description="Quarantine (with a reason)", permissions=["change"])
    def quarantine(self, request, queryset):
        return self._with_reason(request, queryset, ChallengeInstance.State.QUARANTINED, "quarantined")


@admin.register(GenerationRun)
class GenerationRunAdmin(admin.ModelAdmin):
    """A run's page is its live progress: counts, passes with their outcomes and reasons,
    refreshed while the run is queued or running, and the outcome of every instance."""

    list_display = ("run", "template", "language_shown", "progress", "state", "outcome", "created_at",
                    "finished_at")
    list_display_links = ("run",)
    list_filter = ("state",)
    list_select_related = ("template",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(pass_total=Count("attempts"))

    @admin.display(description="Run", ordering="pk")
    def run(self, obj):
        return f"run {obj.pk}"

    @admin.display(description="Language", ordering="language")
    def language_shown(self, obj):
        return formatting.language(obj.language) if obj.language else "any"

    @admin.display(description="Progress")
    def progress(self, obj):
        return f"{obj.released} of {obj.count} released · {formatting.plural(obj.pass_total, 'pass', 'passes')}"

    @admin.display(description="Outcome")
    def outcome(self, obj):
        return Truncator(obj.message).chars(160) or "—"

    def get_urls(self):
        return [path("<int:pk>/progress.json", self.admin_site.admin_view(self.progress_json),
                     name="challenges_generationrun_progress")] + super().get_urls()

    def progress_json(self, request, pk):
        if not self.has_view_permission(request):
            raise PermissionDenied
        return JsonResponse(generation_run_progress(run=get_object_or_404(GenerationRun, pk=pk)))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        run = get_object_or_404(GenerationRun.objects.select_related("template", "requested_by"), pk=object_id)
        return TemplateResponse(request, "admin/challenges/generationrun/progress.html", {
            **self.admin_site.each_context(request), "title": f"Generation run {run.pk}", "run": run,
            "progress": generation_run_progress(run=run), "opts": self.opts,
            "progress_url": reverse("admin:challenges_generationrun_progress", args=[run.pk]),
        })


@admin.register(GenerationAttempt)
class GenerationAttemptAdmin(admin.ModelAdmin):
    list_display = ("created_at", "template", "language", "outcome", "short_reason", "took", "instance")
    list_filter = ("outcome", "language", "template")
    readonly_fields = ("run", "template", "language", "instance", "outcome", "reason", "seconds", "created_at")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Reason")
    def short_reason(self, obj):
        return Truncator(obj.reason).chars(120)

    @admin.display(description="Took", ordering="seconds")
    def took(self, obj):
        return formatting.duration(obj.seconds)


@admin.register(ContributorName)
class ContributorNameAdmin(admin.ModelAdmin):
    """The registry of names generated histories use (read-only: the pipeline writes it)."""

    list_display = ("full_name", "surname", "instance", "created_at")
    search_fields = ("full_name", "surname")
    readonly_fields = ("full_name", "surname", "instance", "created_at")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _generation_panel(request):
    from django.db.models import Count

    from challenges.services.generation import regeneration_rate

    recent = GenerationAttempt.objects.order_by("-created_at")[:200]
    ids = list(recent.values_list("pk", flat=True))
    return {
        "pool": dict(ChallengeInstance.objects.values_list("state").annotate(n=Count("pk"))),
        "regeneration_rate": round(regeneration_rate(attempts=GenerationAttempt.objects.filter(pk__in=ids)) * 100, 1),
        "runs": GenerationRun.objects.order_by("-created_at")[:5],
    }


register_panel(Panel(key="generation", title="Challenge pool and generation", template="admin/panels/generation.html",
                     context=_generation_panel, permission="challenges.view_challengeinstance", order=20))
