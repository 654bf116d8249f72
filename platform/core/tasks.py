"""Background tasks for the platform itself."""

from core.services import worker_heartbeat_record


def heartbeat() -> str:
    """Prove a worker is alive: the health endpoint reads the time this last ran."""
    return worker_heartbeat_record().beat_at.isoformat()
