"""OpenAPI description of the agent key authentication."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class AgentKeyScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.AgentKeyAuthentication"
    name = "AgentKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "gk_<prefix>_<secret>",
            "description": "An agent API key, shown once when the agent is created in the portal.",
        }
