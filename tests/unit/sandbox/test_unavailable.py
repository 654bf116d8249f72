"""Without a working bubblewrap: refuse, unless the explicit unsafe setting is on (then warn)."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

import pytest

from challenges.sandbox import (
    KILLED_CPU,
    KILLED_WALL,
    HostLayout,
    Limits,
    SandboxUnavailable,
    check_available,
    run,
    run_tests,
)
from challenges.sandbox.cgroup import CgroupRoots
from challenges.sandbox.core import UNSAFE_WARNING, default_layout

NO_BWRAP = HostLayout(bwrap_path=None)


def test_missing_bwrap_is_refused_with_a_clear_message(workdir: Path):
    with pytest.raises(SandboxUnavailable) as info:
        run(["true"], workdir=workdir, layout=NO_BWRAP)
    assert info.value.code == "sandbox_unavailable"
    assert "bubblewrap" in str(info.value) and "unsafe" in str(info.value)


def test_run_tests_refuses_too(project):
    root = project({"tests/test_a.py": "import unittest\n"})
    with pytest.raises(SandboxUnavailable):
        run_tests(root, language="python", test_paths=["tests/test_a.py"], layout=NO_BWRAP)


def test_broken_bwrap_is_refused_with_its_reason(workdir: Path):
    layout = HostLayout(bwrap_path="/bin/false")
    reason = check_available(layout)
    assert reason is not None and "/bin/false" in reason
    with pytest.raises(SandboxUnavailable):
        run(["true"], workdir=workdir, layout=layout)


def test_working_host_is_available():
    assert check_available() is None


def test_unsafe_mode_runs_and_warns_loudly(workdir: Path, caplog):
    with caplog.at_level(logging.WARNING, logger="challenges.sandbox.core"):
        with pytest.warns(RuntimeWarning, match="SANDBOX DISABLED"):
            result = run(["sh", "-c", "pwd; echo hi > f.txt"], workdir=workdir,
                         layout=NO_BWRAP, allow_unsafe=True)
    assert result.returncode == 0
    assert result.stdout == f"{workdir.resolve()}\n"
    assert (workdir / "f.txt").read_text() == "hi\n"
    assert UNSAFE_WARNING in caplog.text


def test_unsafe_mode_still_applies_cpu_and_wall_limits(workdir: Path):
    with pytest.warns(RuntimeWarning):
        cpu = run(["python3", "-c", "while True: pass"], workdir=workdir, layout=NO_BWRAP,
                  allow_unsafe=True, limits=Limits(cpu_seconds=1))
    assert cpu.killed_reason == KILLED_CPU
    with pytest.warns(RuntimeWarning):
        wall = run(["sleep", "30"], workdir=workdir, layout=NO_BWRAP, allow_unsafe=True,
                   limits=Limits(wall_seconds=0.5))
    assert wall.timed_out and wall.killed_reason == KILLED_WALL


def test_unsafe_mode_runs_python_tests(project):
    root = project({
        "calc.py": "def double(x):\n    return 2 * x\n",
        "tests/test_calc.py": """
            import unittest
            from calc import double

            class DoubleTests(unittest.TestCase):
                def test_double(self):
                    self.assertEqual(double(4), 8)
        """,
    })
    with pytest.warns(RuntimeWarning):
        outcome = run_tests(root, language="python", test_paths=["tests/test_calc.py"],
                            layout=NO_BWRAP, allow_unsafe=True)
    assert outcome.verdicts == {"tests/test_calc.py::DoubleTests::test_double": "passed"}
    assert outcome.error is None


def test_unsafe_mode_runs_javascript_tests(project):
    root = project({"lib.js": "module.exports = { inc: (n) => n + 1 };\n",
                    "test/lib.test.js": """
                        const { test } = require('node:test');
                        const assert = require('node:assert');
                        const { inc } = require('../lib');
                        test('increments', () => assert.strictEqual(inc(1), 2));
                        test('wrong', () => assert.strictEqual(inc(1), 3));
                    """})
    with pytest.warns(RuntimeWarning):
        outcome = run_tests(root, language="javascript", test_paths=["test/lib.test.js"],
                            layout=NO_BWRAP, allow_unsafe=True)
    assert outcome.verdicts == {"test/lib.test.js::increments": "passed",
                                "test/lib.test.js::wrong": "failed"}


def _without(controller: str) -> HostLayout:
    base = default_layout()
    assert base.cgroups is not None
    kept = tuple((name, path) for name, path in base.cgroups.bases if name != controller)
    return replace(base, cgroups=CgroupRoots(base.cgroups.version, kept) if kept else None,
                   cgroup_problem=f"{controller} is not delegated here")


def test_no_memory_cgroup_is_refused_but_unsafe_keeps_bubblewrap(workdir: Path):
    layout = _without("memory")
    reason = check_available(layout)
    assert reason is not None and "memory cap cannot be enforced" in reason
    assert "memory is not delegated here" in reason
    with pytest.raises(SandboxUnavailable) as info:
        run(["true"], workdir=workdir, layout=layout)
    assert info.value.code == "sandbox_unavailable"
    with pytest.warns(RuntimeWarning, match="memory cap cannot be enforced"):
        result = run(["sh", "-c", "hostname; id -u"], workdir=workdir, layout=layout, allow_unsafe=True)
    assert result.stdout == "devbox\n1000\n"  # still inside bubblewrap, only the cgroup is gone


def test_root_without_pids_cgroup_is_refused(workdir: Path):
    layout = _without("pids")
    reason = check_available(layout)
    if os.geteuid() != 0:
        assert reason is None  # RLIMIT_NPROC binds non-root callers; no pids cgroup needed
        return
    assert reason is not None and "max_processes" in reason
    with pytest.raises(SandboxUnavailable):
        run(["true"], workdir=workdir, layout=layout)


def test_unusable_cgroup_is_reported_as_unavailable(workdir: Path, tmp_path: Path):
    layout = replace(default_layout(), cgroups=CgroupRoots(1, (("memory", str(tmp_path / "no-such-cgroup")),
                                                               ("pids", str(tmp_path / "no-such-cgroup")))))
    with pytest.raises(SandboxUnavailable) as info:
        run(["true"], workdir=workdir, layout=layout)
    assert "cgroup" in str(info.value) and "no-such-cgroup" in str(info.value)
