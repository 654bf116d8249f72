import unittest
from datetime import datetime, timezone

from source import ManualClock, Stopwatch, SystemClock, clock_from_settings


class ManualClockTest(unittest.TestCase):
    def test_advances_only_when_told(self):
        clock = ManualClock(start=10)
        self.assertEqual(clock.monotonic(), 10)
        clock.advance(2.5)
        self.assertEqual(clock.monotonic(), 12.5)

    def test_wall_time_follows_the_monotonic_reading(self):
        clock = ManualClock(wall_start=datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc))
        clock.advance(90)
        self.assertEqual(clock.now(), datetime(2024, 5, 1, 12, 1, 30, tzinfo=timezone.utc))

    def test_sleep_advances_and_is_recorded(self):
        clock = ManualClock()
        clock.sleep(3)
        clock.sleep(0)
        self.assertEqual(clock.monotonic(), 3)
        self.assertEqual(clock.sleeps, [3, 0])

    def test_refuses_to_go_backwards(self):
        with self.assertRaises(ValueError):
            ManualClock().advance(-1)

    def test_naive_wall_start_is_refused(self):
        with self.assertRaises(ValueError):
            ManualClock(wall_start=datetime(2024, 1, 1))


class StopwatchTest(unittest.TestCase):
    def test_measures_running_time_only(self):
        clock = ManualClock()
        watch = Stopwatch(clock).start()
        clock.advance(5)
        self.assertEqual(watch.stop(), 5)
        clock.advance(100)
        watch.start()
        clock.advance(1)
        self.assertEqual(watch.elapsed, 6)

    def test_laps(self):
        clock = ManualClock()
        with Stopwatch(clock) as watch:
            clock.advance(1)
            watch.lap("parse")
            clock.advance(2)
            watch.lap("write")
        self.assertEqual(watch.laps, [("parse", 1), ("write", 2)])
        self.assertFalse(watch.running)

    def test_lap_needs_a_running_watch(self):
        with self.assertRaises(RuntimeError):
            Stopwatch(ManualClock()).lap("x")


class FactoryTest(unittest.TestCase):
    def test_default_is_the_system_clock(self):
        self.assertIsInstance(clock_from_settings({}), SystemClock)

    def test_manual_clock_from_settings(self):
        clock = clock_from_settings({"clock": {"source": "manual", "start": 7}})
        self.assertEqual(clock.monotonic(), 7)

    def test_unknown_source(self):
        with self.assertRaises(ValueError):
            clock_from_settings({"clock": {"source": "atomic"}})


if __name__ == "__main__":
    unittest.main()
