"""Topic notifications, queued on publish and delivered when drained.

Topics are dot-separated words (``invoice.paid``).  A subscription pattern may
use ``*`` for exactly one word and ``#`` for any number of trailing words
(``invoice.*``, ``audit.#``).  ``publish`` only queues; ``drain`` delivers in
publication order, so a caller decides when side effects happen (for instance
after its own write succeeded).  A handler that fails is retried on later
drains until ``max_attempts``; then the message is parked in ``dead_letters``.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

_TOPIC = re.compile(r"^[a-z0-9_-]+(\.[a-z0-9_-]+)*$")
_PATTERN = re.compile(r"^([a-z0-9_-]+|\*)(\.([a-z0-9_-]+|\*))*(\.#)?$|^#$")


def topic_matches(pattern: str, topic: str) -> bool:
    """Whether ``topic`` is covered by ``pattern`` (``*``: one word, trailing ``#``: any words)."""
    want = pattern.split(".")
    have = topic.split(".")
    if want[-1] == "#":
        want = want[:-1]
        if len(have) < len(want):
            return False
        have = have[: len(want)]
    if len(want) != len(have):
        return False
    return all(w == "*" or w == h for w, h in zip(want, have, strict=True))


@dataclass
class Message:
    id: int
    topic: str
    payload: Any
    attempts: int = 0
    pending: list[int] = field(default_factory=list)  # subscriber ids still to deliver to


class QueueFull(RuntimeError):
    """Raised when publishing to a queue that already holds ``max_queue`` messages."""


class Notifier:
    """Queues topic messages and delivers them to matching subscribers on ``drain``."""

    def __init__(self, max_queue: int = 1000, max_attempts: int = 3) -> None:
        if max_queue < 1 or max_attempts < 1:
            raise ValueError("max_queue and max_attempts must be positive")
        self._max_queue = max_queue
        self._max_attempts = max_attempts
        self._queue: deque[Message] = deque()
        self._subscribers: dict[int, tuple[str, Callable[[Message], None]]] = {}
        self._ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self.dead_letters: list[tuple[Message, BaseException]] = []

    def subscribe(self, pattern: str, handler: Callable[[Message], None]) -> int:
        if not _PATTERN.match(pattern):
            raise ValueError(f"invalid topic pattern: {pattern!r}")
        subscriber = next(self._ids)
        self._subscribers[subscriber] = (pattern, handler)
        return subscriber

    def unsubscribe(self, subscriber: int) -> None:
        self._subscribers.pop(subscriber, None)

    def publish(self, topic: str, payload: Any = None) -> Message:
        """Queue ``payload`` for the subscribers whose pattern covers ``topic``."""
        if not _TOPIC.match(topic):
            raise ValueError(f"invalid topic: {topic!r}")
        if len(self._queue) >= self._max_queue:
            raise QueueFull(f"{len(self._queue)} messages are already waiting")
        targets = [sid for sid, (pattern, _) in self._subscribers.items() if topic_matches(pattern, topic)]
        message = Message(next(self._message_ids), topic, payload, pending=targets)
        if targets:
            self._queue.append(message)
        return message

    def __len__(self) -> int:
        return len(self._queue)

    def drain(self, limit: int | None = None) -> int:
        """Deliver up to ``limit`` queued messages; returns how many completed."""
        done = 0
        retry: list[Message] = []
        count = len(self._queue) if limit is None else min(limit, len(self._queue))
        for _ in range(count):
            message = self._queue.popleft()
            message.attempts += 1
            failure: BaseException | None = None
            still_pending = []
            for subscriber in message.pending:
                entry = self._subscribers.get(subscriber)
                if entry is None:
                    continue
                try:
                    entry[1](message)
                except Exception as exc:
                    failure = exc
                    still_pending.append(subscriber)
            message.pending = still_pending
            if not still_pending:
                done += 1
            elif message.attempts >= self._max_attempts:
                self.dead_letters.append((message, failure))
            else:
                retry.append(message)
        # Retried messages go back to the front, in their original order.
        self._queue.extendleft(reversed(retry))
        return done


def notifier_from_settings(settings: Mapping[str, object]) -> Notifier:
    """A notifier configured from the ``events`` section of ``settings``."""
    section = settings.get("events", {}) or {}
    return Notifier(max_queue=int(section.get("max_queue", 1000)),
                    max_attempts=int(section.get("max_attempts", 3)))
