"""Clean workspace trees of instances: a worker-owned, read-only cache verified before each use.

The sealed blob is the deterministic workspace archive (``challenges.audit.archive``)
under a neutral top directory. It is unsealed once into a cache entry that evaluations,
the forge and staff tools read and nothing writes:

- the entry's name is an HMAC of the archive digest under the server's secret key, so an
  agent that recomputes the digest of its own tarball still cannot name the directory;
- entries are read-only (directories 0555, files 0444 or 0555) and every evaluation works
  on its own private copy (``challenges.treeprep``), which never follows a link;
- before an entry is used its content digest (every path, kind, executable bit and file
  digest, walked without following links) must equal that of the sealed archive; an entry
  that differs, or holds a link, is discarded with a log record and an audit event, and
  unpacked again from the sealed blob;
- the tarball agents download is the sealed archive itself under the attempt's name
  (``challenges.services.delivery``), never built from the cache.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import secrets
import shutil
import tarfile
import tempfile
from collections import OrderedDict
from pathlib import Path
from threading import Lock

from django.conf import settings
from django.utils.crypto import salted_hmac

from challenges.audit.archive import safe_extract
from challenges.models import ChallengeInstance
from challenges.treeprep import TreeRefused, check_patch_applies
from challenges.treeprep.fsops import open_dir, read_file, walk
from core.crypto import unseal
from core.services import audit_event_record

logger = logging.getLogger(__name__)

ARCHIVE_TOP = "workspace"
TAMPERED_VERB = "workspace_cache.tampered"
_MEMO_SIZE = 64
_memo: OrderedDict[tuple, object] = OrderedDict()
_memo_lock = Lock()


class WorkspaceError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def _memoised(key: tuple, compute):
    with _memo_lock:
        if key in _memo:
            _memo.move_to_end(key)
            return _memo[key]
    value = compute()
    with _memo_lock:
        _memo[key] = value
        while len(_memo) > _MEMO_SIZE:
            _memo.popitem(last=False)
    return value


def sealed_archive(instance: ChallengeInstance) -> bytes:
    """The workspace archive as sealed at generation, checked against its recorded digest."""
    archive = unseal(instance.workspace_sealed)
    if hashlib.sha256(archive).hexdigest() != instance.workspace_sha256:
        raise WorkspaceError("workspace_unavailable", "The sealed workspace does not match its recorded digest.")
    return archive


def _record(kind: str, path: str, executable: bool = False, digest: bytes = b"") -> bytes:
    return b"\0".join([kind.encode(), path.encode("utf-8", "surrogateescape"), b"x" if executable else b"-",
                       digest.hex().encode()])


def _digest(records: list[bytes]) -> str:
    return hashlib.sha256(b"\n".join(sorted(records))).hexdigest()


def _archive_digest(archive: bytes) -> str:
    """The content digest of the sealed archive's members (see ``_tree_digest``)."""
    records = []
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:*") as tar:
        for member in tar.getmembers():
            if member.isdir():
                records.append(_record("d", member.name))
            elif member.isfile():
                data = tar.extractfile(member).read()
                records.append(_record("f", member.name, bool(member.mode & 0o100), hashlib.sha256(data).digest()))
            else:  # a link can never match a verified entry, which holds none
                records.append(_record("l", member.name))
    return _digest(records)


def _tree_digest(entry: Path) -> str | None:
    """The content digest of a cache entry, or None when it is not a plain tree of regular files."""
    try:
        with open_dir(entry) as fd:
            listing = walk(fd)
            records = [_record("d", rel) for rel in listing.dirs]
            for rel, bits in listing.files.items():
                data = read_file(fd, rel)
                records.append(_record("f", rel, bool(bits & 0o100), hashlib.sha256(data or b"").digest()))
    except (TreeRefused, OSError):
        return None
    return _digest(records)


def _cache_root() -> Path:
    root = Path(settings.VAR_DIR) / "cache" / "workspaces"
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o700)
    return root


def _entry_name(workspace_sha256: str) -> str:
    # Keyed by the server's secret: the archive digest alone (which an agent can compute
    # from its own tarball) does not name the entry.
    return salted_hmac("gauntlet.workspace-cache", workspace_sha256, algorithm="sha256").hexdigest()[:40]


def _make_read_only(root: Path, *, top_too: bool) -> None:
    for dirpath, _dirnames, filenames, dirfd in os.fwalk(root, follow_symlinks=False):
        for name in filenames:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dirfd)
            try:
                info = os.fstat(fd)
                os.fchmod(fd, 0o555 if info.st_mode & 0o100 else 0o444)
            finally:
                os.close(fd)
        if top_too or Path(dirpath) != root:
            os.fchmod(dirfd, 0o555)


def _remove(path: Path) -> None:
    """Remove a (possibly read-only, possibly planted) cache entry without following anything in it."""
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
        return
    for _dirpath, _dirnames, _filenames, dirfd in os.fwalk(path, follow_symlinks=False):
        os.fchmod(dirfd, 0o700)
    shutil.rmtree(path)


def _discard(final: Path, instance: ChallengeInstance, found: str | None) -> None:
    aside = final.with_name(f".discard-{secrets.token_hex(8)}")
    try:
        os.rename(final, aside)
    except FileNotFoundError:
        return
    _remove(aside)
    reason = "the cached workspace differs from the sealed archive" if found else \
        "the cached workspace holds a link or special file"
    logger.error("workspace cache entry of instance %s discarded and rebuilt: %s", instance.pk, reason)
    audit_event_record(verb=TAMPERED_VERB, target=instance, actor_label="workspace cache",
                       after={"found_digest": found, "rebuilt": True}, reason=reason)


def _unpack(archive: bytes, final: Path) -> None:
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=final.parent))
    try:
        safe_extract(archive, staging / "x")
        _make_read_only(staging / "x", top_too=False)
        try:
            os.rename(staging / "x", final)  # the top must stay writable until moved (its "..")
        except OSError:
            if not final.is_dir():  # lost a race only if the winner finished
                raise
        else:
            os.chmod(final, 0o555)
    finally:
        _remove(staging)


def workspace_tree(instance: ChallengeInstance) -> Path:
    """The clean workspace (with ``.git``) of ``instance``: read-only, verified against the sealed archive.

    Never write through it; evaluations copy it (``challenges.treeprep``).
    """
    expected = _memoised(("digest", instance.workspace_sha256), lambda: _archive_digest(sealed_archive(instance)))
    final = _cache_root() / _entry_name(instance.workspace_sha256)
    if os.path.lexists(final):
        found = _tree_digest(final)
        if found == expected:
            return final / ARCHIVE_TOP
        _discard(final, instance, found)
    _unpack(sealed_archive(instance), final)
    if _tree_digest(final) != expected:
        raise WorkspaceError("workspace_unavailable", "The workspace could not be unpacked intact.")
    return final / ARCHIVE_TOP


def patch_check_applies(*, instance: ChallengeInstance, patch: str) -> None:
    """Refuse ``patch`` unless it prepares cleanly on a throw-away private copy of the workspace."""
    try:
        check_patch_applies(workspace_tree(instance), patch)
    except TreeRefused as exc:
        raise WorkspaceError(exc.code, exc.message) from exc


def instance_secrets(instance: ChallengeInstance) -> dict:
    """The staff-only part of an instance (oracle, gold patch, canary map, …), unsealed."""
    return json.loads(unseal(instance.secrets_sealed))
