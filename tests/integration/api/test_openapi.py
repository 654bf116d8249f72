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


def _schema(client) -> dict:
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield f"{method.upper()} {path}", op


def _base_docstrings() -> set[str]:
    """Docstrings of every class an API view inherits from: none may stand in for a description."""
    from django.urls import get_resolver

    found = set()
    for pattern in get_resolver().url_patterns:
        stack = [pattern]
        while stack:
            entry = stack.pop()
            stack.extend(getattr(entry, "url_patterns", []))
            view = getattr(getattr(entry, "callback", None), "view_class", None)
            for cls in getattr(view, "__mro__", ()):
                if cls.__doc__:
                    found.add(" ".join(cls.__doc__.split()))
    return found


@pytest.mark.django_db
def test_every_operation_has_a_real_description_and_examples(client):
    schema = _schema(client)
    docstrings = _base_docstrings()
    missing = []
    operations = list(_operations(schema))
    assert len(operations) >= 15
    for name, op in operations:
        description = " ".join(op.get("description", "").split())
        if len(description) < 60 or description in docstrings or len(op.get("summary", "")) < 10:
            missing.append(f"{name}: summary or description")
        body = op.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None and not body.get("examples"):
            missing.append(f"{name}: request example")
        for status, response in op["responses"].items():
            content = response.get("content", {})
            if "application/json" in content and not content["application/json"].get("examples"):
                missing.append(f"{name} {status}: response example")
            if not content and status.startswith("2"):
                missing.append(f"{name} {status}: no body described")
    assert missing == [], "\n".join(missing)


@pytest.mark.django_db
def test_every_error_example_follows_the_error_contract(client):
    for name, op in _operations(_schema(client)):
        for status, response in op["responses"].items():
            body = response.get("content", {}).get("application/json", {})
            if status.startswith(("4", "5")) and body.get("schema", {}).get("$ref", "").endswith("/Error"):
                examples = body["examples"]
                for example in examples.values():
                    assert set(example["value"]) == {"code", "message", "extra"}, (name, status)


@pytest.mark.django_db
def test_docs_landing_writes_out_the_workflow_and_versions(client):
    schema = _schema(client)
    assert schema["info"]["version"] == "1.2.0"
    text = schema["info"]["description"]
    steps = ["**List bouts**", "**Start an attempt**", "**Fetch the workspace**", "**Submit**", "**Poll**"]
    positions = [text.index(step) for step in steps]
    assert positions == sorted(positions)
    for path in ("/api/v1/bouts", "/api/v1/challenges/{challenge}/attempts", "Idempotency-Key", "Location",
                 "/quickstart/", "challenge_number"):
        assert path in text


@pytest.mark.django_db
def test_leaderboard_rank_and_challenge_number_are_documented_and_position_deprecated(client):
    components = _schema(client)["components"]["schemas"]
    score = components["LeaderboardScore"]["properties"]
    assert score["position"]["deprecated"] is True and "challenge_number" in score["position"]["description"]
    assert "Not a rank" in score["challenge_number"]["description"]
    assert "share a rank" in components["LeaderboardRow"]["properties"]["rank"]["description"]


def _external_references(html: str) -> list[str]:
    from html.parser import HTMLParser
    from urllib.parse import urlsplit

    found: list[str] = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag, attrs):
            for name, value in attrs:
                if name in {"src", "href"} and value and (urlsplit(value).scheme or urlsplit(value).netloc):
                    found.append(value)

    Collector().feed(html)
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_reference_only_same_origin_resources(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert _external_references(html) == []
    assert "fonts.googleapis" not in html and "@import" not in html
    assert "/static/drf_spectacular_sidecar/" in html


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_forbid_other_origins(client, url):
    policy = client.get(url)["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "img-src 'self' data: blob:" in policy
    assert "http" not in policy
