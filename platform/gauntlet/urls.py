from django.contrib import admin
from django.urls import include, path

from api.urls import v1_urlpatterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("api/v1/", include((v1_urlpatterns, "api_v1"))),
    path("git/", include("challenges.forge_urls")),
    path("", include("portal.urls")),
]

handler404 = "gauntlet.errors.not_found"
handler500 = "gauntlet.errors.server_error"
