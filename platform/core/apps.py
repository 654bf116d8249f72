from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from core import cluster
        from core.bootstrap import ensure_platform_state

        # Roles and schedules are ensured after every migrate, so a fresh database and an
        # upgraded one converge on the same state; both operations are idempotent. No sender
        # filter: the handler acts once, after the last app's permissions exist.
        post_migrate.connect(ensure_platform_state, dispatch_uid="core.ensure_platform_state")
        # A cluster process killed outright must not leave the cluster wedged (core.cluster).
        cluster.install()
