"""Class 4: nothing inside the sandbox names the host.

A probe inside reads everything a curious program would (every process's command line and
environment, the mount table, its cgroup, its open files and mappings, error messages of the
tools it can run) and the test checks none of it carries a host path of the platform: its
Python prefix, its repository, its var directory, the host directory of the run's tree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from challenges.sandbox import run, run_tests
from tests.security.sandbox_support import host_paths

PROBE = r'''
import glob, json, os, subprocess, sys

def read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace").replace("\0", " ")
    except OSError as exc:
        return f"<{exc.strerror}>"

seen = {}
for path in sorted(glob.glob("/proc/[0-9]*/cmdline") + glob.glob("/proc/[0-9]*/environ")):
    seen[path] = read(path)
for name in ("mountinfo", "mounts", "cgroup", "maps", "status", "limits"):
    seen["/proc/self/" + name] = read("/proc/self/" + name)
seen["fds"] = " ".join(f"{fd}:{os.readlink('/proc/self/fd/' + fd)}" for fd in ("0", "1", "2"))
seen["exe"] = os.readlink("/proc/self/exe")
seen["env"] = json.dumps(dict(os.environ))
seen["sys"] = json.dumps([sys.prefix, sys.exec_prefix, sys.executable, sys.path])
for argv in (["python3", "-c", "import no_such_module"], ["python3", "-c", "import json; json.loads('{')"],
             ["python3", "no_such_script.py"], ["sh", "-c", "cd /no/such/dir"], ["ls", "/no/such/file"],
             ["node", "-e", "require('no-such-module')"], ["node", "-e", "JSON.parse('{')"]):
    try:
        done = subprocess.run(argv, capture_output=True, text=True)
        seen[" ".join(argv)] = done.stdout + done.stderr
    except OSError as exc:
        seen[" ".join(argv)] = str(exc)
print(json.dumps(seen))
'''


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    (path / "probe.py").write_text(PROBE)
    return path


def _leaks(text: str, needles: set[str]) -> list[str]:
    found = [needle for needle in needles if needle in text]
    if "gauntlet" in text.lower():
        found.append("gauntlet")
    return found


def test_no_host_path_in_anything_a_process_can_read(workdir: Path):
    result = run(["python3", "probe.py"], workdir=workdir)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    # The probe really looked: pid 1 is bubblewrap, and the error messages are there.
    assert "bwrap" in seen["/proc/1/cmdline"] and "No module named" in seen["python3 -c import no_such_module"]
    assert "/workspace" in seen["/proc/self/mountinfo"]
    needles = host_paths(workdir, workdir.parent, workdir.resolve())
    leaks = {where: _leaks(text, needles) for where, text in seen.items()}
    assert {where: found for where, found in leaks.items() if found} == {}
    assert not _leaks(result.stderr, needles)


def test_bubblewrap_command_line_inside_lists_no_binds(workdir: Path):
    result = run(["cat", "/proc/1/cmdline"], workdir=workdir)
    argv = result.stdout.split("\0")
    assert argv[:2] == ["/usr/bin/bwrap", "--args"]
    assert not {"--ro-bind", "--bind", "--setenv", "--file"} & set(argv)


def test_only_the_standard_streams_are_inherited(workdir: Path):
    result = run(["python3", "-c", "import os; print(sorted(int(fd) for fd in os.listdir('/proc/self/fd')))"],
                 workdir=workdir)
    # 3 is the directory listing itself.
    assert json.loads(result.stdout) == [0, 1, 2, 3]


def test_test_runner_errors_name_no_host_path(project_with_failure: Path):
    outcome = run_tests(project_with_failure, language="python", test_paths=["tests/test_calc.py"])
    text = json.dumps({"verdicts": outcome.verdicts, "reasons": outcome.reasons, "error": outcome.error,
                       "stdout": outcome.result.stdout, "stderr": outcome.result.stderr})
    assert outcome.verdicts == {"tests/test_calc.py::CalcTests::test_double": "failed",
                                "tests/test_calc.py::CalcTests::test_import": "error"}
    assert _leaks(text, host_paths(project_with_failure, project_with_failure.parent)) == []


@pytest.fixture
def project_with_failure(workdir: Path) -> Path:
    (workdir / "calc.py").write_text("def double(x):\n    return x + x + 1\n")
    (workdir / "tests").mkdir()
    (workdir / "tests" / "test_calc.py").write_text(
        "import unittest\nfrom calc import double\n\n\nclass CalcTests(unittest.TestCase):\n"
        "    def test_double(self):\n        self.assertEqual(double(2), 4)\n\n"
        "    def test_import(self):\n        import no_such_module  # noqa: F401\n")
    return workdir
