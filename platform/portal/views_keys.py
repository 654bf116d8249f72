"""The one-time key page and key revocation, POST-redirect-GET.

A new key is handed from the POST that minted it to the page that shows it through the
session, sealed with the platform keys and removed on first read: a reload of that page
(or the back button) shows that the key was already shown and mints nothing. Revoking
asks for confirmation on a page of its own before the POST that revokes.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from competition.models import Agent
from competition.selectors import agent_get_for_owner
from competition.services import agent_key_revoke
from core.crypto import SealError, seal, unseal

SESSION_KEY = "portal.new_key"


def key_shown_once_redirect(request: HttpRequest, *, agent: Agent, raw_key: str) -> HttpResponse:
    """Keep the new key for exactly one display and redirect to the page that shows it."""
    request.session[SESSION_KEY] = {"agent": str(agent.public_id), "sealed": seal(raw_key.encode()).decode()}
    return redirect("portal:agent-key-shown", public_id=agent.public_id)


def _own_agent(request: HttpRequest, public_id) -> Agent:
    agent = agent_get_for_owner(owner=request.user, public_id=public_id)
    if agent is None:
        raise Http404("No such agent.")
    return agent


def _take_key(request: HttpRequest, agent: Agent) -> str | None:
    pending = request.session.get(SESSION_KEY)
    if not pending or pending.get("agent") != str(agent.public_id):
        return None
    del request.session[SESSION_KEY]
    try:
        return unseal(pending["sealed"].encode()).decode()
    except (SealError, KeyError):
        return None


@never_cache
@login_required
def agent_key_shown(request: HttpRequest, public_id) -> HttpResponse:
    agent = _own_agent(request, public_id)
    raw_key = _take_key(request, agent)
    base = request.build_absolute_uri("/").rstrip("/")
    context = {
        "agent": agent, "raw_key": raw_key, "base_url": base,
        "quickstart_url": reverse("portal:quickstart"),
    }
    return render(request, "portal/agent_key_once.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def agent_key_revoke_view(request: HttpRequest, public_id, prefix: str) -> HttpResponse:
    agent = _own_agent(request, public_id)
    key = agent.keys.filter(prefix=prefix).first()
    if key is None:
        raise Http404("No such key.")
    if request.method == "GET" or request.POST.get("confirm") != "yes":
        return render(request, "portal/agent_key_revoke.html", {"agent": agent, "key": key})
    if key.revoked_at is None:
        agent_key_revoke(key=key, by=request.user, reason="revoked by its owner in the portal")
        messages.success(request, f"Key gk_{prefix}_… revoked. Requests with it now fail.")
    return redirect("portal:agent-detail", public_id=agent.public_id)
