"""Runs stdlib unittest files and reports one verdict per test on a private channel.

Usage: python -S -B unittest_driver.py RESULT_FD TEST_PATH...   (cwd = project root)

The first line of stdin is a per-run secret token; it is read and stdin is replaced by
/dev/null before any project code is imported, so the token never appears in argv, the
environment or the filesystem. Every record written to RESULT_FD is one JSON line carrying the
token; the host ignores output printed by tests and treats any foreign or duplicate record as
tampering. Records: {"plan": [ids]}, {"id", "verdict", "reason"} per test or per unloadable
file, and a final {"done": true, "tampered": [...]} once the framework's own functions have been
checked for replacement. This file is copied nowhere: the sandbox binds it read-only.
"""

import importlib
import json
import os
import sys
import traceback
import unittest

_REASON_LIMIT = 4000


def _module_name(path):
    stem = path[:-3] if path.endswith(".py") else path
    return ".".join(part for part in stem.split("/") if part and part != ".")


def _flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from _flatten(item)
        else:
            yield item


def _short(text):
    return text if len(text) <= _REASON_LIMIT else text[:_REASON_LIMIT] + "\n[...]"


class _Recorder(unittest.TestResult):
    """Keeps the worst outcome per test id (a failing subtest fails its test)."""

    _RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}

    def __init__(self, id_of, emit):
        super().__init__()
        self.id_of = id_of
        self.emit = emit
        self.outcomes = {}
        self.reported = set()
        self.fixture_errors = []

    def stopTest(self, test):
        super().stopTest(test)
        key = self.id_of(test)
        if key is not None and key in self.outcomes and key not in self.reported:
            verdict, reason = self.outcomes[key]
            self.reported.add(key)
            self.emit({"id": key, "verdict": verdict, "reason": _short(reason)})

    def _set(self, test, verdict, reason=""):
        key = self.id_of(test)
        if key is None:
            # setUpClass/setUpModule failures are reported against a placeholder.
            self.fixture_errors.append(f"{test}: {reason}")
            return
        old = self.outcomes.get(key)
        if old is None or self._RANK[verdict] > self._RANK[old[0]]:
            self.outcomes[key] = (verdict, reason)

    def addSuccess(self, test):
        self._set(test, "passed")

    def addFailure(self, test, err):
        self._set(test, "failed", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        self._set(test, "error", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        self._set(test, "skipped", str(reason))

    def addExpectedFailure(self, test, err):
        self._set(test, "passed")

    def addUnexpectedSuccess(self, test):
        self._set(test, "failed", "unexpected success")

    def addSubTest(self, test, subtest, err):
        if err is None:
            return
        verdict = "failed" if issubclass(err[0], test.failureException) else "error"
        self._set(test, verdict, self._exc_info_to_string(err, test))


def _framework_snapshot():
    """The functions a hostile import would replace to fake passing tests."""
    return {
        "TestCase.run": unittest.TestCase.run,
        "TestCase.__call__": unittest.TestCase.__call__,
        "TestCase.assertEqual": unittest.TestCase.assertEqual,
        "TestCase.assertTrue": unittest.TestCase.assertTrue,
        "TestCase.fail": unittest.TestCase.fail,
        "TestCase.failureException": unittest.TestCase.failureException,
        "TestSuite.run": unittest.TestSuite.run,
        "TestResult.addFailure": unittest.TestResult.addFailure,
        "Recorder.addFailure": _Recorder.addFailure,
        "Recorder.addError": _Recorder.addError,
        "Recorder._set": _Recorder._set,
        "Recorder.stopTest": _Recorder.stopTest,
        "AssertionError": AssertionError,
        "json.dumps": json.dumps,
        "os.write": os.write,
    }


def main():
    token = sys.stdin.readline().strip()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    result_fd = int(sys.argv[1])
    os.set_inheritable(result_fd, False)
    paths = sys.argv[2:]
    snapshot = _framework_snapshot()
    write = os.write
    dumps = json.dumps

    def emit(record):
        record["token"] = token
        data = (dumps(record) + "\n").encode("utf-8")
        while data:
            data = data[write(result_fd, data):]

    root = os.getcwd()
    sys.path[:0] = [root] + ([os.path.join(root, "src")] if os.path.isdir("src") else [])
    loader = unittest.TestLoader()
    owners = {}
    suites = []
    for path in paths:
        try:
            module = importlib.import_module(_module_name(path))
            suite = loader.loadTestsFromModule(module)
        except BaseException:  # noqa: BLE001 - any import failure is an error verdict
            emit({"id": path, "verdict": "error", "reason": _short(traceback.format_exc())})
            continue
        tests = list(_flatten(suite))
        for test in tests:
            if isinstance(test, unittest.TestCase) and hasattr(test, "_testMethodName") \
                    and type(test).__name__ != "_FailedTest":
                owners[test] = f"{path}::{type(test).__name__}::{test._testMethodName}"
            else:
                emit({"id": path, "verdict": "error",
                      "reason": _short(str(getattr(test, "_exception", test)))})
        suites.append((path, tests))

    def id_of(test):
        return owners.get(test)

    emit({"plan": sorted(owners.values())})
    for path, tests in suites:
        recorder = _Recorder(id_of, emit)
        suite = unittest.TestSuite(tests)
        try:
            suite.run(recorder)
        except BaseException:  # noqa: BLE001 - a test that kills the suite errors the rest
            emit({"id": path, "verdict": "error", "reason": _short(traceback.format_exc())})
        fixture_errors = recorder.fixture_errors
        for test in tests:
            key = id_of(test)
            if key is None or key in recorder.reported:
                continue
            verdict, reason = recorder.outcomes.get(
                key, ("error", "\n".join(fixture_errors) or "test did not run"))
            recorder.reported.add(key)
            emit({"id": key, "verdict": verdict, "reason": _short(reason)})
    tampered = sorted(name for name, value in _framework_snapshot().items()
                      if snapshot[name] is not value)
    emit({"done": True, "tampered": tampered})
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
