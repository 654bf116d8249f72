"""Runs compiled Python probes and writes observations to a record channel (inside the sandbox).

Usage: python -S -B probe_driver.py RECORD_FD PROBE_PATH...   (cwd = project root)

Each probe file is imported as a module (``tests/test_x.py`` -> ``tests.test_x``, project root
and ``src/`` on ``sys.path``) and run with stdlib unittest, so class and module fixtures work
as usual. For every test the channel gets ``start``, the observations its assertions made
(written by ``probe_runtime``) and ``end`` with how the test finished; a file that cannot be
imported gets a ``load`` record; ``done`` closes the run.

This process decides nothing and holds nothing worth stealing: no token, no plan, no
expected value. Code under test may rewrite any of it; the host judges what arrives against
expectations it never sends here, and a test that does not report is a failed test.
"""

import importlib
import os
import sys
import traceback
import unittest

import probe_runtime

_DETAIL = 2000


def _module_name(path):
    stem = path[:-3] if path.endswith(".py") else path
    return ".".join(part for part in stem.split("/") if part and part != ".")


def _flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from _flatten(item)
        else:
            yield item


class _Reporter(unittest.TestResult):
    """Turns unittest's callbacks into start/end records (the worst outcome wins)."""

    _RANK = {"ok": 0, "skipped": 1, "failed": 2, "error": 3}

    def __init__(self, ids):
        super().__init__()
        self.ids = ids
        self.outcome = {}

    def _set(self, test, outcome, detail=""):
        key = self.ids.get(test)
        if key is None:
            return
        old = self.outcome.get(key)
        if old is None or self._RANK[outcome] > self._RANK[old[0]]:
            self.outcome[key] = (outcome, detail[-_DETAIL:])

    def startTest(self, test):
        super().startTest(test)
        key = self.ids.get(test)
        if key is not None:
            probe_runtime.emit({"t": "start", "id": key})

    def stopTest(self, test):
        super().stopTest(test)
        key = self.ids.get(test)
        if key is not None:
            outcome, detail = self.outcome.get(key, ("ok", ""))
            probe_runtime.emit({"t": "end", "id": key, "outcome": outcome, "detail": detail})

    def addFailure(self, test, err):
        self._set(test, "failed", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        self._set(test, "error", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        self._set(test, "skipped", str(reason))

    def addExpectedFailure(self, test, err):
        self._set(test, "failed", "expected failure")

    def addUnexpectedSuccess(self, test):
        self._set(test, "failed", "unexpected success")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set(test, "failed" if failed else "error", self._exc_info_to_string(err, test))


def main():
    fd = int(sys.argv[1])
    os.set_inheritable(fd, False)
    probe_runtime.configure(fd)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    root = os.getcwd()
    sys.path[:0] = [root] + ([os.path.join(root, "src")] if os.path.isdir("src") else [])
    loader = unittest.TestLoader()
    for path in sys.argv[2:]:
        try:
            module = importlib.import_module(_module_name(path))
            tests = list(_flatten(loader.loadTestsFromModule(module)))
        except BaseException:  # noqa: BLE001 - any import failure is reported, then the next file runs
            probe_runtime.emit({"t": "load", "file": path, "detail": traceback.format_exc()[-_DETAIL:]})
            continue
        ids = {}
        for test in tests:
            if isinstance(test, unittest.TestCase) and type(test).__name__ != "_FailedTest":
                ids[test] = f"{path}::{type(test).__name__}::{test._testMethodName}"
            else:
                probe_runtime.emit({"t": "load", "file": path,
                                    "detail": str(getattr(test, "_exception", test))[-_DETAIL:]})
        reporter = _Reporter(ids)
        try:
            unittest.TestSuite(tests).run(reporter)
        except BaseException:  # noqa: BLE001 - the tests that did not report simply fail
            probe_runtime.emit({"t": "load", "file": path, "detail": traceback.format_exc()[-_DETAIL:]})
    probe_runtime.emit({"t": "done"})
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
