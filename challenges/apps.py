from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "challenges"
    verbose_name = "Challenges"

    def ready(self) -> None:
        from challenges import config, intake_config, novelty_config  # noqa: F401  (declare the app's settings)
