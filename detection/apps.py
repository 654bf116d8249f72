from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        # Register the metrics, then declare their threshold settings.
        from detection import config, metrics_config, signals  # noqa: F401  (declare settings, register signals)
        from detection.selectors import metrics as _metrics  # noqa: F401

        metrics_config.declare_metric_settings()
