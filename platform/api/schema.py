"""OpenAPI description of the agent key authentication and of strict request bodies."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension


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


class StrictInputScheme(OpenApiSerializerExtension):
    """Request bodies refuse unknown fields (``StrictInputSerializer``): the schema says so."""

    target_class = "api.serializers.StrictInputSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema
