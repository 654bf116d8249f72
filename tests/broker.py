"""The task queue as a test sees it, whichever broker the settings chose (ORM or Redis).

The ORM broker's rows roll back with each test; a Redis list does not, so a test that
counts or lists queued work purges first.
"""

from __future__ import annotations

from typing import Any

from django_q.brokers import get_broker
from django_q.signing import SignedPackage


def purge() -> None:
    get_broker().purge_queue()


def size() -> int:
    return get_broker().queue_size()


def drain() -> list[dict[str, Any]]:
    """Take every task off this worker's queue, oldest first, and return their packages."""
    broker = get_broker()
    tasks: list[dict[str, Any]] = []
    while broker.queue_size():
        for ack, payload in broker.dequeue() or []:
            tasks.append(SignedPackage.loads(payload))
            broker.acknowledge(ack)
    return tasks
