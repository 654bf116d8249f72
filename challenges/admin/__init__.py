"""Staff admin for challenges, one module per sub-domain (imported here to register)."""

from challenges.admin import instances, novelty  # noqa: F401
