from rest_framework.permissions import BasePermission

from api.authentication import AgentPrincipal


class DenyAll(BasePermission):
    """The default: a view that forgets to declare its permissions answers nobody."""

    def has_permission(self, request, view) -> bool:
        return False


class IsAgent(BasePermission):
    def has_permission(self, request, view) -> bool:
        return isinstance(request.user, AgentPrincipal)
