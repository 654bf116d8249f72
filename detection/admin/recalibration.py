"""Admin for the quarterly solve-time recalibration: proposals with their per-tier evidence,
accepted or rejected with a reason (accepting writes the settings, audited)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import path
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from challenges.admin.instances import ReasonedProposalActions
from detection.models import SolveTimeProposal
from detection.services.recalibration import (
    solve_time_proposal_accept,
    solve_time_proposal_create,
    solve_time_proposal_reject,
)


@admin.register(SolveTimeProposal)
class SolveTimeProposalAdmin(ReasonedProposalActions, admin.ModelAdmin):
    list_display = ("__str__", "state", "period_start", "period_end", "changed_tiers", "decided_by", "decided_at")
    list_filter = ("state",)
    readonly_fields = ("state", "period_start", "period_end", "reason", "per_tier", "setting_changes", "policy",
                       "created_at", "created_by", "actor_label", "decided_by", "decided_at", "decision_reason")
    exclude = ("tiers", "changes")
    actions = ["accept", "reject"]
    change_list_template = "admin/detection/solvetimeproposal/change_list.html"

    def has_add_permission(self, request):
        return False  # proposals come from measurement

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Tiers changed")
    def changed_tiers(self, obj):
        return ", ".join(str(t["tier"]) for t in obj.tiers if t.get("changed")) or "none"

    @admin.display(description="Per tier")
    def per_tier(self, obj):
        rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{} / {}</td><td>{} / {}</td><td>{}</td></tr>", (
            (t["tier"], t["solves"], t["effect"]["old"]["flag"], t["effect"]["old"]["investigate"],
             t["effect"]["new"]["flag"], t["effect"]["new"]["investigate"], t["reason"]) for t in obj.tiers))
        return format_html("<table><thead><tr><th>Tier</th><th>Honest solves</th><th>Caught now (flag / automatic)"
                           "</th><th>Caught if accepted</th><th>Why</th></tr></thead><tbody>{}</tbody></table>", rows)

    @admin.display(description="Settings written on accept")
    def setting_changes(self, obj):
        if not obj.changes:
            return "none"
        return format_html_join("", "<div><code>{}</code>: {} → {}</div>",
                                ((key, before, after) for key, (before, after) in sorted(obj.changes.items())))

    def changelist_view(self, request, extra_context=None):
        extra = {"can_propose": request.user.has_perm("detection.change_solvetimeproposal")}
        return super().changelist_view(request, {**(extra_context or {}), **extra})

    def get_urls(self):
        return [path("propose/", self.admin_site.admin_view(require_POST(self.propose_view)),
                     name="detection_solvetimeproposal_propose")] + super().get_urls()

    def propose_view(self, request):
        if not request.user.has_perm("detection.change_solvetimeproposal"):
            raise PermissionDenied
        proposal = solve_time_proposal_create(by=request.user)
        self.message_user(request, f"{proposal}: {proposal.reason}", messages.SUCCESS)
        return redirect("admin:detection_solvetimeproposal_change", proposal.pk)

    @admin.action(description="Accept (with a reason; writes the proposed timing settings)", permissions=["change"])
    def accept(self, request, queryset):
        return self._decide(request, queryset, "accept", solve_time_proposal_accept, "accepted")

    @admin.action(description="Reject (with a reason; no setting changes)", permissions=["change"])
    def reject(self, request, queryset):
        return self._decide(request, queryset, "reject", solve_time_proposal_reject, "rejected")
