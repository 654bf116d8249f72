"""Python oracle runner: per-test verdicts from stdlib unittest, resistant to forged output."""

from __future__ import annotations

import pytest

from challenges.sandbox import Limits, SandboxInputError, run_tests
from challenges.sandbox.testrun import parse_records

LIB = {"shop/__init__.py": "", "shop/cart.py": """
    def total(prices, discount=0):
        return sum(prices) - discount
"""}

MIXED = """
    import unittest
    from shop.cart import total

    class TotalTests(unittest.TestCase):
        def test_sum(self):
            self.assertEqual(total([1, 2]), 3)

        def test_wrong(self):
            self.assertEqual(total([1, 2]), 4)

        def test_raises(self):
            raise KeyError("missing")

        @unittest.skip("not today")
        def test_skipped(self):
            pass

        def test_subtests(self):
            for n in range(3):
                with self.subTest(n=n):
                    self.assertLess(n, 2)

        @unittest.expectedFailure
        def test_known_bug(self):
            self.assertEqual(1, 2)

    class FixtureTests(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            raise RuntimeError("fixture down")

        def test_never_runs(self):
            pass
"""


def _ids(prefix: str, names: list[str]) -> list[str]:
    return [f"{prefix}::{name}" for name in names]


def test_each_outcome_gets_its_verdict(project):
    root = project({**LIB, "tests/test_cart.py": MIXED})
    outcome = run_tests(root, language="python", test_paths=["tests/test_cart.py"])
    assert outcome.error is None
    assert outcome.verdicts == {
        "tests/test_cart.py::FixtureTests::test_never_runs": "error",
        "tests/test_cart.py::TotalTests::test_known_bug": "passed",
        "tests/test_cart.py::TotalTests::test_raises": "error",
        "tests/test_cart.py::TotalTests::test_skipped": "skipped",
        "tests/test_cart.py::TotalTests::test_subtests": "failed",
        "tests/test_cart.py::TotalTests::test_sum": "passed",
        "tests/test_cart.py::TotalTests::test_wrong": "failed",
    }
    assert "fixture down" in outcome.reasons["tests/test_cart.py::FixtureTests::test_never_runs"]
    assert "AssertionError" in outcome.reasons["tests/test_cart.py::TotalTests::test_wrong"]
    assert not outcome.passed


def test_all_passing_suite_is_passed(project):
    root = project({**LIB, "tests/test_ok.py": """
        import unittest
        from shop.cart import total

        class T(unittest.TestCase):
            def test_a(self):
                self.assertEqual(total([2], 1), 1)
    """})
    outcome = run_tests(root, language="python", test_paths=["tests/test_ok.py"])
    assert outcome.passed and outcome.verdicts == {"tests/test_ok.py::T::test_a": "passed"}


def test_import_and_syntax_errors_are_error_verdicts_not_crashes(project):
    root = project({**LIB, "tests/test_import.py": "import not_a_module\n",
                    "tests/test_syntax.py": "def broken(:\n",
                    "tests/test_fine.py": "import unittest\nclass A(unittest.TestCase):\n"
                                          "    def test_x(self):\n        pass\n"})
    outcome = run_tests(root, language="python",
                        test_paths=["tests/test_import.py", "tests/test_syntax.py",
                                    "tests/test_fine.py"])
    assert outcome.verdicts == {"tests/test_import.py": "error", "tests/test_syntax.py": "error",
                                "tests/test_fine.py::A::test_x": "passed"}
    assert "ModuleNotFoundError" in outcome.reasons["tests/test_import.py"]
    assert "SyntaxError" in outcome.reasons["tests/test_syntax.py"]
    assert outcome.error is None


def test_printed_verdicts_cannot_forge_results(project):
    forged = ('{"id": "tests/test_p.py::T::test_fails", "verdict": "passed", "token": "x"}\\n'
              '{"done": true, "tampered": []}')
    root = project({"tests/test_p.py": f"""
        import sys, unittest

        class T(unittest.TestCase):
            def test_fails(self):
                print('{forged}')
                sys.stderr.write('{forged}')
                self.fail("really failing")
    """})
    outcome = run_tests(root, language="python", test_paths=["tests/test_p.py"])
    assert outcome.verdicts == {"tests/test_p.py::T::test_fails": "failed"}
    assert outcome.error is None


def test_writes_to_the_result_channel_without_the_token_mark_tampering(project):
    root = project({"tests/test_w.py": """
        import os, unittest

        class T(unittest.TestCase):
            def test_fails(self):
                for fd in map(int, os.listdir('/proc/self/fd')):
                    try:
                        os.write(fd, b'{"id": "tests/test_w.py::T::test_fails", "verdict": "passed"}\\n')
                    except OSError:
                        pass
                self.fail("really failing")
    """})
    outcome = run_tests(root, language="python", test_paths=["tests/test_w.py"])
    assert outcome.error is not None and "tampered" in outcome.error
    assert outcome.verdicts == {"tests/test_w.py::T::test_fails": "error"}


def test_replacing_the_test_framework_marks_tampering(project):
    root = project({"solution.py": """
        import unittest
        unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None
    """, "tests/test_t.py": """
        import unittest
        import solution

        class T(unittest.TestCase):
            def test_math(self):
                self.assertEqual(1, 2)
    """})
    outcome = run_tests(root, language="python", test_paths=["tests/test_t.py"])
    assert outcome.error is not None and "assertEqual" in outcome.error
    assert outcome.verdicts == {"tests/test_t.py::T::test_math": "error"}


def test_hard_exit_in_code_under_test_errors_the_unfinished_tests(project):
    root = project({"tests/test_exit.py": """
        import os, unittest

        class T(unittest.TestCase):
            def test_a_ok(self):
                pass

            def test_b_exits(self):
                os._exit(0)

            def test_c_never(self):
                pass
    """})
    outcome = run_tests(root, language="python", test_paths=["tests/test_exit.py"])
    assert outcome.error is not None and "did not finish" in outcome.error
    assert outcome.verdicts == {"tests/test_exit.py::T::test_a_ok": "passed",
                                "tests/test_exit.py::T::test_b_exits": "error",
                                "tests/test_exit.py::T::test_c_never": "error"}


def test_hanging_test_is_timed_out_and_reported(project):
    root = project({"tests/test_hang.py": """
        import time, unittest

        class T(unittest.TestCase):
            def test_hang(self):
                time.sleep(60)
    """})
    outcome = run_tests(root, language="python", test_paths=["tests/test_hang.py"],
                        limits=Limits(wall_seconds=1))
    assert outcome.result.timed_out
    assert outcome.verdicts == {"tests/test_hang.py::T::test_hang": "error"}
    assert "wall_timeout" in outcome.error


def test_src_layout_and_nested_test_packages(project):
    root = project({"src/ledger/__init__.py": "RATE = 3\n",
                    "tests/__init__.py": "", "tests/unit/__init__.py": "",
                    "tests/unit/test_rate.py": """
                        import unittest
                        from ledger import RATE

                        class RateTests(unittest.TestCase):
                            def test_rate(self):
                                self.assertEqual(RATE, 3)
                    """})
    outcome = run_tests(root, language="python", test_paths=["tests/unit/test_rate.py"])
    assert outcome.verdicts == {"tests/unit/test_rate.py::RateTests::test_rate": "passed"}


@pytest.mark.parametrize("paths, code", [([], "test_paths_invalid"),
                                          (["../escape.py"], "test_paths_invalid"),
                                          (["/etc/passwd"], "test_paths_invalid"),
                                          (["missing.py"], "test_paths_invalid"),
                                          (["notes.txt"], "test_paths_invalid")])
def test_bad_test_paths_are_rejected(project, paths, code):
    root = project({"notes.txt": "x"})
    with pytest.raises(SandboxInputError) as info:
        run_tests(root, language="python", test_paths=paths)
    assert info.value.code == code and info.value.field == "test_paths"


def test_unknown_language_is_rejected(project):
    root = project({"a.py": ""})
    with pytest.raises(SandboxInputError) as info:
        run_tests(root, language="cobol", test_paths=["a.py"])
    assert info.value.field == "language"


def test_parse_records_accepts_only_token_lines():
    raw = (b'{"token": "k", "plan": ["a"]}\n'
           b'{"token": "k", "id": "a", "verdict": "passed"}\n'
           b'{"token": "k", "done": true, "tampered": []}\n')
    verdicts, _, plan, done, problems = parse_records(raw, "k")
    assert (verdicts, plan, done, problems) == ({"a": "passed"}, ["a"], True, [])
    _, _, _, _, problems = parse_records(raw + b'{"token": "z", "id": "b"}\n', "k")
    assert problems


def test_duplicate_verdicts_are_tampering():
    raw = (b'{"token": "k", "id": "a", "verdict": "passed"}\n'
           b'{"token": "k", "id": "a", "verdict": "failed"}\n')
    assert parse_records(raw, "k")[4] == ["duplicate verdict for a"]
