"""Queueing background work: after commit, by id."""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError, transaction
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


def enqueue_on_commit(
    func_path: str, *args: Any, task_name: str | None = None, group: str | None = None,
    recovered_by: str | None = None,
) -> None:
    """Queue ``func_path(*args)`` on django-q2 once the surrounding transaction commits.

    Arguments must be ids and plain values, never model instances: the task reloads what
    it needs, so it sees committed state and survives retries. Outside a transaction the
    task is queued at once (Django runs on_commit callbacks immediately in autocommit).

    ``recovered_by`` names the sweeper that re-queues this work from the database when
    its message is lost. With it, a broker that cannot be reached is logged, not raised:
    the change has committed already, and failing the request now would only tell the
    caller that something which happened did not.
    """
    for arg in args:
        if hasattr(arg, "_meta") and hasattr(arg, "pk"):
            raise TypeError(f"pass ids to background tasks, not model instances ({arg!r})")

    def _enqueue() -> None:
        from django_q.tasks import async_task

        options: dict[str, Any] = {}
        if task_name:
            options["task_name"] = task_name
        if group:
            options["group"] = group
        try:
            async_task(func_path, *args, **options)
        except (RedisError, DatabaseError, OSError) as exc:
            if recovered_by is None:
                raise
            logger.warning("could not queue %s%r (%s: %s); %s will queue it", func_path, args,
                           type(exc).__name__, exc, recovered_by)

    transaction.on_commit(_enqueue)
