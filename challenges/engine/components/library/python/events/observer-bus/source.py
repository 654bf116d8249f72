"""A synchronous, in-process event bus.

Subscribers register for an event class (and receive its subclasses too) or for
every event.  Delivery is in subscription order.  A subscriber that raises does
not stop delivery to the others: the failures come back in a ``DeliveryReport``
unless the bus is configured to raise them.  Publishing from inside a handler is
allowed up to ``max_depth`` levels, which catches handlers that feed each other
forever.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Handler = Callable[[Any], None]


@dataclass(frozen=True)
class Subscription:
    """Returned by ``subscribe``; pass it to ``unsubscribe`` or call ``cancel``."""

    id: int
    event_type: type | None
    handler: Handler
    bus: EventBus = field(repr=False, compare=False)

    def cancel(self) -> None:
        self.bus.unsubscribe(self)


@dataclass
class DeliveryReport:
    """What happened when one event was published."""

    event: Any
    delivered: int = 0
    errors: list[tuple[Handler, BaseException]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class PublishDepthExceeded(RuntimeError):
    """Handlers kept publishing events from inside other handlers."""


class EventBus:
    """Delivers published events to the subscribers of their type."""

    def __init__(self, raise_errors: bool = False, max_depth: int = 8) -> None:
        if max_depth < 1:
            raise ValueError("max_depth must be at least 1")
        self._raise = raise_errors
        self._max_depth = max_depth
        self._subscriptions: list[Subscription] = []
        self._ids = itertools.count(1)
        self._depth = 0
        self.history: list[DeliveryReport] = []

    def subscribe(self, event_type: type | None, handler: Handler) -> Subscription:
        """Call ``handler`` for every event of ``event_type`` (``None``: every event)."""
        if not callable(handler):
            raise TypeError("handler must be callable")
        subscription = Subscription(next(self._ids), event_type, handler, self)
        self._subscriptions.append(subscription)
        return subscription

    def on(self, event_type: type | None) -> Callable[[Handler], Handler]:
        """Decorator form of ``subscribe``."""

        def register(handler: Handler) -> Handler:
            self.subscribe(event_type, handler)
            return handler

        return register

    def unsubscribe(self, subscription: Subscription) -> bool:
        before = len(self._subscriptions)
        self._subscriptions = [s for s in self._subscriptions if s.id != subscription.id]
        return len(self._subscriptions) < before

    def subscribers(self, event_type: type) -> list[Subscription]:
        return [s for s in self._subscriptions if s.event_type is None or issubclass(event_type, s.event_type)]

    def publish(self, event: Any) -> DeliveryReport:
        if self._depth >= self._max_depth:
            raise PublishDepthExceeded(f"events nested deeper than {self._max_depth} levels")
        report = DeliveryReport(event)
        # Subscriptions added while delivering take effect from the next event.
        targets = self.subscribers(type(event))
        self._depth += 1
        try:
            for subscription in targets:
                try:
                    subscription.handler(event)
                except PublishDepthExceeded:
                    raise
                except Exception as exc:
                    if self._raise:
                        raise
                    report.errors.append((subscription.handler, exc))
                else:
                    report.delivered += 1
        finally:
            self._depth -= 1
        self.history.append(report)
        return report

    def clear(self) -> None:
        self._subscriptions.clear()
        self.history.clear()


def event_bus_from_settings(settings: Mapping[str, object]) -> EventBus:
    """A bus configured from the ``events`` section of ``settings``."""
    section = settings.get("events", {}) or {}
    return EventBus(raise_errors=bool(section.get("raise_errors", False)),
                    max_depth=int(section.get("max_depth", 8)))
