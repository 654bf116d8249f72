"""Deterministic workspace archives and refusing extraction.

``build_archive`` turns a directory (or a ``path -> content`` mapping) into a
tar.gz whose bytes depend only on the content: members sorted by path, parent
directories listed explicitly, fixed ownership (``ArchiveOptions.uid/gid`` and
neutral ``uname/gname``), modes 0644/0755 (0755 only for files executable in
the source), one plausible fixed ``mtime`` for every member (or per-member times
from ``mtimes``), and a gzip header with ``mtime`` and no file name.  Nothing of the host (user, group,
inode, timestamps) survives.  With ``include_git`` the repository's ``.git`` is
included; its index is rewritten with the stat fields zeroed (they hold host
uid/gid, inode and timestamps; git re-hashes such entries and reports a clean
tree).

``safe_extract`` validates every member before writing anything: absolute
paths, ``..`` components, links pointing outside the destination, members
reached through a link, devices and FIFOs are refused, and so is the whole
archive (``ArchiveError`` with a stable code and the member name).
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import os
import posixpath
import stat
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dulwich.index import read_index_dict_with_version, write_index_dict
from dulwich.pack import SHA1Writer

from challenges.audit.errors import ArchiveError

# 2024-03-04 09:30:00 UTC: a plausible working-day timestamp, not the epoch.
DEFAULT_MTIME = 1709544600
FILE_MODE = 0o644
EXEC_MODE = 0o755
DIR_MODE = 0o755


@dataclass(frozen=True)
class ArchiveOptions:
    uid: int = 1000
    gid: int = 1000
    uname: str = "dev"
    gname: str = "dev"
    compresslevel: int = 9


@dataclass(frozen=True)
class ExtractLimits:
    max_members: int = 50_000
    max_total_bytes: int = 512 * 1024 * 1024


@dataclass(frozen=True)
class _Entry:
    path: str  # relative, posix
    kind: str  # "file" | "dir" | "symlink"
    data: bytes = b""
    executable: bool = False
    target: str = ""


def _normalise_member(path: str) -> str:
    """Reject names no archive of ours may carry; return the normalised relative path."""
    if not path or "\x00" in path or "\\" in path:
        raise ArchiveError("member_name_invalid", f"invalid member name {path!r}", member=path)
    if path.startswith("/"):
        raise ArchiveError("absolute_path", f"member {path!r} is absolute", member=path)
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError("parent_traversal", f"member {path!r} contains '..'", member=path)
    if not parts:
        raise ArchiveError("member_name_invalid", f"member {path!r} names the archive root", member=path)
    return "/".join(parts)


def _entries_from_dir(root: Path, include_git: bool) -> list[_Entry]:
    if not root.is_dir():
        raise ArchiveError("source_missing", f"{root} is not a directory", field="source")
    entries: list[_Entry] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        if rel_dir == "." and not include_git and ".git" in dirnames:
            dirnames.remove(".git")
        dirnames.sort()
        for name in sorted([*dirnames, *filenames]):
            full = Path(dirpath) / name
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            info = full.lstat()
            if stat.S_ISLNK(info.st_mode):
                target = os.readlink(full)
                if target.startswith("/") or not _inside(posixpath.dirname(rel), target):
                    raise ArchiveError("link_outside", f"symlink {rel} points outside the workspace", member=rel)
                entries.append(_Entry(rel, "symlink", target=target))
                if name in dirnames:
                    dirnames.remove(name)  # never descend through a link
            elif stat.S_ISDIR(info.st_mode):
                entries.append(_Entry(rel, "dir"))
            elif stat.S_ISREG(info.st_mode):
                data = full.read_bytes()
                if rel == ".git/index":
                    data = normalise_git_index(data)
                entries.append(_Entry(rel, "file", data, bool(info.st_mode & 0o111)))
            else:
                raise ArchiveError("special_file", f"{rel} is not a regular file, directory or link", member=rel)
    return entries


def _entries_from_mapping(files: Mapping[str, str | bytes], include_git: bool) -> list[_Entry]:
    entries: dict[str, _Entry] = {}
    for raw_path, content in files.items():
        path = _normalise_member(raw_path)
        if not include_git and (path == ".git" or path.startswith(".git/")):
            continue
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        entries[path] = _Entry(path, "file", data)
        parts = path.split("/")
        for depth in range(1, len(parts)):
            parent = "/".join(parts[:depth])
            if parent in entries and entries[parent].kind != "dir":
                raise ArchiveError("path_conflict", f"{parent} is both a file and a directory", member=parent)
            entries[parent] = _Entry(parent, "dir")
    return list(entries.values())


def _inside(base_dir: str, target: str) -> bool:
    """Whether relative ``target`` resolved from ``base_dir`` stays within the root."""
    joined = posixpath.normpath(posixpath.join(base_dir or ".", target))
    return joined != ".." and not joined.startswith("../") and not joined.startswith("/")


def normalise_git_index(data: bytes) -> bytes:
    """Rewrite a git index with ctime/mtime/dev/ino/uid/gid zeroed (content ids kept)."""
    entries, version, extensions = read_index_dict_with_version(io.BytesIO(data))
    cleaned = {}
    for name, entry in entries.items():
        if dataclasses.is_dataclass(entry) and hasattr(entry, "uid"):
            entry = dataclasses.replace(entry, ctime=0, mtime=0, dev=0, ino=0, uid=0, gid=0)
        cleaned[name] = entry
    out = io.BytesIO()
    writer = SHA1Writer(out)
    write_index_dict(writer, cleaned, version=version, extensions=extensions)
    writer.write_sha()
    return out.getvalue()


def build_archive(
    source: Path | str | Mapping[str, str | bytes],
    *,
    top_dir: str,
    mtime: int = DEFAULT_MTIME,
    include_git: bool = False,
    options: ArchiveOptions = ArchiveOptions(),
    mtimes: Mapping[str, int] | None = None,
) -> bytes:
    """A deterministic tar.gz of ``source`` under ``top_dir/`` (see the module docstring).

    ``top_dir`` should come from ``OpaqueNames.workspace_dir``; it must be one
    plain path segment. ``mtimes`` gives members (by path below ``top_dir``) their own
    modification time, e.g. when the history last changed a file; the rest get ``mtime``.
    """
    if not top_dir or "/" in top_dir or top_dir in (".", "..") or "\\" in top_dir or "\x00" in top_dir:
        raise ArchiveError("top_dir_invalid", f"top_dir must be one path segment, got {top_dir!r}", field="top_dir")
    if mtime < 0 or any(t < 0 for t in (mtimes or {}).values()):
        raise ArchiveError("mtime_invalid", "mtime must be >= 0", field="mtime")
    if isinstance(source, Mapping):
        entries = _entries_from_mapping(source, include_git)
    else:
        entries = _entries_from_dir(Path(source), include_git)
    entries.sort(key=lambda e: e.path)

    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        members = [_Entry("", "dir"), *entries]
        for entry in members:
            name = top_dir if not entry.path else f"{top_dir}/{entry.path}"
            info = tarfile.TarInfo(name)
            info.mtime = (mtimes or {}).get(entry.path, mtime) if entry.path else mtime
            info.uid, info.gid = options.uid, options.gid
            info.uname, info.gname = options.uname, options.gname
            if entry.kind == "dir":
                info.type = tarfile.DIRTYPE
                info.mode = DIR_MODE
                tar.addfile(info)
            elif entry.kind == "symlink":
                info.type = tarfile.SYMTYPE
                info.mode = 0o777
                info.linkname = entry.target
                tar.addfile(info)
            else:
                info.mode = EXEC_MODE if entry.executable else FILE_MODE
                info.size = len(entry.data)
                tar.addfile(info, io.BytesIO(entry.data))
    out = io.BytesIO()
    # filename="" keeps the original name out of the gzip header; mtime is fixed.
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=mtime,
                       compresslevel=options.compresslevel) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def rename_top(archive: bytes, *, top_dir: str, options: ArchiveOptions = ArchiveOptions()) -> bytes:
    """``archive`` (made by ``build_archive``) with its top directory renamed to ``top_dir``.

    Only the names change; every other header field and every byte of content is copied, so
    the result equals ``build_archive`` of the same tree under ``top_dir``. Used to serve the
    sealed archive itself under a per-attempt name, never a tree that sits on disk.
    """
    if not top_dir or "/" in top_dir or top_dir in (".", "..") or "\\" in top_dir or "\x00" in top_dir:
        raise ArchiveError("top_dir_invalid", f"top_dir must be one path segment, got {top_dir!r}", field="top_dir")
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(archive)) as gz:
            raw = gz.read()
        mtime = int.from_bytes(archive[4:8], "little")
        source = tarfile.open(fileobj=io.BytesIO(raw), mode="r:")
    except (OSError, EOFError, tarfile.TarError) as exc:
        raise ArchiveError("not_an_archive", f"not a readable tar.gz archive: {exc}", field="archive") from exc
    out_raw = io.BytesIO()
    with source, tarfile.open(fileobj=out_raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        old_top = None
        for member in source.getmembers():
            top, _, rest = member.name.partition("/")
            old_top = old_top or top
            if top != old_top:
                raise ArchiveError("member_name_invalid", f"member {member.name!r} is outside the top directory",
                                   member=member.name)
            info = tarfile.TarInfo(f"{top_dir}/{rest}" if rest else top_dir)
            for attr in ("mode", "uid", "gid", "size", "mtime", "type", "linkname", "uname", "gname"):
                setattr(info, attr, getattr(member, attr))
            tar.addfile(info, source.extractfile(member) if member.isfile() else None)
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=mtime, compresslevel=options.compresslevel) as gz:
        gz.write(out_raw.getvalue())
    return out.getvalue()


def _check_members(members: list[tarfile.TarInfo], limits: ExtractLimits) -> None:
    if len(members) > limits.max_members:
        raise ArchiveError("too_many_members", f"archive has more than {limits.max_members} members")
    total = 0
    kinds: dict[str, str] = {}
    for member in members:
        name = member.name
        path = _normalise_member(name)
        parents = path.split("/")[:-1]
        for depth in range(1, len(parents) + 1):
            if kinds.get("/".join(parents[:depth])) in ("symlink", "hardlink"):
                raise ArchiveError("path_through_link", f"member {name!r} is reached through a link", member=name)
        if member.isdev() or member.isfifo() or not (member.isfile() or member.isdir() or member.issym()
                                                      or member.islnk()):
            raise ArchiveError("special_file", f"member {name!r} is a device, FIFO or unknown type", member=name)
        if member.issym():
            if member.linkname.startswith("/") or not _inside(posixpath.dirname(path), member.linkname):
                raise ArchiveError("link_outside", f"symlink {name!r} points outside the target", member=name)
            kinds[path] = "symlink"
        elif member.islnk():
            target = member.linkname
            try:
                target_path = _normalise_member(target)
            except ArchiveError as exc:
                raise ArchiveError("link_outside", f"hard link {name!r} points outside the target",
                                   member=name) from exc
            if kinds.get(target_path) != "file":
                raise ArchiveError("link_outside", f"hard link {name!r} does not point to an earlier file",
                                   member=name)
            kinds[path] = "hardlink"
        else:
            kinds[path] = "dir" if member.isdir() else "file"
            total += max(member.size, 0)
            if total > limits.max_total_bytes:
                raise ArchiveError("too_large", f"archive expands beyond {limits.max_total_bytes} bytes",
                                   member=name)


def safe_extract(archive: bytes, dest: Path | str, *, limits: ExtractLimits = ExtractLimits()) -> list[str]:
    """Extract ``archive`` (tar, optionally gzip) into ``dest``; returns the member paths.

    ``dest`` must be missing or empty.  Every member is checked first; on any
    refusal nothing is written (``dest`` is not even created).
    """
    target = Path(dest)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ArchiveError("dest_not_empty", f"{target} exists and is not an empty directory", field="dest")
    try:
        tar = tarfile.open(fileobj=io.BytesIO(archive), mode="r:*")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ArchiveError("not_an_archive", f"not a readable tar archive: {exc}", field="archive") from exc
    with tar:
        try:
            members = tar.getmembers()
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise ArchiveError("not_an_archive", f"corrupt tar archive: {exc}", field="archive") from exc
        _check_members(members, limits)
        target.mkdir(parents=True, exist_ok=True)
        # The "data" filter is a second line of defence; our own checks already ran.
        tar.extractall(target, members=members, filter="data")
    return [_normalise_member(m.name) for m in members]
