"""Exit-status classification and rlimit values (pure helpers of the executor)."""

from __future__ import annotations

import signal

from challenges.sandbox import KILLED_CPU, KILLED_FILE_SIZE, KILLED_WALL, Limits
from challenges.sandbox.process import classify_exit, rlimit_values


def test_bwrap_signal_statuses_fold_to_negative_signals():
    assert classify_exit(128 + signal.SIGXCPU, False) == (-signal.SIGXCPU, KILLED_CPU)
    assert classify_exit(128 + signal.SIGXFSZ, False) == (-signal.SIGXFSZ, KILLED_FILE_SIZE)
    assert classify_exit(128 + signal.SIGSEGV, False) == (-signal.SIGSEGV, "signal:SIGSEGV")
    assert classify_exit(-signal.SIGKILL, True) == (-signal.SIGKILL, KILLED_WALL)


def test_plain_exit_codes_are_kept():
    assert classify_exit(0, False) == (0, None)
    assert classify_exit(1, False) == (1, None)
    assert classify_exit(3, True) == (3, KILLED_WALL)


def test_rlimits_follow_the_limits():
    limits = Limits(cpu_seconds=3, memory_mb=100, file_size_mb=2, open_files=64)
    values = rlimit_values(limits, apply_nproc=False)
    assert values == {"cpu": (3, 4), "data": (100 << 20, 100 << 20),
                      "fsize": (2 << 20, 2 << 20), "nofile": (64, 64), "core": (0, 0)}
    with_nproc = rlimit_values(Limits(max_processes=10), apply_nproc=True)
    # RLIMIT_NPROC counts the caller's own processes too, so the cap sits above them.
    assert with_nproc["nproc"][0] > 10


def test_limits_reject_non_positive_values():
    import pytest

    from challenges.sandbox import SandboxInputError

    for field, value in (("cpu_seconds", 0), ("memory_mb", -1), ("wall_seconds", 0),
                         ("max_processes", True), ("output_bytes", 1.5)):
        with pytest.raises(SandboxInputError) as info:
            Limits(**{field: value})
        assert info.value.code == "limits_invalid" and info.value.field == field
