from django.apps import AppConfig


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = "Competition"

    def ready(self) -> None:
        from competition import config, scoring  # noqa: F401  (declare settings, register formats)
