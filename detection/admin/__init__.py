from detection.admin import metrics, procedures  # noqa: F401  (register the model admins and panels)
