"""Detection's admin registrations (the case admin lives in ``admin_cases``)."""

from detection import admin_cases  # noqa: F401
