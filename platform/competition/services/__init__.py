"""Writes for the competition, split by sub-domain; import from here."""

from competition.services.agents import (
    AgentWithKey,
    agent_create,
    agent_key_issue,
    agent_key_revoke,
    agent_key_touch,
    agent_update,
)

__all__ = ["AgentWithKey", "agent_create", "agent_key_issue", "agent_key_revoke", "agent_key_touch", "agent_update"]
