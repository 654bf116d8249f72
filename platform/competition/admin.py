from django.contrib import admin, messages
from django.utils.translation import ngettext

from competition.models import Agent, AgentKey
from competition.services import agent_key_revoke


class AgentKeyInline(admin.TabularInline):
    model = AgentKey
    extra = 0
    fields = ("prefix", "label", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "model_name", "created_at")
    search_fields = ("name", "owner__username", "model_name")
    readonly_fields = ("public_id", "owner", "created_at")
    inlines = [AgentKeyInline]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AgentKey)
class AgentKeyAdmin(admin.ModelAdmin):
    list_display = ("__str__", "agent", "label", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("prefix", "agent__name", "agent__owner__username")
    readonly_fields = ("agent", "prefix", "label", "created_at", "last_used_at", "revoked_at")
    exclude = ("digest",)
    actions = ["revoke_keys"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Revoke selected keys", permissions=["change"])
    def revoke_keys(self, request, queryset):
        count = 0
        for key in queryset.filter(revoked_at__isnull=True):
            agent_key_revoke(key=key, by=request.user, reason="revoked by staff in the admin")
            count += 1
        self.message_user(
            request, ngettext("%d key revoked.", "%d keys revoked.", count) % count, messages.SUCCESS
        )
