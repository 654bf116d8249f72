"""The staff admin site: platform branding and a landing page built from dashboard panels."""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig

from core.dashboard import panels_for


class GauntletAdminSite(admin.AdminSite):
    site_header = "Gauntlet staff"
    site_title = "Gauntlet staff"
    index_title = "Operations"
    index_template = "admin/gauntlet_index.html"
    # The collapsible app list beside every page took a fifth of a 1,400 px screen from the
    # lists; the index and the breadcrumbs already lead everywhere.
    enable_nav_sidebar = False

    def get_urls(self):
        from django.urls import path

        from core.admin_settings import setting_change_view, settings_list_view

        extra = [
            path("settings/", self.admin_view(lambda r: settings_list_view(self, r)), name="core_settings"),
            path(
                "settings/<str:key>/",
                self.admin_view(lambda r, key: setting_change_view(self, r, key)),
                name="core_setting_change",
            ),
        ]
        return extra + super().get_urls()

    def index(self, request, extra_context=None):
        context = {"gauntlet_panels": panels_for(request), **(extra_context or {})}
        return super().index(request, extra_context=context)


class GauntletAdminConfig(AdminConfig):
    default_site = "core.admin_site.GauntletAdminSite"
