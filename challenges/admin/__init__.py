"""Staff admin for challenges, one module per sub-domain (imported here to register)."""

from challenges.admin import calibration, instances, novelty  # noqa: F401
