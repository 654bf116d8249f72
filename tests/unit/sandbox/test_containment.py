"""Each escape or exhaustion attempt is contained, and the suite never hangs on one."""

from __future__ import annotations

import os
import signal
import socket
import threading
from pathlib import Path

import pytest

from challenges.sandbox import KILLED_CPU, KILLED_FILE_SIZE, KILLED_WALL, Limits, run
from challenges.sandbox.core import bwrap_argv, default_layout
from challenges.sandbox.env import sandbox_env

FORK_BOMB = """
import os, time
made = 0
try:
    for _ in range(400):
        if os.fork() == 0:
            time.sleep(2)
            os._exit(0)
        made += 1
except OSError as exc:
    print("blocked after", made, exc.errno)
else:
    print("unbounded", made)
"""


def test_plain_command_runs_in_a_copy_of_the_workdir(workdir: Path):
    (workdir / "data.txt").write_text("hello")
    (workdir / "pkg").mkdir()
    (workdir / "pkg" / "run.sh").write_text("echo ran")
    (workdir / "pkg" / "run.sh").chmod(0o755)
    result = run(["sh", "-c", "pwd; cat data.txt; echo; pkg/run.sh; echo out > made.txt; cat made.txt"],
                 workdir=workdir)
    assert (result.returncode, result.stdout) == (0, "/workspace\nhello\nran\nout\n"), result.stderr
    assert not result.timed_out and result.killed_reason is None
    # The workspace is a copy: what the run writes never comes back to the host.
    assert sorted(p.name for p in workdir.iterdir()) == ["data.txt", "pkg"]


def test_infinite_loop_is_stopped_by_the_cpu_limit(workdir: Path):
    result = run(["python3", "-c", "while True: pass"], workdir=workdir,
                 limits=Limits(cpu_seconds=1, wall_seconds=20))
    # Not timed out: the CPU limit fired first. (How much wall time one CPU second takes
    # depends on how busy the machine is, so the wall time itself is not asserted.)
    assert result.killed_reason == KILLED_CPU
    assert result.returncode == -signal.SIGXCPU and not result.timed_out


def test_sleeping_process_is_stopped_by_the_wall_clock(workdir: Path):
    result = run(["sh", "-c", "sleep 60 & sleep 60"], workdir=workdir,
                 limits=Limits(wall_seconds=0.5))
    assert result.timed_out and result.killed_reason == KILLED_WALL
    assert result.wall_seconds < 3


def test_fork_bomb_is_capped_by_max_processes(workdir: Path):
    result = run(["python3", "-c", FORK_BOMB], workdir=workdir,
                 limits=Limits(max_processes=16, wall_seconds=10))
    assert result.stdout.startswith("blocked after"), result.stdout + result.stderr
    assert int(result.stdout.split()[2]) < 16


def test_disk_filling_shell_is_killed_at_the_file_size_limit(workdir: Path):
    result = run(["sh", "-c", "exec head -c 50000000 /dev/zero > big.bin"], workdir=workdir,
                 limits=Limits(file_size_mb=1))
    assert result.killed_reason == KILLED_FILE_SIZE
    assert not (workdir / "big.bin").exists()


def test_disk_filling_python_gets_efbig_at_the_file_size_limit(workdir: Path):
    code = ("import os\ntry:\n    open('big.bin', 'wb').write(bytes(5 * 1024 * 1024))\n"
            "except OSError as exc:\n    print(exc.strerror)\nprint(os.path.getsize('big.bin'))")
    result = run(["python3", "-c", code], workdir=workdir, limits=Limits(file_size_mb=1))
    assert result.stdout.split("\n")[:2] == ["File too large", str(1024 * 1024)], result.stderr


def test_private_tmp_is_size_capped(workdir: Path):
    result = run(["sh", "-c", "head -c 20000000 /dev/zero > /tmp/fill; echo $?"],
                 workdir=workdir, limits=Limits(tmp_size_mb=4, file_size_mb=64))
    assert "No space left on device" in result.stderr


def test_output_flood_is_truncated_and_bounded(workdir: Path):
    result = run(["python3", "-c", "import sys\nwhile True: sys.stdout.write('x' * 4096)"],
                 workdir=workdir, limits=Limits(output_bytes=10000, wall_seconds=1.5))
    assert result.output_truncated
    assert len(result.stdout) == 10000
    assert result.timed_out or result.killed_reason == KILLED_CPU


def test_small_output_is_not_flagged_truncated(workdir: Path):
    result = run(["sh", "-c", "echo hi; echo err >&2"], workdir=workdir)
    assert (result.stdout, result.stderr, result.output_truncated) == ("hi\n", "err\n", False)


def test_no_network_even_to_host_loopback(workdir: Path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted: list[bool] = []

    def accept() -> None:
        server.settimeout(3)
        try:
            server.accept()
            accepted.append(True)
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    code = ("import socket\ns = socket.socket()\ns.settimeout(2)\n"
            f"try:\n    s.connect(('127.0.0.1', {port}))\n    print('connected')\n"
            "except OSError as e:\n    print('refused', e.errno)\n")
    result = run(["python3", "-c", code], workdir=workdir)
    server.close()
    thread.join()
    assert result.stdout.startswith("refused"), result.stdout + result.stderr
    assert not accepted
    dns = run(["python3", "-c", "import socket; socket.getaddrinfo('example.org', 80)"],
              workdir=workdir)
    assert dns.returncode != 0


@pytest.mark.parametrize("host_path", ["/root", "/work", "/home", "/usr/local/bin", "/var",
                                        "/etc/shadow", "/etc/hostname"])
def test_host_paths_outside_the_binds_are_invisible(workdir: Path, host_path: str):
    result = run(["python3", "-c", f"import os; print(os.path.exists({host_path!r}))"],
                 workdir=workdir)
    assert result.stdout == "False\n", result.stderr


def test_the_host_workdir_path_is_not_visible(workdir: Path):
    probe = f"import os; print(os.path.exists({str(workdir)!r}), os.getcwd())"
    result = run(["python3", "-c", probe], workdir=workdir)
    assert result.stdout == "False /workspace\n"


@pytest.mark.parametrize("target", ["/escape.txt", "/usr/escape.txt", "/etc/escape.txt",
                                    "/opt/python/escape.txt", "/usr/bin/escape", "/dev/escape"])
def test_writing_outside_workspace_and_tmp_fails(workdir: Path, target: str):
    result = run(["sh", "-c", f"echo x > {target}"], workdir=workdir)
    assert result.returncode != 0
    assert "Read-only file system" in result.stderr or "Permission denied" in result.stderr
    assert not os.path.exists(target)


def test_identity_inside_is_neutral(workdir: Path):
    result = run(["sh", "-c", "hostname; id -un; id -u; cat /etc/hostname 2>/dev/null; "
                  "python3 -c 'import getpass; print(getpass.getuser())'"], workdir=workdir)
    lines = result.stdout.split()
    assert lines == ["devbox", "dev", "1000", "dev"], result.stdout + result.stderr


def test_only_sandbox_processes_are_visible(workdir: Path):
    result = run(["sh", "-c", "ls /proc | grep -c '^[0-9]'"], workdir=workdir)
    assert int(result.stdout) <= 4


def test_bwrap_command_line_binds_nothing_writable_and_no_platform_path():
    argv = bwrap_argv(default_layout(), Limits(), sandbox_env())
    assert "--unshare-all" in argv and "--die-with-parent" in argv and "--clearenv" in argv
    assert "--bind" not in argv  # no host directory is ever writable inside
    binds = [(argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a in ("--ro-bind", "--ro-bind-try")]
    assert ("/proc/sys", "/proc/sys") in binds
    for source, destination in binds:
        assert not source.startswith(("/root", "/work", "/home", "/tmp", "/var")), source
        assert not destination.startswith(("/root", "/work/", "/home")), destination


def test_mount_table_shows_no_platform_paths(workdir: Path):
    result = run(["cat", "/proc/self/mountinfo"], workdir=workdir)
    assert result.returncode == 0 and "/workspace" in result.stdout
    package_dir = str(Path(__file__).resolve().parents[3] / "challenges")
    for needle in (package_dir, "rootfs", "drivers", "/work/main"):
        assert needle not in result.stdout


def test_synthetic_etc_and_runner_files_are_read_only_copies(workdir: Path):
    result = run(["sh", "-c", "cat /etc/passwd; stat -c '%a' /etc/passwd; echo x >> /etc/hosts"],
                 workdir=workdir)
    assert "dev:x:1000:1000" in result.stdout and "\n444\n" in result.stdout
    assert result.returncode != 0


def test_memory_limit_stops_large_allocations(workdir: Path):
    code = "b = bytearray(600 * 1024 * 1024)\nprint('allocated')"
    result = run(["python3", "-c", code], workdir=workdir, limits=Limits(memory_mb=256))
    assert "MemoryError" in result.stderr and "allocated" not in result.stdout
    ok = run(["python3", "-c", code], workdir=workdir, limits=Limits(memory_mb=1024))
    assert ok.stdout == "allocated\n"


def test_concurrent_runs_are_independent(tmp_path: Path):
    from concurrent.futures import ThreadPoolExecutor

    dirs = []
    for i in range(4):
        path = tmp_path / f"w{i}"
        path.mkdir()
        (path / "n.txt").write_text(str(i))
        dirs.append(path)
    bomb = dirs[0]
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(run, ["python3", "-c", FORK_BOMB], workdir=bomb,
                               limits=Limits(max_processes=8))]
        futures += [pool.submit(run, ["sh", "-c", "sleep 0.2; cat n.txt"], workdir=d)
                    for d in dirs[1:]]
        results = [f.result() for f in futures]
    assert results[0].stdout.startswith("blocked after")
    assert [r.stdout for r in results[1:]] == ["1", "2", "3"]
