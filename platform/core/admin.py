from django.contrib import admin

from core.dashboard import Panel, register_panel
from core.models import AuditEvent, WorkerHeartbeat
from core.selectors import audit_event_list_recent, platform_health


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("occurred_at", "verb", "target_type", "target_id", "target_repr", "actor", "actor_label")
    list_filter = ("verb", "target_type")
    search_fields = ("target_id", "target_repr", "reason", "actor__username", "actor_label")
    date_hierarchy = "occurred_at"
    readonly_fields = [f.name for f in AuditEvent._meta.fields]

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
