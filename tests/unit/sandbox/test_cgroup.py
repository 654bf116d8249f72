"""Cgroup discovery (parsing the kernel's views of v1, v2 and hybrid hosts) and per-run groups."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from challenges.sandbox.cgroup import (
    CgroupMount,
    RunCgroup,
    discover_cgroups,
    host_dir,
    parse_membership,
    parse_mounts,
    reap_stale,
)
from challenges.sandbox.core import default_layout

HYBRID_MOUNTINFO = """\
25 30 0:22 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw
27 25 0:24 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,memory
28 25 0:25 / /sys/fs/cgroup/pids rw,nosuid,nodev,noexec,relatime shared:12 - cgroup cgroup rw,pids
29 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:13 - cgroup cgroup rw,cpu,cpuacct
30 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
"""
HYBRID_CGROUP = """\
12:pids:/system.slice/worker.service
4:memory:/system.slice/worker.service
3:cpu,cpuacct:/system.slice/worker.service
1:name=systemd:/system.slice/worker.service
0::/system.slice/worker.service
"""
UNIFIED_MOUNTINFO = "24 30 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
CONTAINER_MOUNTINFO = "40 35 0:30 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw\n"


def test_hybrid_mounts_are_read_per_controller():
    mounts = parse_mounts(HYBRID_MOUNTINFO)
    assert [(m.mountpoint, m.version, sorted(m.controllers)) for m in mounts] == [
        ("/sys/fs/cgroup/unified", 2, []),
        ("/sys/fs/cgroup/memory", 1, ["memory"]),
        ("/sys/fs/cgroup/pids", 1, ["pids"]),
        ("/sys/fs/cgroup/cpu,cpuacct", 1, ["cpu"]),
    ]


def test_membership_keys_v1_controllers_and_v2():
    paths = parse_membership(HYBRID_CGROUP)
    assert paths["memory"] == paths["pids"] == paths["cpu"] == paths["cpuacct"] == "/system.slice/worker.service"
    assert paths[""] == "/system.slice/worker.service" and paths["name=systemd"] == "/system.slice/worker.service"


def test_group_paths_map_to_directories_under_the_mount():
    unified = parse_mounts(UNIFIED_MOUNTINFO)[0]
    assert host_dir(unified, "/system.slice/a.service") == Path("/sys/fs/cgroup/system.slice/a.service")
    assert host_dir(unified, "/") == Path("/sys/fs/cgroup")
    # A container sees only its own subtree, mounted at its root.
    container = parse_mounts(CONTAINER_MOUNTINFO)[0]
    assert host_dir(container, "/docker/abc/worker") == Path("/sys/fs/cgroup/worker")
    assert host_dir(container, "/docker/other") is None


def test_mountinfo_escapes_are_decoded():
    text = "27 25 0:24 / /mnt/my\\040cgroups rw - cgroup cgroup rw,memory\n"
    assert parse_mounts(text) == [CgroupMount("/mnt/my cgroups", "/", 1, frozenset({"memory"}))]


def test_no_cgroup_filesystem_is_a_clear_reason():
    found = discover_cgroups(mountinfo="30 1 254:0 / / rw - ext4 /dev/vda rw\n", proc_cgroup="0::/\n")
    assert found.roots is None and found.problem == "no cgroup filesystem is mounted"


def _real_unified() -> CgroupMount:
    mounts = [m for m in parse_mounts(Path("/proc/self/mountinfo").read_text()) if m.version == 2]
    assert mounts, "this host mounts a cgroup v2 hierarchy"
    return mounts[0]


def test_the_real_v2_hierarchy_is_used_only_when_it_offers_memory():
    """On this host's own cgroup v2 mount, seen alone: used for runs, or refused with the reason."""
    unified = _real_unified()
    line = f"26 25 0:23 {unified.root} {unified.mountpoint} rw - cgroup2 cgroup2 rw\n"
    found = discover_cgroups(mountinfo=line, proc_cgroup=Path("/proc/self/cgroup").read_text())
    offered = (Path(unified.mountpoint) / "cgroup.controllers").read_text().split()
    if "memory" in offered:  # a pure v2 host: the worker's group or its parent holds the runs
        assert found.roots is not None and found.roots.version == 2, found.problem
    else:  # a hybrid host like CI's: the controllers live in v1 hierarchies
        assert found.roots is None
        assert found.problem == (f"cgroup v2 is mounted at {unified.mountpoint} but offers no memory controller "
                                 "(disabled, or bound to a cgroup v1 hierarchy)")


def test_a_relative_explicit_group_is_refused():
    found = discover_cgroups("sandbox")
    assert found.roots is None and "must be an absolute group path" in found.problem


def test_this_host_offers_a_memory_cgroup_for_runs():
    found = discover_cgroups()
    assert found.roots is not None and {"memory", "pids"} <= found.roots.controllers, found.problem
    assert found.roots == default_layout().cgroups


@pytest.fixture
def roots():
    layout = default_layout()
    assert layout.cgroups is not None
    return layout.cgroups


def test_a_run_group_is_limited_and_removed(roots):
    group = RunCgroup(roots, memory_mb=123, max_processes=17, cpu_percent=50)
    try:
        memory = group.dirs["memory"]
        if roots.version == 1:
            assert (memory / "memory.limit_in_bytes").read_text().strip() == str(123 << 20)
            assert (group.dirs["pids"] / "pids.max").read_text().strip() == "17"
            if "cpu" in group.dirs:
                assert (group.dirs["cpu"] / "cpu.cfs_quota_us").read_text().strip() == "50000"
        else:
            assert (memory / "memory.max").read_text().strip() == str(123 << 20)
            assert (memory / "pids.max").read_text().strip() == "17"
        assert group.members() == [] and group.oom_kills() == 0
        paths = [Path(p).parent for p in group.procs_files]
        assert all(path.is_dir() for path in paths)
    finally:
        group.close()
    assert not any(path.exists() for path in paths)


def test_groups_of_dead_workers_are_reaped_and_live_ones_kept(roots):
    base = Path(roots.base("pids") or roots.base("memory"))
    dead_pid = 2 ** 22 + 12345  # above pid_max: never a live process
    dead, live = base / f"sbx-{dead_pid}-feedface", base / f"sbx-{os.getpid()}-feedface"
    dead_probe = base / f"sbx-probe-{dead_pid}-feedface"
    for path in (dead, live, dead_probe):
        path.mkdir()
    try:
        reap_stale(base)
        assert not dead.exists() and not dead_probe.exists() and live.exists()
    finally:
        for path in (dead, live, dead_probe):
            if path.exists():
                path.rmdir()
