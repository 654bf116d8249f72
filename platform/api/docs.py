"""The API reference pages (Swagger UI and Redoc), served entirely from this server.

Both use the assets of drf-spectacular-sidecar. Redoc's bundle still draws a vendor logo
from the internet in its sidebar, so both pages carry a Content-Security-Policy that allows
only this origin: the browser never makes that request, and the logo simply is not shown.
"""

from __future__ import annotations

from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

# Redoc renders in a blob: web worker and both pages use inline script and styles.
DOCS_CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' blob:",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
])


class _SameOriginOnly:
    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = DOCS_CSP
        return response


class SwaggerDocsView(_SameOriginOnly, SpectacularSwaggerView):
    pass


class RedocDocsView(_SameOriginOnly, SpectacularRedocView):
    template_name = "api/redoc.html"
