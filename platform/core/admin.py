from django.contrib import admin

from core.admin_display import short_text
from core.dashboard import Panel, register_panel
from core.models import AuditEvent, WorkerHeartbeat
from core.selectors import audit_event_list_recent, platform_health


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("occurred_at", "verb", "target", "who", "reason_short")
    list_filter = ("verb", "target_type")
    # Verbs are searchable ("bout.halt", or just "halt"), as well as targets, actors and reasons.
    search_fields = ("verb", "target_id", "target_repr", "reason", "actor__username", "actor_label")
    search_help_text = "Search verbs (e.g. bout.halt), targets, actors and reasons."
    date_hierarchy = "occurred_at"
    list_select_related = ("actor",)
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

    @admin.display(description="Target", ordering="target_type")
    def target(self, obj):
        label = obj.target_repr or obj.target_id
        return f"{label} ({obj.target_type} {obj.target_id})" if obj.target_repr else f"{obj.target_type} {label}"

    @admin.display(description="By", ordering="actor__username")
    def who(self, obj):
        return obj.actor.get_username() if obj.actor_id else (obj.actor_label or "system")

    @admin.display(description="Reason")
    def reason_short(self, obj):
        return short_text(obj.reason, 90)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ("cluster", "beat_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


register_panel(
    Panel(
        key="platform-health",
        title="Platform health",
        template="admin/panels/health.html",
        context=lambda request: {"health": platform_health()},
        order=10,
    )
)
register_panel(
    Panel(
        key="recent-audit-events",
        title="Recent audit events",
        template="admin/panels/audit_events.html",
        context=lambda request: {"events": list(audit_event_list_recent(limit=10))},
        permission="core.view_auditevent",
        order=90,
    )
)


def _settings_panel(request):
    from core.config import declared
    from core.models import ConfigOverride

    return {"declared": len(declared()), "overridden": ConfigOverride.objects.count()}


register_panel(
    Panel(
        key="settings",
        title="Settings",
        template="admin/panels/settings.html",
        context=_settings_panel,
        permission="core.view_configoverride",
        order=80,
    )
)
