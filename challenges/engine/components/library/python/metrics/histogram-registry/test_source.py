import unittest

from source import Counter, Histogram, MetricsRegistry, from_settings


class CounterTest(unittest.TestCase):
    def test_counts_up(self):
        counter = Counter()
        counter.inc()
        counter.inc(2.5)
        self.assertEqual(counter.value, 3.5)

    def test_refuses_negative_increments(self):
        with self.assertRaises(ValueError):
            Counter().inc(-1)


class HistogramTest(unittest.TestCase):
    def test_buckets_are_cumulative(self):
        histogram = Histogram([1, 5])
        for value in (0.5, 1, 3, 7):
            histogram.observe(value)
        self.assertEqual(histogram.cumulative(), [(1.0, 2), (5.0, 3), (float("inf"), 4)])
        self.assertEqual(histogram.count, 4)
        self.assertEqual(histogram.total, 11.5)

    def test_rejects_duplicate_buckets(self):
        with self.assertRaises(ValueError):
            Histogram([1, 1])


class RegistryTest(unittest.TestCase):
    def test_same_name_and_labels_give_the_same_metric(self):
        registry = MetricsRegistry(prefix="svc")
        first = registry.counter("requests", {"route": "/a"})
        self.assertIs(registry.counter("requests", {"route": "/a"}), first)
        self.assertIsNot(registry.counter("requests", {"route": "/b"}), first)

    def test_a_name_keeps_its_kind(self):
        registry = MetricsRegistry()
        registry.counter("jobs")
        with self.assertRaises(ValueError):
            registry.gauge("jobs")

    def test_render_lists_every_sample(self):
        registry = MetricsRegistry(prefix="svc", buckets=(1.0,))
        registry.counter("requests", {"route": "/a"}, help_text="Requests served").inc(3)
        registry.gauge("queue_depth").set(2)
        registry.histogram("latency").observe(0.5)
        text = registry.render()
        self.assertIn("# HELP svc_requests Requests served", text)
        self.assertIn('svc_requests{route="/a"} 3', text)
        self.assertIn("svc_queue_depth 2", text)
        self.assertIn('svc_latency_bucket{le="1"} 1', text)
        self.assertIn('svc_latency_bucket{le="+Inf"} 1', text)
        self.assertIn("svc_latency_count 1", text)
        self.assertTrue(text.index("svc_latency") < text.index("svc_queue_depth"))

    def test_invalid_names_are_refused(self):
        with self.assertRaises(ValueError):
            MetricsRegistry().counter("bad name")

    def test_from_settings_uses_the_section(self):
        registry = from_settings({"metrics": {"prefix": "shop", "buckets": [2.0]}})
        registry.histogram("size").observe(1)
        self.assertIn('shop_size_bucket{le="2"} 1', registry.render())

    def test_from_settings_defaults(self):
        registry = from_settings({})
        registry.counter("hits").inc()
        self.assertIn("app_hits 1", registry.render())


if __name__ == "__main__":
    unittest.main()
