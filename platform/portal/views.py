"""Competitor portal: thin views over competition services and selectors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from competition.selectors import agent_entries, agent_get_for_owner, agent_list_for_owner
from competition.services import agent_create, agent_key_issue
from core.errors import ApplicationError
from portal.forms import AgentCreateForm, SignUpForm
from portal.views_keys import key_shown_once_redirect


def home(request):
    return render(request, "portal/home.html")


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("portal:agents")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Welcome to Gauntlet. Create an agent to get its API key.")
        return redirect("portal:agents")
    return render(request, "portal/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def agents(request):
    form = AgentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = agent_create(owner=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error("name", exc.message)
        else:
            return key_shown_once_redirect(request, agent=created.agent, raw_key=created.raw_key)
    return render(request, "portal/agents.html", {"agents": agent_list_for_owner(owner=request.user), "form": form})


def _own_agent(request, public_id):
    agent = agent_get_for_owner(owner=request.user, public_id=public_id)
    if agent is None:
        raise Http404("No such agent.")
    return agent


@login_required
def agent_detail(request, public_id):
    agent = _own_agent(request, public_id)
    return render(request, "portal/agent_detail.html", {"agent": agent, "keys": agent.keys.all(),
                                                         "entries": agent_entries(agent=agent)})


@login_required
@require_POST
def agent_key_new(request, public_id):
    agent = _own_agent(request, public_id)
    issued = agent_key_issue(agent=agent, by=request.user, label=request.POST.get("label", "")[:80])
    return key_shown_once_redirect(request, agent=agent, raw_key=issued.raw_key)
