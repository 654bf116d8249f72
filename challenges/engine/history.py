"""Synthetic git history written with dulwich, deterministic from the draw.

Nothing here reads the host's git configuration or identity: commits are built
as raw objects with identities from a synthetic pool, refs are written without
reflogs, and the repository config is a fixed text.  The same snapshots, seed
and time base always give the same commit ids.
"""

from __future__ import annotations

import io
import random
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dulwich.index import build_index_from_tree
from dulwich.objects import Blob, Commit, ShaFile, Tree
from dulwich.repo import Repo

FIRST_NAMES = (
    "Mara", "Tomasz", "Ingrid", "Kofi", "Lena", "Rafael", "Aiko", "Dmitri", "Noor", "Elias",
    "Priya", "Jonas", "Sana", "Mateo", "Hanne", "Oluwaseun", "Yusuf", "Clara", "Teodor", "Wen",
)
LAST_NAMES = (
    "Lindqvist", "Okafor", "Brandt", "Moreau", "Haddad", "Kowalczyk", "Tanaka", "Varga",
    "Castellanos", "Nakamura", "Eriksen", "Mensah", "Quintero", "Halvorsen", "Rahman", "Delacroix",
)
TZ_OFFSETS = (0, 3600, 7200, -18000, -14400, 19800, 32400, -25200, 10800)
REPO_CONFIG = (
    "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = {bare}\n"
    "\tlogallrefupdates = true\n"
)
BRANCH = b"refs/heads/main"
FILE_MODE = 0o100644
DIR_MODE = 0o040000


@dataclass(frozen=True)
class Identity:
    name: str
    email: str
    tz_offset: int

    @property
    def raw(self) -> bytes:
        return f"{self.name} <{self.email}>".encode()


@dataclass(frozen=True)
class Snapshot:
    """The full tree after one commit, with its message."""

    message: str
    files: dict[str, str]
    kind: str = "feature"


@dataclass(frozen=True)
class CommitRecord:
    id: str
    message: str
    author: str
    timestamp: int
    kind: str
    changed: tuple[str, ...]


@dataclass
class History:
    commits: list[CommitRecord]
    objects: dict[bytes, ShaFile] = field(repr=False)
    head: bytes = b""
    head_tree: bytes = b""
    trees: list[dict[str, bytes]] = field(default_factory=list, repr=False)

    def iter_blobs(self) -> Iterator[tuple[str, str, str]]:
        """(commit id, path, text) for every file of every commit."""
        for record, tree in zip(self.commits, self.trees, strict=True):
            for path, blob_id in tree.items():
                blob = self.objects[blob_id]
                yield record.id, path, blob.as_raw_string().decode("utf-8", "replace")

    def write(self, path: Path, *, bare: bool = False) -> Path:
        """Write the repository into ``path`` (created; must be empty or missing).

        Non-bare: ``path/.git`` plus a checked-out working tree and index.
        """
        path.mkdir(parents=True, exist_ok=True)
        control = path if bare else path / ".git"
        for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags", "info", "hooks"):
            (control / sub).mkdir(parents=True, exist_ok=True)
        (control / "HEAD").write_text(f"ref: {BRANCH.decode()}\n")
        (control / "config").write_text(REPO_CONFIG.format(bare="true" if bare else "false"))
        (control / "description").write_text("Unnamed repository.\n")
        (control / "info" / "exclude").write_text("")
        repo = Repo(str(path))
        repo.object_store.add_objects([(obj, None) for obj in self.objects.values()])
        (control / "refs" / "heads" / "main").write_text(self.head.decode() + "\n")
        if not bare:
            build_index_from_tree(str(path), repo.index_path(), repo.object_store, self.head_tree)
        repo.close()
        return path

    def bundle(self) -> bytes:
        """A deterministic tar.gz of a bare repository (loose objects, refs, HEAD)."""
        buf = io.BytesIO()
        entries: list[tuple[str, bytes]] = [
            ("HEAD", f"ref: {BRANCH.decode()}\n".encode()),
            ("config", REPO_CONFIG.format(bare="true").encode()),
            ("refs/heads/main", self.head + b"\n"),
        ]
        for sha, obj in sorted(self.objects.items()):
            hexsha = sha.decode()
            entries.append((f"objects/{hexsha[:2]}/{hexsha[2:]}", obj.as_legacy_object()))
        with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
            for name, data in entries:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mtime = 0
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(data))
        raw = buf.getvalue()
        # gzip stores an mtime in its header; zero it for byte-identical bundles.
        return raw[:4] + b"\x00\x00\x00\x00" + raw[8:]


def identity_pool(rng: random.Random, project: str, size: int) -> list[Identity]:
    firsts = rng.sample(FIRST_NAMES, size)
    lasts = rng.sample(LAST_NAMES, size)
    domain = f"{project.replace('_', '')}.dev"
    return [
        Identity(f"{first} {last}", f"{first.lower()}.{last.lower()}@{domain}", rng.choice(TZ_OFFSETS))
        for first, last in zip(firsts, lasts, strict=True)
    ]


def _tree(files: dict[str, bytes], objects: dict[bytes, ShaFile]) -> bytes:
    """Build nested trees for ``files`` (path -> blob id); returns the root tree id."""
    children: dict[str, dict[str, bytes]] = {}
    tree = Tree()
    for path, blob_id in files.items():
        head, sep, rest = path.partition("/")
        if sep:
            children.setdefault(head, {})[rest] = blob_id
        else:
            tree.add(head.encode(), FILE_MODE, blob_id)
    for name, sub in children.items():
        tree.add(name.encode(), DIR_MODE, _tree(sub, objects))
    objects[tree.id] = tree
    return tree.id


def schedule(
    count: int,
    *,
    seed: int,
    time_base: int,
    project: str,
    min_gap_hours: int = 5,
    max_gap_hours: int = 80,
    authors: int = 4,
) -> list[tuple[Identity, int]]:
    """Author and UTC timestamp of each of ``count`` commits (weeks of organic gaps)."""
    rng = random.Random(seed)
    people = identity_pool(rng, project, authors)
    weights = [5, 3, 2, 1, 1, 1][: len(people)]
    out: list[tuple[Identity, int]] = []
    when = time_base
    for index in range(count):
        author = people[0] if index == 0 else rng.choices(people, weights=weights)[0]
        if index:
            when += rng.randint(min_gap_hours * 3600, max_gap_hours * 3600)
        # Commits land in the author's working hours (08:00-19:00 local).
        local_hour = ((when + author.tz_offset) // 3600) % 24
        if not 8 <= local_hour <= 19:
            when += ((9 - local_hour) % 24) * 3600 + rng.randint(0, 3000)
        out.append((author, when))
    return out


def build_history(snapshots: list[Snapshot], plan: list[tuple[Identity, int]]) -> History:
    """Commit ``snapshots`` in order as a linear history on ``main``."""
    objects: dict[bytes, ShaFile] = {}
    records: list[CommitRecord] = []
    trees: list[dict[str, bytes]] = []
    parent: bytes | None = None
    previous: dict[str, bytes] = {}
    tree_id = b""
    for snap, (author, when) in zip(snapshots, plan, strict=True):
        blob_ids: dict[str, bytes] = {}
        for path in sorted(snap.files):
            blob = Blob.from_string(snap.files[path].encode("utf-8"))
            objects[blob.id] = blob
            blob_ids[path] = blob.id
        tree_id = _tree(blob_ids, objects)
        commit = Commit()
        commit.tree = tree_id
        commit.parents = [parent] if parent else []
        commit.author = commit.committer = author.raw
        commit.author_time = commit.commit_time = when
        commit.author_timezone = commit.commit_timezone = author.tz_offset
        commit.message = (snap.message.rstrip("\n") + "\n").encode("utf-8")
        objects[commit.id] = commit
        changed = tuple(sorted(p for p in blob_ids if previous.get(p) != blob_ids[p]))
        changed += tuple(sorted(p for p in previous if p not in blob_ids))
        records.append(CommitRecord(commit.id.decode(), snap.message, author.raw.decode(), when, snap.kind, changed))
        trees.append(blob_ids)
        previous = blob_ids
        parent = commit.id
    return History(records, objects, parent or b"", tree_id, trees)
