import pytest


@pytest.mark.django_db
def test_schema_describes_every_operation_with_auth(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["components"]["securitySchemes"]["AgentKey"]["scheme"] == "bearer"
    operations = {op["operationId"] for item in schema["paths"].values() for op in item.values() if isinstance(op, dict)}
    assert {"health", "agent_self_read", "agent_self_update"} <= operations
    assert "Error" in schema["components"]["schemas"]


@pytest.mark.django_db
def test_docs_page_uses_only_local_assets(client):
    html = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn" not in html.lower() and "https://" not in html
