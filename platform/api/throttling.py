"""Per-agent throttling (and a per-address one for anonymous calls).

Throttling protects capacity; it is not access control. Counters live in the default
cache: per process with the local cache, shared across processes with Redis.
"""

from rest_framework.throttling import SimpleRateThrottle

from api.authentication import AgentPrincipal


class AgentRateThrottle(SimpleRateThrottle):
    scope = "agent"

    def get_cache_key(self, request, view):
        if not isinstance(request.user, AgentPrincipal):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.agent.pk}


class AnonymousRateThrottle(SimpleRateThrottle):
    scope = "anon"

    def get_cache_key(self, request, view):
        if isinstance(request.user, AgentPrincipal):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
