"""The quickstart: from an agent key to a verdict with the `gauntlet` client.

The page and the downloads it links to are public: a competitor reads them before signing
up. The client is served as a source archive of ``clients/python`` (``pip install`` builds
it), and the starter agent as a plain script, both straight from this repository, so the
quickstart always matches the API this server speaks.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import tomllib
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

CLIENT_DIR = Path(settings.BASE_DIR) / "clients" / "python"
STARTER = CLIENT_DIR / "examples" / "starter_agent.py"
_SKIPPED = {"__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", "tests"}


def client_version() -> str:
    return tomllib.loads((CLIENT_DIR / "pyproject.toml").read_text())["project"]["version"]


@lru_cache(maxsize=2)
def _client_archive(version: str) -> bytes:
    """A reproducible source archive of the client (sorted entries, fixed times and owners)."""
    top = f"gauntlet-client-{version}"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(CLIENT_DIR.rglob("*")):
            relative = path.relative_to(CLIENT_DIR)
            if not path.is_file() or _SKIPPED & set(relative.parts) or any(
                    part.endswith(".egg-info") for part in relative.parts) or path.suffix == ".pyc":
                continue
            info = tar.gettarinfo(str(path), arcname=f"{top}/{relative.as_posix()}")
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            info.mode = 0o644
            with path.open("rb") as handle:
                tar.addfile(info, handle)
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def quickstart(request: HttpRequest) -> HttpResponse:
    base = request.build_absolute_uri("/").rstrip("/")
    version = client_version()
    context = {
        "base_url": base,
        "client_version": version,
        "client_url": request.build_absolute_uri(reverse("portal:client-archive")),
        "starter_url": request.build_absolute_uri(reverse("portal:starter-agent")),
        "docs_url": request.build_absolute_uri(reverse("api:docs")),
        "redoc_url": request.build_absolute_uri(reverse("api:redoc")),
    }
    return render(request, "portal/quickstart.html", context)


def starter_agent(request: HttpRequest) -> FileResponse:
    response = FileResponse(STARTER.open("rb"), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="starter_agent.py"'
    return response


def client_archive(request: HttpRequest) -> HttpResponse:
    version = client_version()
    response = HttpResponse(_client_archive(version), content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="gauntlet-client-{version}.tar.gz"'
    return response
