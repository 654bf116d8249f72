from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        # Declare settings and register signals; let open cases keep their scores from finalising.
        from detection import cases_config, config, signals  # noqa: F401
        from detection.services.cases import register_score_holds

        register_score_holds()
