"""The platform's local git forge: read-only smart HTTP clones of attempt workspaces.

``git clone <base>/git/<workspace>.git`` with the agent key (``Authorization: Bearer``
through ``http.extraHeader``, or HTTP Basic with the key as password) serves the
attempt's workspace with dulwich's upload-pack. Only upload-pack exists here: pushes,
the dumb protocol and any other path answer 404, and so does every workspace that is
not the calling agent's open attempt — exactly like one that never existed.
"""

from __future__ import annotations

import base64
import gzip
import io
import re

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from dulwich.repo import Repo
from dulwich.server import DictBackend, UploadPackHandler
from dulwich.web import HTTPGitRequest, get_info_refs, handle_service_request

from challenges.audit.names import is_opaque
from challenges.services.workspaces import workspace_tree
from competition.models import Attempt
from competition.selectors import agent_key_authenticate
from competition.selectors.bouts import attempt_for_workspace
from competition.services import agent_key_touch

MAX_REQUEST_BYTES = 4 * 1024 * 1024
_NOT_FOUND = b"Repository not found.\n"


def _credentials(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme == "Bearer":
        return value.strip()
    if scheme == "Basic":
        try:
            decoded = base64.b64decode(value.strip(), validate=True).decode()
        except (ValueError, UnicodeDecodeError):
            return None
        return decoded.partition(":")[2]
    return None


def _challenge() -> HttpResponse:
    response = HttpResponse(b"Authentication required.\n", status=401, content_type="text/plain")
    response["WWW-Authenticate"] = 'Basic realm="git"'
    return response


def _attempt(request: HttpRequest, name: str) -> Attempt | HttpResponse:
    if not is_opaque(name):
        return HttpResponse(_NOT_FOUND, status=404, content_type="text/plain")
    raw = _credentials(request)
    if not raw:
        return _challenge()
    key = agent_key_authenticate(raw=raw)
    if key is None:
        return _challenge()
    agent_key_touch(key=key)
    attempt = attempt_for_workspace(agent=key.agent, workspace_name=name)
    if attempt is None:
        return HttpResponse(_NOT_FOUND, status=404, content_type="text/plain")
    return attempt


def _serve(request: HttpRequest, attempt: Attempt, path: str, handler, body: bytes = b"") -> HttpResponse:
    repo = Repo(str(workspace_tree(attempt.challenge.instance)))
    backend = DictBackend({"/": repo})
    environ = {k: v for k, v in request.environ.items() if k not in ("wsgi.input", "HTTP_TRANSFER_ENCODING")}
    environ["wsgi.input"] = io.BytesIO(body)
    captured: dict = {}
    chunks: list[bytes] = []

    def start_response(status, headers, exc_info=None):
        captured["status"], captured["headers"] = status, headers
        return chunks.append

    git_request = HTTPGitRequest(environ, start_response, dumb=False,
                                 handlers={b"git-upload-pack": UploadPackHandler})
    match = re.search(re.escape(path) + "$", path)
    for chunk in handler(git_request, backend, match):
        chunks.append(chunk)
    status = int(captured["status"].split()[0])
    response = HttpResponse(b"".join(chunks), status=status)
    for name, value in captured["headers"]:
        response[name] = value
    return response


@require_GET
def info_refs(request: HttpRequest, name: str) -> HttpResponse:
    found = _attempt(request, name)
    if isinstance(found, HttpResponse):
        return found
    if request.GET.get("service") != "git-upload-pack":
        return HttpResponse(_NOT_FOUND, status=404, content_type="text/plain")
    return _serve(request, found, "/info/refs", get_info_refs)


@csrf_exempt
@require_POST
def upload_pack(request: HttpRequest, name: str) -> HttpResponse:
    found = _attempt(request, name)
    if isinstance(found, HttpResponse):
        return found
    body = request.body
    if request.headers.get("Content-Encoding") == "gzip":
        body = gzip.GzipFile(fileobj=io.BytesIO(body)).read(MAX_REQUEST_BYTES + 1)
    if len(body) > MAX_REQUEST_BYTES:
        return HttpResponse(b"Request too large.\n", status=413, content_type="text/plain")
    return _serve(request, found, "/git-upload-pack", handle_service_request, body)


def not_found(request: HttpRequest, name: str = "", rest: str = "") -> HttpResponse:
    return HttpResponse(_NOT_FOUND, status=404, content_type="text/plain")
