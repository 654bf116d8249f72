"""Staff admin of the post-bout batch, the provenance sources and the template trends.

Batch runs and their results record what happened: shown read-only, with progress, every
check's result and the most similar pairs of each challenge side by side (the two patches
and the diff of their normal forms). Staff ask for a new run with an action on the run
list, which goes through the service (queued after commit, audited).
"""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.utils.html import format_html, format_html_join
from django.utils.translation import ngettext

from competition.models import Submission
from detection.models import BatchChallengeResult, BatchRun, ProvenanceSource, TemplateTrend


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        # Viewing only: rows change through the services (batch, import, trends).
        return False


def _json(value) -> str:
    return format_html('<pre style="white-space:pre-wrap;max-width:70em">{}</pre>',
                       json.dumps(value, indent=2, sort_keys=True, default=str))


class BatchResultInline(admin.TabularInline):
    model = BatchChallengeResult
    extra = 0
    can_delete = False
    fields = ("challenge", "solving", "convergence_score", "anomaly_level", "clustered", "provenance_matched",
              "cases", "detail")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="Convergence")
    def convergence_score(self, obj):
        conv = obj.convergence
        return f"{conv['score']:.2f} ({conv['band']})" if conv.get("status") == "done" else conv.get("status", "—")

    @admin.display(description="Solve rate")
    def anomaly_level(self, obj):
        return obj.anomaly.get("level", "—")

    @admin.display(description="Clustered", boolean=True)
    def clustered(self, obj):
        return obj.temporal.get("flagged")

    @admin.display(description="Provenance matches")
    def provenance_matched(self, obj):
        return obj.provenance.get("matched", 0)

    @admin.display(description="Cases")
    def cases(self, obj):
        return len(obj.actions)

    @admin.display(description="")
    def detail(self, obj):
        from django.urls import reverse

        return format_html('<a href="{}">pairs and evidence</a>',
                           reverse("admin:detection_batchchallengeresult_change", args=[obj.pk]))


@admin.register(BatchRun)
class BatchRunAdmin(_ReadOnly):
    list_display = ("id", "bout", "state", "progress", "trigger", "created_at", "finished_at")
    list_filter = ("state", "trigger")
    search_fields = ("bout__handle", "bout__name")
    fields = ("bout", "state", "progress", "trigger", "requested_by", "tries", "created_at", "started_at",
              "finished_at", "error", "summary_shown")
    readonly_fields = fields
    inlines = [BatchResultInline]
    actions = ["rerun"]

    @admin.display(description="Progress")
    def progress(self, obj):
        return f"{obj.done}/{obj.total}" if obj.total else "—"

    @admin.display(description="Summary")
    def summary_shown(self, obj):
        return _json(obj.summary)

    def has_rerun_permission(self, request):
        return request.user.has_perm("detection.add_batchrun")

    @admin.action(description="Run the post-bout batch of these runs' bouts again", permissions=["rerun"])
    def rerun(self, request, queryset):
        # Imported here: the admin module loads with the app, before the services' signal registry.
        from detection.services.batch import batch_run_request

        bouts = {run.bout_id: run.bout for run in queryset.select_related("bout")}
        for bout in bouts.values():
            batch_run_request(bout=bout, trigger=BatchRun.Trigger.STAFF, by=request.user)
        self.message_user(request, ngettext("Queued a batch run of %d bout.", "Queued batch runs of %d bouts.",
                                            len(bouts)) % len(bouts), messages.SUCCESS)


@admin.register(BatchChallengeResult)
class BatchChallengeResultAdmin(_ReadOnly):
    list_display = ("run", "challenge", "solving", "finished_at")
    fields = ("run", "challenge", "solving", "side_by_side", "convergence_shown", "anomaly_shown", "temporal_shown",
              "provenance_shown", "actions_shown", "pairs_shown")
    readonly_fields = fields

    def has_module_permission(self, request):
        return False  # reached from a run's page

    @admin.display(description="Most similar pairs, side by side")
    def side_by_side(self, obj):
        handles = {h for pair in obj.closest for h in (pair["a"], pair["b"])}
        patches = dict(Submission.objects.filter(handle__in=handles).values_list("handle", "patch"))
        cell = '<td style="vertical-align:top"><pre style="white-space:pre-wrap;max-width:40em">{}</pre></td>'
        blocks = []
        for pair in obj.closest:
            blocks.append(format_html(
                "<h4>{} ~ {}: distance {} (containment {}, structure {})</h4>"
                "<table><tr><th>{} (agent {})</th><th>{} (agent {})</th></tr><tr>" + cell + cell + "</tr></table>"
                "<p>Normal-form diff (what differs once renaming, reordering and dead code are gone):</p>"
                '<pre style="white-space:pre-wrap;max-width:80em">{}</pre>',
                pair["a"], pair["b"], pair.get("distance"), json.dumps(pair.get("containment")),
                pair.get("structural"), pair["a"], pair["agents"][0], pair["b"], pair["agents"][1],
                patches.get(pair["a"], ""), patches.get(pair["b"], ""),
                pair.get("normal_form_diff") or "(identical normal forms)",
            ))
        return format_html_join("", "{}", ((b,) for b in blocks)) if blocks else "—"

    @admin.display(description="Convergence")
    def convergence_shown(self, obj):
        return _json(obj.convergence)

    @admin.display(description="Solve-rate anomaly")
    def anomaly_shown(self, obj):
        return _json(obj.anomaly)

    @admin.display(description="Temporal clustering")
    def temporal_shown(self, obj):
        return _json(obj.temporal)

    @admin.display(description="Provenance")
    def provenance_shown(self, obj):
        return _json(obj.provenance)

    @admin.display(description="Cases")
    def actions_shown(self, obj):
        return _json(obj.actions)

    @admin.display(description="Every pair (evidence)")
    def pairs_shown(self, obj):
        return _json(obj.pairs)


@admin.register(ProvenanceSource)
class ProvenanceSourceAdmin(_ReadOnly):
    list_display = ("label", "name", "kind", "language", "fingerprints", "created_at")
    list_filter = ("kind", "label", "language")
    search_fields = ("name", "label")
    fields = ("label", "name", "kind", "language", "fingerprints", "sha256", "imported_by", "created_at", "text")
    readonly_fields = fields


@admin.register(TemplateTrend)
class TemplateTrendAdmin(_ReadOnly):
    list_display = ("template", "month", "score", "samples", "rises")
    list_filter = ("template",)
    fields = ("template", "month", "score", "samples", "rises", "reason", "computed_at")
    readonly_fields = fields
