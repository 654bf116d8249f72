from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        # Settings declared, signals registered, the batch's admin pages and settings.
        from detection import admin_batch, batch_config, cases_config, config, signals  # noqa: F401
        from detection.services.cases import register_score_holds

        # Let open cases keep their scores from finalising.
        register_score_holds()

        # Register the metrics, then declare their threshold settings.
        from detection import metrics_config
        from detection.selectors import detection_metrics as _detection_metrics  # noqa: F401
        from detection.selectors import metrics as _metrics  # noqa: F401

        metrics_config.declare_metric_settings()
        from detection.selectors import integrity_sections

        integrity_sections.register()
