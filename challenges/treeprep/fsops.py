"""File operations that never follow a link out of a tree.

Every path is walked one component at a time from a directory file descriptor with
``O_NOFOLLOW``: a symbolic link anywhere on the way fails the open instead of being
followed, so no write, read or unlink can land outside the tree whatever the tree holds.
Files are checked with ``fstat`` after opening (a regular file with one link) and only
then truncated and written, so a hard link to a host file is refused before it changes.
FIFOs and devices are refused without being opened for I/O (``O_NONBLOCK``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from challenges.treeprep import errors as e
from challenges.treeprep.errors import TreeRefused

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK = 1 << 20


@dataclass
class TreeListing:
    """The regular files and directories of a tree, by relative posix path."""

    files: dict[str, int] = field(default_factory=dict)  # path -> permission bits
    dirs: set[str] = field(default_factory=set)


def _refusal(rel: str, info: os.stat_result) -> TreeRefused | None:
    if stat.S_ISDIR(info.st_mode):
        return None
    if stat.S_ISLNK(info.st_mode):
        return TreeRefused(e.TREE_SYMLINK, f"{rel!r} is a symbolic link; a workspace holds regular files only.", rel)
    if not stat.S_ISREG(info.st_mode):
        return TreeRefused(e.TREE_SPECIAL_FILE, f"{rel!r} is a device, FIFO or socket; a workspace holds regular "
                                                "files only.", rel)
    if info.st_nlink != 1:
        return TreeRefused(e.TREE_HARDLINK, f"{rel!r} has {info.st_nlink} hard links; a workspace file has one.", rel)
    return None


def _check(rel: str, info: os.stat_result) -> None:
    if (refusal := _refusal(rel, info)) is not None:
        raise refusal


def _join(base: str, name: str) -> str:
    return f"{base}/{name}" if base else name


def _split(rel: str) -> list[str]:
    parts = rel.split("/")
    if rel.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} is not a plain relative path.", rel)
    return parts


@contextmanager
def open_dir(path: Path | str):
    """A directory file descriptor for ``path`` itself (which must not be a link)."""
    fd = os.open(path, _DIR)
    try:
        yield fd
    finally:
        os.close(fd)


def _open_child_dir(parent_fd: int, name: str, rel: str) -> int:
    try:
        return os.open(name, _DIR, dir_fd=parent_fd)
    except OSError as exc:
        info = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
        _check(rel, info)
        raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} is not a directory.", rel) from exc


def walk(root_fd: int, *, skip_top: Iterable[str] = ()) -> TreeListing:
    """List the tree under ``root_fd``, refusing any link, special file or hard-linked file."""
    listing = TreeListing()
    skip = set(skip_top)
    stack: list[tuple[int, str]] = [(os.dup(root_fd), "")]
    try:
        while stack:
            fd, base = stack.pop()
            try:
                for name in sorted(os.listdir(fd)):
                    if not base and name in skip:
                        continue
                    rel = _join(base, name)
                    info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    _check(rel, info)
                    if stat.S_ISDIR(info.st_mode):
                        listing.dirs.add(rel)
                        stack.append((_open_child_dir(fd, name, rel), rel))
                    else:
                        listing.files[rel] = stat.S_IMODE(info.st_mode)
            finally:
                os.close(fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
    return listing


def _read_fd(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, _CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)


def _open_parent(root_fd: int, rel: str, *, create: bool) -> tuple[int, str] | None:
    """A descriptor of ``rel``'s directory (walked without following), and the last name.

    With ``create`` missing directories are made; without, a missing one gives None.
    """
    parts = _split(rel)
    fd = os.dup(root_fd)
    walked = ""
    try:
        for part in parts[:-1]:
            walked = _join(walked, part)
            if create:
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                except FileExistsError:
                    pass
            try:
                child = _open_child_dir(fd, part, walked)
            except FileNotFoundError:
                os.close(fd)
                return None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1]


def read_file(root_fd: int, rel: str) -> bytes | None:
    """The bytes of regular file ``rel``, None when it does not exist."""
    opened = _open_parent(root_fd, rel, create=False)
    if opened is None:
        return None
    dir_fd, name = opened
    try:
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        _check(rel, info)
        if stat.S_ISDIR(info.st_mode):
            raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} is a directory.", rel)
        fd = os.open(name, _READ, dir_fd=dir_fd)
        try:
            _check(rel, os.fstat(fd))
            return _read_fd(fd)
        finally:
            os.close(fd)
    finally:
        os.close(dir_fd)


def write_file(root_fd: int, rel: str, data: bytes, mode: int = 0o644) -> None:
    """Create or replace regular file ``rel`` with ``data``; never through a link."""
    dir_fd, name = _open_parent(root_fd, rel, create=True)
    try:
        try:
            _check(rel, os.stat(name, dir_fd=dir_fd, follow_symlinks=False))
        except FileNotFoundError:
            pass
        try:
            fd = os.open(name, _WRITE, mode, dir_fd=dir_fd)
        except IsADirectoryError:
            raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} is a directory.", rel) from None
        except OSError as exc:  # ELOOP: a link appeared; ENXIO: a FIFO without a reader
            raise TreeRefused(e.TREE_SPECIAL_FILE, f"{rel!r} cannot be written as a regular file.", rel) from exc
        try:
            info = os.fstat(fd)
            _check(rel, info)
            if stat.S_ISDIR(info.st_mode):
                raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} is a directory.", rel)
            os.ftruncate(fd, 0)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
    finally:
        os.close(dir_fd)


def remove_file(root_fd: int, rel: str) -> bool:
    """Remove the directory entry ``rel`` (a link is removed, never followed); False if absent."""
    opened = _open_parent(root_fd, rel, create=False)
    if opened is None:
        return False
    dir_fd, name = opened
    try:
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        if stat.S_ISDIR(info.st_mode):
            raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} is a directory.", rel)
        os.unlink(name, dir_fd=dir_fd)
        return True
    finally:
        os.close(dir_fd)


def copy_tree(src_fd: int, dst_fd: int, *, skip_top: Iterable[str] = ()) -> TreeListing:
    """Copy the tree under ``src_fd`` into the empty directory ``dst_fd``: regular files and
    directories only, each opened without following, permissions reduced to 0644/0755."""
    listing = walk(src_fd, skip_top=skip_top)
    for rel in sorted(listing.dirs):
        parent, name = _open_parent(dst_fd, rel, create=True)
        try:
            os.mkdir(name, 0o755, dir_fd=parent)
        finally:
            os.close(parent)
    for rel, bits in sorted(listing.files.items()):
        data = read_file(src_fd, rel)
        if data is None:
            raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} disappeared while the tree was copied.", rel)
        write_file(dst_fd, rel, data, 0o755 if bits & 0o111 else 0o644)
    return listing
