from django.apps import AppConfig


class ChallengesConfig(AppConfig):
    name = "challenges"
    verbose_name = "Challenges"

    def ready(self) -> None:
        # Declare the app's settings and register its deployment checks.
        from challenges import (  # noqa: F401
            calibration_config,
            checks,
            config,
            difficulty_config,
            intake_config,
            novelty_config,
        )
