"""The staff admin site: platform branding and a landing page built from dashboard panels."""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig

from core.dashboard import panels_for


class GauntletAdminSite(admin.AdminSite):
    site_header = "Gauntlet staff"
    site_title = "Gauntlet staff"
    index_title = "Operations"
    index_template = "admin/gauntlet_index.html"

    def index(self, request, extra_context=None):
        context = {"gauntlet_panels": panels_for(request), **(extra_context or {})}
        return super().index(request, extra_context=context)


class GauntletAdminConfig(AdminConfig):
    default_site = "core.admin_site.GauntletAdminSite"
