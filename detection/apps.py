from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        from detection import admin_batch, batch_config  # noqa: F401  (admin pages; batch, provenance, trend settings)
