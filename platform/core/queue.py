"""Queueing background work: after commit, by id."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def enqueue_on_commit(func_path: str, *args: Any, task_name: str | None = None, group: str | None = None) -> None:
    """Queue ``func_path(*args)`` on django-q2 once the surrounding transaction commits.

    Arguments must be ids and plain values, never model instances: the task reloads what
    it needs, so it sees committed state and survives retries. Outside a transaction the
    task is queued at once (Django runs on_commit callbacks immediately in autocommit).
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
        async_task(func_path, *args, **options)

    transaction.on_commit(_enqueue)
