from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "challenges"
    verbose_name = "Challenges"

    def ready(self) -> None:
        # Declare the app's settings and register its deployment checks.
        from challenges import calibration_config, checks, config, intake_config, novelty_config  # noqa: F401
