import unittest

from source import Notifier, notifier_from_settings, topic_matches


class TopicMatchTest(unittest.TestCase):
    def test_patterns(self):
        self.assertTrue(topic_matches("invoice.paid", "invoice.paid"))
        self.assertTrue(topic_matches("invoice.*", "invoice.paid"))
        self.assertFalse(topic_matches("invoice.*", "invoice.paid.late"))
        self.assertTrue(topic_matches("audit.#", "audit"))
        self.assertTrue(topic_matches("audit.#", "audit.user.login"))
        self.assertTrue(topic_matches("#", "anything.at.all"))
        self.assertFalse(topic_matches("*.paid", "invoice.sent"))


class NotifierTest(unittest.TestCase):
    def setUp(self):
        self.notifier = Notifier(max_queue=3, max_attempts=2)
        self.seen = []

    def test_publish_only_queues(self):
        self.notifier.subscribe("order.*", lambda m: self.seen.append((m.topic, m.payload)))
        self.notifier.publish("order.created", 1)
        self.assertEqual(self.seen, [])
        self.assertEqual(self.notifier.drain(), 1)
        self.assertEqual(self.seen, [("order.created", 1)])
        self.assertEqual(len(self.notifier), 0)

    def test_messages_without_subscribers_are_dropped(self):
        self.notifier.publish("nobody.listens")
        self.assertEqual(len(self.notifier), 0)

    def test_order_and_limit(self):
        self.notifier.subscribe("#", lambda m: self.seen.append(m.payload))
        for n in range(3):
            self.notifier.publish("tick", n)
        self.assertEqual(self.notifier.drain(limit=2), 2)
        self.assertEqual(self.seen, [0, 1])
        self.notifier.drain()
        self.assertEqual(self.seen, [0, 1, 2])

    def test_queue_is_bounded(self):
        self.notifier.subscribe("#", self.seen.append)
        for _ in range(3):
            self.notifier.publish("x")
        with self.assertRaises(RuntimeError):
            self.notifier.publish("x")

    def test_failures_retry_only_the_failed_subscriber_then_dead_letter(self):
        calls = {"good": 0, "bad": 0}

        def good(message):
            calls["good"] += 1

        def bad(message):
            calls["bad"] += 1
            raise OSError("mail server down")

        self.notifier.subscribe("mail.*", good)
        self.notifier.subscribe("mail.*", bad)
        self.notifier.publish("mail.send", "hi")
        self.assertEqual(self.notifier.drain(), 0)
        self.assertEqual(len(self.notifier), 1)
        self.notifier.drain()
        self.assertEqual(calls, {"good": 1, "bad": 2})
        self.assertEqual(len(self.notifier), 0)
        message, error = self.notifier.dead_letters[0]
        self.assertEqual(message.topic, "mail.send")
        self.assertIsInstance(error, OSError)

    def test_invalid_names(self):
        with self.assertRaises(ValueError):
            self.notifier.subscribe("a.#.b", print)
        with self.assertRaises(ValueError):
            self.notifier.publish("Bad Topic")

    def test_factory(self):
        notifier = notifier_from_settings({"events": {"max_queue": 1}})
        notifier.subscribe("#", self.seen.append)
        notifier.publish("a")
        with self.assertRaises(RuntimeError):
            notifier.publish("b")
        self.assertIsInstance(notifier_from_settings({}), Notifier)


if __name__ == "__main__":
    unittest.main()
