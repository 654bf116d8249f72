"""Class 4: code under test is not host root, and cannot touch host-global kernel knobs.

Each test runs real code in the real sandbox and checks the outcome from the host's side too.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import pytest

from challenges.sandbox import Limits, run
from tests.security.sandbox_support import HostView, expected_host_uid

OVERFLOW_UID = 65534


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def test_the_process_and_its_files_belong_to_an_unprivileged_host_uid(workdir: Path):
    token = secrets.token_hex(8)
    view = HostView(token)
    watcher = view.watch("marker")
    code = f"open('marker', 'w').write('x')\nimport time\ntime.sleep(30)  # {token}"
    result = run(["python3", "-c", code], workdir=workdir, limits=Limits(wall_seconds=25))
    watcher.join()
    assert view.done.is_set(), f"the sandboxed process was never seen from the host: {result}"
    uid, gid = expected_host_uid()
    assert uid != 0 and gid != 0
    # Real, effective, saved and filesystem ids: no way back to root.
    assert view.field("Uid") == [str(uid)] * 4
    assert view.field("Gid") == [str(gid)] * 4
    assert view.field("Groups") == []
    for caps in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(view.field(caps)[0], 16) == 0, caps
    assert view.field("NoNewPrivs") == ["1"]
    # The file it created in its workspace is owned on the host by that uid, not by root.
    assert view.owner == (uid, gid)
    # Read from the host, the sandbox's uid map points at the unprivileged uid.
    assert view.uid_map.split() == ["1000", str(uid), "1"]


def test_host_root_is_unmapped_inside(workdir: Path):
    """Files owned by host root show as the overflow uid: the sandbox user has no claim on them."""
    result = run(["stat", "-c", "%u %g", "/proc/sys/kernel/core_pattern", "/usr/bin/env"], workdir=workdir)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(OVERFLOW_UID)] * 4


# The value each knob is set to inside: always different from the host's, so a write that got
# through would show; restored afterwards if it did.
KNOBS = ("kernel/core_pattern", "kernel/panic", "kernel/hostname", "vm/swappiness", "vm/overcommit_memory",
         "fs/protected_symlinks", "kernel/randomize_va_space", "user/max_user_namespaces")


def _other_value(current: str) -> str:
    if current.isdigit():
        return "2" if current != "2" else "1"
    return current + "-sbx"


def test_host_sysctls_cannot_be_written(workdir: Path):
    root = Path("/proc/sys")
    before = {knob: (root / knob).read_text().strip() for knob in KNOBS if (root / knob).exists()}
    attempts = {knob: _other_value(value) for knob, value in before.items()}
    code = ("import errno, json, sys\nout = {}\n"
            "for knob, value in json.loads(sys.argv[1]).items():\n"
            "    try:\n"
            "        with open('/proc/sys/' + knob, 'w') as handle:\n"
            "            handle.write(value)\n"
            "        out[knob] = 'written'\n"
            "    except OSError as exc:\n"
            "        out[knob] = errno.errorcode[exc.errno]\n"
            "out['sysrq-trigger'] = __import__('os').access('/proc/sysrq-trigger', __import__('os').W_OK)\n"
            "print(json.dumps(out))")
    try:
        result = run(["python3", "-c", code, json.dumps(attempts)], workdir=workdir)
        after = {knob: (root / knob).read_text().strip() for knob in before}
    finally:
        for knob, value in before.items():
            if (root / knob).read_text().strip() != value and os.geteuid() == 0:
                (root / knob).write_text(value)
    outcome = json.loads(result.stdout)
    assert {knob: outcome[knob] for knob in before} == {knob: "EROFS" for knob in before}
    assert outcome["sysrq-trigger"] is False
    assert after == before
    assert "kernel/core_pattern" in before and "kernel/panic" in before and "vm/swappiness" in before


def test_sysfs_and_cgroupfs_are_not_mounted(workdir: Path):
    result = run(["sh", "-c", "ls /sys 2>&1; grep -cE ' - (sysfs|cgroup2?|debugfs|securityfs) ' /proc/self/mountinfo"],
                 workdir=workdir)
    assert result.stdout.split("\n")[-2] == "0", result.stdout
    assert "No such file or directory" in result.stdout


def test_nested_user_namespaces_are_refused(workdir: Path):
    """A fresh user namespace would hand the code a full set of capabilities to probe the kernel with."""
    code = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "print('created' if libc.unshare(0x10000000) == 0 else os.strerror(ctypes.get_errno()))")
    result = run(["python3", "-c", code], workdir=workdir)
    assert result.stdout.strip() in ("No space left on device", "Operation not permitted"), result.stdout
