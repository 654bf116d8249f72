from django.apps import AppConfig


class DetectionConfig(AppConfig):
    name = "detection"
    verbose_name = "Contamination detection"

    def ready(self) -> None:
        # Settings declared, signals registered, the batch's admin pages and settings.
        from detection import admin_batch, batch_config, config, signals  # noqa: F401
