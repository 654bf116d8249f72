"""Enumerate everything an agent can observe in an ``AuditTarget`` as text items.

Surfaces (``Item.surface``):
``file``           content of a working-tree file (``path`` set)
``path``           a working-tree file or directory name (relative path)
``git-meta``       a file of ``.git`` other than objects and the index (config, HEAD,
                   refs, logs, hooks, description, packed-refs, COMMIT_EDITMSG...)
``ref``            a ref name; ``commit-message``, ``tag``, ``identity`` (author,
                   committer, tagger) of every commit/tag object in the store
``history-blob``   every blob in the object store that is not byte-identical to a
                   working-tree file (reachable or not; location names the first
                   commit and path it appears at, or the object id)
``history-path``   every path in any commit's tree that is not in the working tree
``archive-name``, ``url``, ``header``, ``payload``, ``env``, ``text``: the extras.

The repository is read with dulwich only; nothing runs ``git`` or reads the
host's git configuration.
"""

from __future__ import annotations

import json
import os
import re
import stat
import zlib
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from dulwich.errors import ChecksumMismatch, NotGitRepository, ObjectFormatException
from dulwich.objects import Blob, Commit, Tag, Tree
from dulwich.repo import Repo

from challenges.audit.target import AuditTarget
from challenges.audit.text import WordIndex

_REFLOG = re.compile(r"^[0-9a-f]{40,64} [0-9a-f]{40,64} (?P<who>.*?<[^>]*>) \d+ [+-]\d{4}")
MULTILINE_SURFACES = frozenset({"file", "history-blob", "git-meta", "commit-message", "tag", "payload", "text"})
FILE_SURFACES = frozenset({"file", "history-blob"})


@dataclass(eq=False)
class Item:
    surface: str
    location: str
    text: str
    path: str | None = None  # workspace-relative path of file-like items

    @cached_property
    def index(self) -> WordIndex:
        return WordIndex(self.text)

    @cached_property
    def _line_starts(self) -> list[int]:
        return [0] + [i + 1 for i, ch in enumerate(self.text) if ch == "\n"]

    def line_of(self, offset: int) -> int:
        return bisect_right(self._line_starts, offset)

    def where(self, offset: int | None = None) -> str:
        if offset is None or self.surface not in MULTILINE_SURFACES:
            return self.location
        return f"{self.location}:{self.line_of(offset)}"


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    author: str
    committer: str
    message: str


@dataclass
class Surface:
    items: list[Item] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)  # working tree, relative path -> bytes
    symlinks: dict[str, str] = field(default_factory=dict)  # relative path -> link target
    specials: list[str] = field(default_factory=list)  # devices, FIFOs, sockets
    commits: list[CommitInfo] = field(default_factory=list)
    taggers: list[tuple[str, str]] = field(default_factory=list)  # (tag sha, tagger)
    git_config: str | None = None
    git_pointer: str | None = None  # content of a ``.git`` *file*
    hooks: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (location, message)
    has_repo: bool = False
    reflog_identities: list[tuple[str, str]] = field(default_factory=list)  # (location, identity)
    environment: dict[str, str] | None = None
    archive_members: list[dict] = field(default_factory=list)

    def by_surface(self, *names: str) -> list[Item]:
        wanted = set(names)
        return [item for item in self.items if item.surface in wanted]


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _walk_worktree(root: Path, surface: Surface) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        if rel_dir == ".":
            if ".git" in dirnames:
                dirnames.remove(".git")
        dirnames.sort()
        for name in sorted([*dirnames, *filenames]):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            full = Path(dirpath) / name
            if rel == ".git":
                if full.is_file() or full.is_symlink():
                    surface.git_pointer = _decode(full.read_bytes()) if full.is_file() else os.readlink(full)
                    surface.items.append(Item("git-meta", ".git", surface.git_pointer))
                continue
            surface.items.append(Item("path", f"path {rel}", rel, path=rel))
            mode = full.lstat().st_mode
            if stat.S_ISLNK(mode):
                surface.symlinks[rel] = os.readlink(full)
                if name in dirnames:
                    dirnames.remove(name)
            elif stat.S_ISREG(mode):
                data = full.read_bytes()
                surface.files[rel] = data
                surface.items.append(Item("file", rel, _decode(data), path=rel))
            elif not stat.S_ISDIR(mode):
                surface.specials.append(rel)


def _walk_git_meta(git_dir: Path, surface: Surface) -> None:
    for dirpath, dirnames, filenames in os.walk(git_dir):
        rel_dir = Path(dirpath).relative_to(git_dir).as_posix()
        if rel_dir == "." and "objects" in dirnames:
            dirnames.remove("objects")
        dirnames.sort()
        for name in sorted(filenames):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            if rel == "index":
                continue  # binary; its paths are the working tree's
            full = Path(dirpath) / name
            if full.is_symlink() or not full.is_file():
                continue
            text = _decode(full.read_bytes())
            surface.items.append(Item("git-meta", f".git/{rel}", text))
            if rel == "config":
                surface.git_config = text
            if rel.startswith("logs/"):
                for number, line in enumerate(text.splitlines(), start=1):
                    match = _REFLOG.match(line)
                    if match:
                        surface.reflog_identities.append((f".git/{rel}:{number}", match.group("who")))
            if rel.startswith("hooks/") and not rel.endswith(".sample"):
                surface.hooks.append(rel)


GITLINK_MODE = 0o160000
# What a damaged object store raises; the audit records it instead of crashing.
READ_ERRORS = (KeyError, ValueError, OSError, zlib.error, ChecksumMismatch, ObjectFormatException, AssertionError)


def _tree_paths(store, tree_id: bytes, prefix: str, out: dict[str, bytes]) -> None:
    tree = store[tree_id]
    if not isinstance(tree, Tree):
        return
    for entry in tree.items():
        path = prefix + entry.path.decode("utf-8", "replace")
        if stat.S_ISDIR(entry.mode):
            _tree_paths(store, entry.sha, path + "/", out)
        elif entry.mode != GITLINK_MODE:
            out[path] = entry.sha


def _walk_objects(root: Path, surface: Surface) -> None:
    try:
        repo = Repo(str(root))
    except (NotGitRepository, OSError, ValueError) as exc:
        surface.errors.append((".git", f"repository unreadable: {exc}"))
        return
    surface.has_repo = True
    try:
        _read_store(repo, surface)
    except READ_ERRORS as exc:
        surface.errors.append((".git", f"object store unreadable: {exc}"))
    finally:
        repo.close()


def _read_store(repo: Repo, surface: Surface) -> None:
    store = repo.object_store
    for name in sorted(repo.get_refs()):
        surface.items.append(Item("ref", f"ref {name.decode('utf-8', 'replace')}",
                                  name.decode("utf-8", "replace")))
    commits: list[Commit] = []
    tags: list[Tag] = []
    blob_ids: list[bytes] = []
    for sha in sorted(store):
        try:
            obj = store[sha]
        except READ_ERRORS as exc:
            surface.errors.append((f"object {sha.decode()[:12]}", f"object unreadable: {exc}"))
            continue
        if isinstance(obj, Commit):
            commits.append(obj)
        elif isinstance(obj, Tag):
            tags.append(obj)
        elif isinstance(obj, Blob):
            blob_ids.append(obj.id)
    commits.sort(key=lambda c: (c.commit_time, c.id))
    worktree_blobs = {Blob.from_string(data).id for data in surface.files.values()}
    located: dict[bytes, tuple[str, str]] = {}
    history_paths: dict[str, str] = {}
    for commit in commits:
        sha = commit.id.decode()
        author = commit.author.decode("utf-8", "replace")
        committer = commit.committer.decode("utf-8", "replace")
        message = commit.message.decode("utf-8", "replace")
        surface.commits.append(CommitInfo(sha, author, committer, message))
        surface.items.append(Item("commit-message", f"commit {sha[:12]} message", message))
        surface.items.append(Item("identity", f"commit {sha[:12]} author", author))
        if committer != author:
            surface.items.append(Item("identity", f"commit {sha[:12]} committer", committer))
        paths: dict[str, bytes] = {}
        try:
            _tree_paths(store, commit.tree, "", paths)
        except READ_ERRORS as exc:
            surface.errors.append((f"commit {sha[:12]}", f"tree unreadable: {exc}"))
        for path, blob in sorted(paths.items()):
            located.setdefault(blob, (sha, path))
            if path not in surface.files:
                history_paths.setdefault(path, sha)
    for tag in sorted(tags, key=lambda t: t.id):
        sha = tag.id.decode()
        text = tag.name.decode("utf-8", "replace") + "\n" + tag.message.decode("utf-8", "replace")
        surface.items.append(Item("tag", f"tag {sha[:12]}", text))
        if tag.tagger:
            tagger = tag.tagger.decode("utf-8", "replace")
            surface.taggers.append((sha, tagger))
            surface.items.append(Item("identity", f"tag {sha[:12]} tagger", tagger))
    for path, sha in sorted(history_paths.items()):
        surface.items.append(Item("history-path", f"history {sha[:12]}:{path}", path, path=path))
    for blob_id in blob_ids:
        if blob_id in worktree_blobs:
            continue
        text = _decode(store[blob_id].as_raw_string())
        if blob_id in located:
            commit_sha, path = located[blob_id]
            surface.items.append(Item("history-blob", f"{commit_sha[:12]}:{path}", text, path=path))
        else:
            surface.items.append(Item("history-blob", f"object {blob_id.decode()[:12]}", text))


def _extras(target: AuditTarget, surface: Surface) -> None:
    if target.archive_name is not None:
        surface.items.append(Item("archive-name", "archive name", target.archive_name))
    for i, url in enumerate(target.urls):
        surface.items.append(Item("url", f"url[{i}]", url))
    for key in sorted(target.headers):
        surface.items.append(Item("header", f"header {key}", f"{key}: {target.headers[key]}"))
    if target.payload is not None:
        text = json.dumps(target.payload, sort_keys=True, indent=1, ensure_ascii=False, default=str)
        surface.items.append(Item("payload", "payload", text))
    for key in sorted(target.environment or {}):
        surface.items.append(Item("env", f"env {key}", f"{key}={target.environment[key]}"))
    for label in sorted(target.texts):
        surface.items.append(Item("text", f"text {label}", target.texts[label]))
    for member in target.archive_members:
        name = str(member.get("name", ""))
        owner = f"{member.get('uname', '')} {member.get('gname', '')}".strip()
        # Member names are the working tree's paths (already items); only ownership is new.
        surface.items.append(Item("archive-member", f"archive member {name}", owner))


def collect(target: AuditTarget) -> Surface:
    """Every observable text item of ``target`` (deterministic order)."""
    surface = Surface()
    if target.root is not None:
        root = target.root
        _walk_worktree(root, surface)
        git_dir = root / ".git"
        if git_dir.is_dir() and not git_dir.is_symlink():
            _walk_git_meta(git_dir, surface)
            _walk_objects(root, surface)
    _extras(target, surface)
    surface.environment = dict(target.environment) if target.environment is not None else None
    surface.archive_members = [dict(m) for m in target.archive_members]
    return surface
