"""Reads for the competition, split by sub-domain; import from here.

``agents``: agents and API keys. ``leaderboards``: bout standings recomputed from score
rows. ``reports``: honest-reporting figures (spec 001 §3, §5) per agent, bout and season.
"""

from competition.selectors.agents import agent_get_for_owner, agent_key_authenticate, agent_list_for_owner

__all__ = ["agent_get_for_owner", "agent_key_authenticate", "agent_list_for_owner"]
