"""Detection's admin registrations, one module per sub-domain (cases in ``detection.admin_cases``,
the post-bout batch in ``detection.admin_batch``, registered from the app's ready())."""

# The admin is imported before this app's ready(): load the signal registry first, since
# detection.canaries and detection.signals import each other and only this order completes.
from detection import signals  # noqa: F401, I001
from detection import admin_cases  # noqa: F401
from detection.admin import metrics, procedures, realtime, recalibration  # noqa: F401  (register the admins, panels)
