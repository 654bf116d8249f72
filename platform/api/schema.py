"""OpenAPI: the agent key authentication scheme, strict request bodies and the API overview."""

from pathlib import Path

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


OVERVIEW = Path(__file__).with_name("overview.md")


def describe_api(result, generator, request, public):
    """Postprocessing hook: the docs landing text (workflow, errors, versions) from overview.md.

    Kept in a Markdown file beside the API so it reads and diffs as documentation; Swagger
    UI and Redoc both render it above the operations.
    """
    result.setdefault("info", {})["description"] = OVERVIEW.read_text(encoding="utf-8")
    return result


class StrictInputScheme(OpenApiSerializerExtension):
    """Request bodies refuse unknown fields (``StrictInputSerializer``): the schema says so."""

    target_class = "api.serializers.StrictInputSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema
