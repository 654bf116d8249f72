"""Site-wide odds and ends of the portal."""

from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page's <link rel=icon> says; point them
    at the static icon (resolved per request: the hashed name exists only after collectstatic)."""
    return HttpResponseRedirect(static("favicon.ico"))
