from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        from detection import config, signals  # noqa: F401  (declare settings, register signals)

        # Register the metrics, then declare their threshold settings.
        from detection import metrics_config
        from detection.selectors import metrics as _metrics  # noqa: F401

        metrics_config.declare_metric_settings()
