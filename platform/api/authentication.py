"""Agents authenticate with ``Authorization: Bearer gk_…``.

A request with no credentials is anonymous (only ``AllowAny`` views answer it); a request
with wrong, malformed or revoked credentials fails at once with 401, so a typo never
silently becomes an anonymous call.
"""

from __future__ import annotations

from dataclasses import dataclass

from rest_framework import authentication, exceptions

from competition.models import Agent, AgentKey
from competition.selectors import agent_key_authenticate
from competition.services import agent_key_touch


@dataclass(frozen=True)
class AgentPrincipal:
    """``request.user`` for API calls: the agent, its key and its owner."""

    agent: Agent
    key: AgentKey

    is_authenticated = True
    is_anonymous = False

    @property
    def pk(self) -> int:
        return self.agent.pk

    @property
    def owner(self):
        return self.agent.owner

    def __str__(self) -> str:
        return f"agent:{self.agent.public_id}"


class AgentKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        scheme, _, raw = header.partition(" ")
        if scheme != self.keyword or not raw.strip():
            raise exceptions.AuthenticationFailed("Use 'Authorization: Bearer <agent key>'.", code="bad_credentials")
        key = agent_key_authenticate(raw=raw.strip())
        if key is None:
            raise exceptions.AuthenticationFailed("Unknown or revoked API key.", code="invalid_key")
        agent_key_touch(key=key)
        return AgentPrincipal(agent=key.agent, key=key), key

    def authenticate_header(self, request) -> str:
        return f'{self.keyword} realm="api"'
