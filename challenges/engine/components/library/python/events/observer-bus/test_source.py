import unittest
from dataclasses import dataclass

from source import EventBus, event_bus_from_settings


@dataclass
class Saved:
    name: str


@dataclass
class Deleted(Saved):
    pass


class EventBusTest(unittest.TestCase):
    def setUp(self):
        self.bus = EventBus()
        self.seen = []

    def test_delivers_by_type_including_subclasses(self):
        self.bus.subscribe(Saved, lambda e: self.seen.append(("saved", e.name)))
        self.bus.subscribe(Deleted, lambda e: self.seen.append(("deleted", e.name)))
        self.bus.publish(Saved("a"))
        self.bus.publish(Deleted("b"))
        self.assertEqual(self.seen, [("saved", "a"), ("saved", "b"), ("deleted", "b")])

    def test_catch_all_subscribers(self):
        self.bus.subscribe(None, self.seen.append)
        self.bus.publish(1)
        self.bus.publish("two")
        self.assertEqual(self.seen, [1, "two"])

    def test_failing_subscriber_does_not_stop_the_others(self):
        def broken(event):
            raise RuntimeError("disk full")

        self.bus.subscribe(Saved, broken)
        self.bus.subscribe(Saved, self.seen.append)
        report = self.bus.publish(Saved("x"))
        self.assertEqual(report.delivered, 1)
        self.assertFalse(report.ok)
        self.assertIsInstance(report.errors[0][1], RuntimeError)
        self.assertEqual(self.seen, [Saved("x")])

    def test_raise_errors(self):
        bus = EventBus(raise_errors=True)
        bus.subscribe(None, lambda e: 1 / 0)
        with self.assertRaises(ZeroDivisionError):
            bus.publish("x")

    def test_unsubscribe(self):
        subscription = self.bus.subscribe(None, self.seen.append)
        subscription.cancel()
        self.assertFalse(self.bus.unsubscribe(subscription))
        self.bus.publish("x")
        self.assertEqual(self.seen, [])

    def test_decorator(self):
        @self.bus.on(Saved)
        def remember(event):
            self.seen.append(event.name)

        self.bus.publish(Saved("y"))
        self.assertEqual(self.seen, ["y"])

    def test_runaway_nesting_is_stopped(self):
        bus = EventBus(max_depth=3)
        bus.subscribe(int, lambda n: bus.publish(n + 1))
        with self.assertRaises(RuntimeError):
            bus.publish(0)

    def test_nested_publish_within_depth(self):
        bus = EventBus(max_depth=3)
        bus.subscribe(int, lambda n: bus.publish(str(n)) if n < 1 else None)
        bus.subscribe(str, self.seen.append)
        bus.publish(0)
        self.assertEqual(self.seen, ["0"])

    def test_factory(self):
        bus = event_bus_from_settings({"events": {"raise_errors": True, "max_depth": 2}})
        bus.subscribe(None, lambda e: 1 / 0)
        with self.assertRaises(ZeroDivisionError):
            bus.publish("x")
        self.assertIsInstance(event_bus_from_settings({}), EventBus)


if __name__ == "__main__":
    unittest.main()
