"""Site-wide 404/500: JSON under /api/ (the API error contract), HTML elsewhere."""

from django.views import defaults

from api.exceptions import not_found as api_not_found
from api.exceptions import server_error as api_server_error


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    if _is_api(request):
        return api_not_found(request, exception)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if _is_api(request):
        return api_server_error(request)
    return defaults.server_error(request)
