"""Cost of one sandboxed run: ``python -m bench.sandbox``.

Times ``run(["true"])`` (pure set-up and tear-down), a Python interpreter start, and a small
unittest suite through ``run_tests``, each BENCH_SANDBOX_RUNS times, with the full isolation;
then the same trivial run through bubblewrap without the per-run cgroup and without the
privilege drop, to show what those two cost. Last line: JSON (medians in seconds).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

RUNS = int(os.environ.get("BENCH_SANDBOX_RUNS", "30"))
ROOT = Path(__file__).resolve().parents[1]


def _median(action) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times), 4)


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from challenges.sandbox import Limits, check_available, run, run_tests, sandbox_env
    from challenges.sandbox.core import default_layout, run_prepared

    reason = check_available()
    if reason:
        raise SystemExit(f"the sandbox is unavailable here: {reason}")
    layout = default_layout()
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as tmp:
        tree = Path(tmp)
        (tree / "calc.py").write_text("def double(x):\n    return 2 * x\n")
        (tree / "tests").mkdir()
        (tree / "tests" / "test_calc.py").write_text(
            "import unittest\nfrom calc import double\n\n\nclass CalcTests(unittest.TestCase):\n"
            "    def test_double(self):\n        self.assertEqual(double(2), 4)\n")
        bare = replace(layout, cgroups=None, run_as=None)

        def bare_true() -> None:
            run_prepared(["true"], workdir=tree, limits=Limits(), env=sandbox_env(), layout=bare, sandboxed=True)

        figures = {
            "true_s": _median(lambda: run(["true"], workdir=tree)),
            "python_start_s": _median(lambda: run(["python3", "-c", "pass"], workdir=tree)),
            "python_tests_s": _median(lambda: run_tests(tree, language="python", test_paths=["tests/test_calc.py"])),
            "true_without_cgroup_and_drop_s": _median(bare_true),
            "runs": RUNS,
            "cgroup": layout.cgroups.describe() if layout.cgroups else None,
            "run_as": layout.run_as.name if layout.run_as else "the worker itself",
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
