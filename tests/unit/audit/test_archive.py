"""Deterministic archives, and extraction that refuses escaping members before writing anything."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import tarfile
from pathlib import Path

import pytest

from challenges.audit import ArchiveError, ArchiveOptions, build_archive, safe_extract
from challenges.audit.archive import DEFAULT_MTIME
from tests.unit.audit.builders import CLEAN_FILES, clean_repo

TOP = "ws-0123456789abcdef"


def members(archive: bytes) -> list[tarfile.TarInfo]:
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        return tar.getmembers()


def write_files(root: Path, files: dict[str, str], mtime: int) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, (mtime, mtime))
    return root


def test_identical_input_gives_identical_bytes(tmp_path):
    a = write_files(tmp_path / "a", CLEAN_FILES, 1_000_000)
    b = write_files(tmp_path / "b", dict(reversed(list(CLEAN_FILES.items()))), 1_900_000_000)
    os.chmod(b / "README.md", 0o600)
    assert build_archive(a, top_dir=TOP) == build_archive(b, top_dir=TOP)
    assert build_archive(a, top_dir=TOP) == build_archive(CLEAN_FILES, top_dir=TOP)


def test_metadata_is_normalised(tmp_path):
    root = write_files(tmp_path / "w", CLEAN_FILES, 1_234_567)
    (root / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(root / "run.sh", 0o775)
    archive = build_archive(root, top_dir=TOP, mtime=DEFAULT_MTIME)
    infos = members(archive)
    names = [m.name for m in infos]
    assert names == sorted(names) and names[0] == TOP
    assert all(n == TOP or n.startswith(TOP + "/") for n in names)
    assert {(m.uid, m.gid, m.uname, m.gname) for m in infos} == {(1000, 1000, "dev", "dev")}
    assert {m.mtime for m in infos} == {DEFAULT_MTIME}
    modes = {m.name.split("/", 1)[-1]: m.mode for m in infos}
    assert modes["run.sh"] == 0o755 and modes["README.md"] == 0o644 and modes["tidewater"] == 0o755
    # gzip header: no FNAME flag, mtime fixed.
    assert archive[3] & 0x08 == 0
    assert struct.unpack("<I", archive[4:8])[0] == DEFAULT_MTIME


def test_ownership_is_an_option():
    infos = members(build_archive({"a.txt": "x"}, top_dir=TOP, options=ArchiveOptions(uid=0, gid=0, uname="", gname="")))
    assert {(m.uid, m.gid, m.uname, m.gname) for m in infos} == {(0, 0, "", "")}


def test_git_is_left_out_unless_asked(tmp_path):
    repo = clean_repo(tmp_path / "ws")
    without = [m.name for m in members(build_archive(repo, top_dir=TOP))]
    with_git = [m.name for m in members(build_archive(repo, top_dir=TOP, include_git=True))]
    assert not any(n.endswith("/.git") or "/.git/" in n for n in without)
    assert f"{TOP}/.git/HEAD" in with_git


def test_git_index_is_stripped_of_host_stat_data_and_still_clean(tmp_path):
    from dulwich.index import build_index_from_tree, read_index_dict
    from dulwich.repo import Repo

    repo_dir = clean_repo(tmp_path / "ws")
    repo = Repo(str(repo_dir))
    head = repo.refs[b"refs/heads/main"]
    build_index_from_tree(str(repo_dir), repo.index_path(), repo.object_store, repo[head].tree)
    repo.close()
    archive = build_archive(repo_dir, top_dir=TOP, include_git=True)
    out = tmp_path / "out"
    safe_extract(archive, out)
    with open(out / TOP / ".git" / "index", "rb") as handle:
        entries = read_index_dict(handle)
    assert entries
    for entry in entries.values():
        assert (entry.uid, entry.gid, entry.ino, entry.dev) == (0, 0, 0, 0)
        assert entry.mtime in (0, (0, 0)) and entry.ctime in (0, (0, 0))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    status = subprocess.run(["git", "status", "--porcelain"], cwd=out / TOP, env=env, capture_output=True,
                            text=True, check=True)
    assert status.stdout == ""


def test_round_trip(tmp_path):
    archive = build_archive(CLEAN_FILES, top_dir=TOP)
    extracted = safe_extract(archive, tmp_path / "out")
    assert f"{TOP}/tidewater/ledger.py" in extracted
    for rel, text in CLEAN_FILES.items():
        assert (tmp_path / "out" / TOP / rel).read_text() == text


def test_source_link_outside_is_refused(tmp_path):
    root = write_files(tmp_path / "w", {"a.txt": "x"}, 1)
    (root / "passwd").symlink_to("/etc/passwd")
    with pytest.raises(ArchiveError) as info:
        build_archive(root, top_dir=TOP)
    assert info.value.code == "link_outside" and info.value.member == "passwd"


def test_source_link_inside_is_kept(tmp_path):
    root = write_files(tmp_path / "w", {"docs/a.txt": "x"}, 1)
    (root / "latest").symlink_to("docs/a.txt")
    infos = {m.name: m for m in members(build_archive(root, top_dir=TOP))}
    assert infos[f"{TOP}/latest"].issym() and infos[f"{TOP}/latest"].linkname == "docs/a.txt"


@pytest.mark.parametrize("top", ["", "a/b", "..", "."])
def test_bad_top_dir_is_refused(top):
    with pytest.raises(ArchiveError) as info:
        build_archive({"a": "x"}, top_dir=top)
    assert info.value.code == "top_dir_invalid"


def hostile(*entries: tuple[str, str, str]) -> bytes:
    """A tar.gz with a harmless first member, then ``(name, kind, link)`` entries."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        good = tarfile.TarInfo("ws/README.md")
        good.size = 3
        tar.addfile(good, io.BytesIO(b"hi\n"))
        for name, kind, link in entries:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = 4
                tar.addfile(info, io.BytesIO(b"evil"))
                continue
            info.type = {"sym": tarfile.SYMTYPE, "hard": tarfile.LNKTYPE, "chr": tarfile.CHRTYPE,
                         "fifo": tarfile.FIFOTYPE, "dir": tarfile.DIRTYPE}[kind]
            info.linkname = link
            tar.addfile(info)
    return buf.getvalue()


@pytest.mark.parametrize("entries, code, member", [
    ((("../evil.txt", "file", ""),), "parent_traversal", "../evil.txt"),
    ((("ws/../../evil.txt", "file", ""),), "parent_traversal", "ws/../../evil.txt"),
    ((("/tmp/evil.txt", "file", ""),), "absolute_path", "/tmp/evil.txt"),
    ((("ws/passwd", "sym", "/etc/passwd"),), "link_outside", "ws/passwd"),
    ((("ws/up", "sym", "../../outside"),), "link_outside", "ws/up"),
    ((("ws/shadow", "hard", "/etc/shadow"),), "link_outside", "ws/shadow"),
    ((("ws/shadow", "hard", "ws/not-there"),), "link_outside", "ws/shadow"),
    ((("ws/sub", "dir", ""), ("ws/in", "sym", "sub"), ("ws/in/x.txt", "file", "")), "path_through_link", "ws/in/x.txt"),
    ((("ws/tty", "chr", ""),), "special_file", "ws/tty"),
    ((("ws/pipe", "fifo", ""),), "special_file", "ws/pipe"),
])
def test_escaping_archives_are_refused_and_nothing_is_extracted(tmp_path, entries, code, member):
    dest = tmp_path / "sandbox" / "dest"
    with pytest.raises(ArchiveError) as info:
        safe_extract(hostile(*entries), dest)
    assert info.value.code == code and info.value.member == member
    assert not dest.exists()
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "sandbox" / "evil.txt").exists()


def test_destination_must_be_empty(tmp_path):
    (tmp_path / "dest").mkdir()
    (tmp_path / "dest" / "keep.txt").write_text("x")
    with pytest.raises(ArchiveError) as info:
        safe_extract(build_archive({"a": "x"}, top_dir=TOP), tmp_path / "dest")
    assert info.value.code == "dest_not_empty"


def test_garbage_is_not_an_archive(tmp_path):
    with pytest.raises(ArchiveError) as info:
        safe_extract(b"definitely not a tarball", tmp_path / "dest")
    assert info.value.code == "not_an_archive"
    assert not (tmp_path / "dest").exists()


def test_limits_are_enforced(tmp_path):
    from challenges.audit import ExtractLimits

    archive = build_archive({f"f{i}.txt": "x" * 100 for i in range(5)}, top_dir=TOP)
    with pytest.raises(ArchiveError) as info:
        safe_extract(archive, tmp_path / "a", limits=ExtractLimits(max_members=3))
    assert info.value.code == "too_many_members"
    with pytest.raises(ArchiveError) as info:
        safe_extract(archive, tmp_path / "b", limits=ExtractLimits(max_total_bytes=250))
    assert info.value.code == "too_large"
