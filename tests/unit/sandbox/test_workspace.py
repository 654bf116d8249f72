"""Packing a run's tree for the sandbox: regular files, directories and symlinks only, capped."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest

from challenges.sandbox import SandboxInputError
from challenges.sandbox.workspace import pack


def _members(fd: int) -> dict[str, tuple[str, int, str]]:
    with os.fdopen(os.dup(fd), "rb") as raw, tarfile.open(fileobj=raw) as tar:
        kinds = {tarfile.REGTYPE: "file", tarfile.DIRTYPE: "dir", tarfile.SYMTYPE: "link"}
        return {m.name: (kinds[m.type], m.mode, m.linkname or (tar.extractfile(m).read().decode() if m.isfile() else ""))
                for m in tar.getmembers()}


def test_files_dirs_modes_and_symlinks_are_packed(tmp_path: Path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("echo\n")
    (tmp_path / "run.sh").chmod(0o755)
    (tmp_path / "link").symlink_to("/etc/passwd")
    (tmp_path / "dirlink").symlink_to(tmp_path / "src")
    fd = pack(tmp_path, limit_mb=1)
    try:
        assert os.get_inheritable(fd) and os.lseek(fd, 0, os.SEEK_CUR) == 0
        members = _members(fd)
    finally:
        os.close(fd)
    assert members["src"][0] == "dir" and members["src/app.py"] == ("file", 0o644, "print(1)\n")
    assert members["run.sh"] == ("file", 0o755, "echo\n")
    # Links are copied as links (they resolve inside the sandbox) and never followed here.
    assert members["link"] == ("link", 0o777, "/etc/passwd")
    assert members["dirlink"][0] == "link" and "dirlink/app.py" not in members


def test_special_files_are_refused(tmp_path: Path):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(SandboxInputError) as info:
        pack(tmp_path, limit_mb=1)
    assert info.value.code == "workdir_invalid" and "pipe" in info.value.message


def test_a_tree_larger_than_the_workspace_is_refused(tmp_path: Path):
    (tmp_path / "big.bin").write_bytes(bytes(2 * 1024 * 1024))
    with pytest.raises(SandboxInputError) as info:
        pack(tmp_path, limit_mb=1)
    assert info.value.code == "workspace_too_large"
