from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        from detection import batch_config  # noqa: F401  (declare the batch, provenance and trend settings)
