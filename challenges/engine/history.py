"""Synthetic git history written with dulwich, deterministic from the draw.

Nothing here reads the host's git configuration or identity: commits are built
as raw objects with identities drawn for the project (``people``, recorded in the
draw), and the repository's control files (config, description, sample hooks,
reflogs) are what ``git init`` and a developer's own commits leave.  The same
snapshots, seed and time base always give the same commit ids.

History is not a straight line: a snapshot names its parents (a short feature
branch merged with ``--no-ff`` has two), its branch (for the reflog), and a
committer who may differ from the author (a maintainer applying a contributor's
patch, or merging a branch).
"""

from __future__ import annotations

import functools
import io
import json
import random
import tarfile
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dulwich.index import build_index_from_tree
from dulwich.objects import Blob, Commit, ShaFile, Tree
from dulwich.repo import Repo

PEOPLE_FILE = Path(__file__).with_name("data") / "people.json"
HOOKS_DIR = Path(__file__).with_name("data") / "hooks"
# UTC offsets (seconds) people of each locale group commit from.
LOCALE_TZ: dict[str, tuple[int, ...]] = {
    "en_US": (-18000, -21600, -25200, -28800, -14400), "en_GB": (0, 3600), "en_IE": (0, 3600),
    "de_DE": (3600, 7200), "fr_FR": (3600, 7200), "es_ES": (3600, 7200), "es_MX": (-21600, -18000),
    "it_IT": (3600, 7200), "pt_BR": (-10800,), "pt_PT": (0, 3600), "nl_NL": (3600, 7200),
    "sv_SE": (3600, 7200), "da_DK": (3600, 7200), "no_NO": (3600, 7200), "fi_FI": (7200, 10800),
    "en_IN": (19800,), "id_ID": (25200,), "sw": (10800,), "yo_NG": (3600,),
}
DEFAULT_TZ = (0,)
# How a project's people spell their addresses: one house style, and a few who commit
# from a personal forge address instead.
EMAIL_STYLES = ("first.last", "flast", "first", "firstl", "first_last")
NOREPLY_SHARE = 0.2
REPO_CONFIG = (
    "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = {bare}\n"
    "\tlogallrefupdates = true\n"
)
DESCRIPTION = "Unnamed repository; edit this file 'description' to name the repository.\n"
INFO_EXCLUDE = (
    "# git ls-files --others --exclude-from=.git/info/exclude\n"
    "# Lines that start with '#' are comments.\n"
    "# For a project mostly in C, the following would be a good set of\n"
    "# exclude patterns (uncomment them if you want to use them):\n"
    "# *.[oa]\n"
    "# *~\n"
)
MAIN = "main"
BRANCH = b"refs/heads/main"
FILE_MODE = 0o100644
DIR_MODE = 0o040000
ZERO = "0" * 40


@functools.cache
def people_groups() -> dict[str, dict[str, tuple[str, ...]]]:
    """Given names and surnames by locale group (``data/people.json``)."""
    data = json.loads(PEOPLE_FILE.read_text(encoding="utf-8"))
    return {key: {"first": tuple(group["first"]), "last": tuple(group["last"])}
            for key, group in sorted(data["groups"].items())}


def draw_people(rng: random.Random, count: int, *, avoid: Collection[str] = ()) -> tuple[tuple[str, str, str], ...]:
    """``count`` (given name, surname, locale group) triples for one project.

    A project has a home locale most of its people share and a few from elsewhere;
    ``avoid`` holds surnames (lower case) already used by other projects, so no surname
    recurs across projects while the registry of used names has room.
    """
    groups = people_groups()
    keys = sorted(groups)
    home = rng.choice(keys)
    taken = {name.lower() for name in avoid}
    out: list[tuple[str, str, str]] = []
    for _ in range(count):
        for _attempt in range(50):
            key = home if rng.random() < 0.6 else rng.choice(keys)
            first, last = rng.choice(groups[key]["first"]), rng.choice(groups[key]["last"])
            if last.lower() not in taken and first not in {p[0] for p in out}:
                break
        taken.add(last.lower())
        out.append((first, last, key))
    return tuple(out)


@dataclass(frozen=True)
class Identity:
    name: str
    email: str
    tz_offset: int

    @property
    def raw(self) -> bytes:
        return f"{self.name} <{self.email}>".encode()

    @property
    def text(self) -> str:
        return f"{self.name} <{self.email}>"


@dataclass(frozen=True)
class Stamp:
    """Who wrote and who committed one commit, and when (UTC epoch seconds)."""

    author: Identity
    author_time: int
    committer: Identity
    commit_time: int


@dataclass(frozen=True)
class Snapshot:
    """The full tree after one commit, with its message.

    ``parents`` are indices of earlier snapshots (None: the one before); ``branch`` is
    where the commit lands; ``refers_to`` is the index of the commit a revert names
    (``{ref}`` in the message becomes its id).
    """

    message: str
    files: dict[str, str]
    kind: str = "feature"
    parents: tuple[int, ...] | None = None
    branch: str = MAIN
    refers_to: int | None = None


@dataclass(frozen=True)
class CommitRecord:
    id: str
    message: str
    author: str
    timestamp: int
    kind: str
    changed: tuple[str, ...]
    committer: str = ""
    commit_time: int = 0
    parents: tuple[str, ...] = ()
    branch: str = MAIN


@dataclass
class History:
    commits: list[CommitRecord]
    objects: dict[bytes, ShaFile] = field(repr=False)
    head: bytes = b""
    head_tree: bytes = b""
    trees: list[dict[str, bytes]] = field(default_factory=list, repr=False)
    people: tuple[Identity, ...] = ()
    # The repository is this person's own clone: their identity is the local one and
    # every reflog entry is theirs.
    owner: Identity | None = None
    reflog_head: tuple[str, ...] = ()
    reflog_main: tuple[str, ...] = ()
    # When each working-tree file was last written by the owner's checkout.
    file_times: dict[str, int] = field(default_factory=dict)
    final_time: int = 0

    def iter_blobs(self) -> Iterator[tuple[str, str, str]]:
        """(commit id, path, text) for every file of every commit."""
        for record, tree in zip(self.commits, self.trees, strict=True):
            for path, blob_id in tree.items():
                blob = self.objects[blob_id]
                yield record.id, path, blob.as_raw_string().decode("utf-8", "replace")

    def identities(self) -> frozenset[str]:
        """Every ``Name <email>`` the repository holds (authors, committers, reflog, config)."""
        found = {c.author for c in self.commits} | {c.committer for c in self.commits if c.committer}
        found |= {p.text for p in self.people}
        if self.owner is not None:
            found.add(self.owner.text)
        return frozenset(found)

    def write(self, path: Path, *, bare: bool = False) -> Path:
        """Write the repository into ``path`` (created; must be empty or missing).

        Non-bare: ``path/.git`` plus a checked-out working tree and index, the sample
        hooks ``git init`` installs, and the reflogs ``logallrefupdates`` keeps.
        """
        path.mkdir(parents=True, exist_ok=True)
        control = path if bare else path / ".git"
        for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags", "info", "hooks"):
            (control / sub).mkdir(parents=True, exist_ok=True)
        (control / "HEAD").write_text(f"ref: {BRANCH.decode()}\n")
        (control / "config").write_text(REPO_CONFIG.format(bare="true" if bare else "false"))
        (control / "description").write_text(DESCRIPTION)
        (control / "info" / "exclude").write_text(INFO_EXCLUDE)
        for sample in sorted(HOOKS_DIR.glob("*.sample")):
            target = control / "hooks" / sample.name
            target.write_bytes(sample.read_bytes())
            target.chmod(0o755)
        repo = Repo(str(path))
        repo.object_store.add_objects([(obj, None) for obj in self.objects.values()])
        (control / "refs" / "heads" / "main").write_text(self.head.decode() + "\n")
        if not bare:
            build_index_from_tree(str(path), repo.index_path(), repo.object_store, self.head_tree)
            if self.reflog_head:
                (control / "logs" / "refs" / "heads").mkdir(parents=True, exist_ok=True)
                (control / "logs" / "HEAD").write_text("".join(self.reflog_head))
                (control / "logs" / "refs" / "heads" / "main").write_text("".join(self.reflog_main))
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


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _email(first: str, last: str, style: str, domain: str) -> str:
    f, last_ = _ascii(first), _ascii(last).replace(" ", "")
    local = {"first.last": f"{f}.{last_}", "flast": f"{f[0]}{last_}", "first": f, "firstl": f"{f}{last_[0]}",
             "first_last": f"{f}_{last_}"}[style]
    return f"{local}@{domain}"


def project_domain(project: str) -> str:
    return f"{project.replace('_', '')}.dev"


def identity_pool(rng: random.Random, project: str, size: int,
                  people: Sequence[Sequence[str]] = ()) -> list[Identity]:
    """The project's contributors: ``people`` (drawn and recorded), else ``size`` drawn here."""
    chosen = [tuple(p) for p in people] or list(draw_people(rng, size))
    domain = project_domain(project)
    style = rng.choice(EMAIL_STYLES)
    out = []
    for index, (first, last, locale) in enumerate(chosen):
        tz = rng.choice(LOCALE_TZ.get(locale, DEFAULT_TZ))
        if index and rng.random() < NOREPLY_SHARE:
            handle = _ascii(first)[: rng.randint(3, 6)] + _ascii(last).replace(" ", "")[: rng.randint(2, 5)]
            email = f"{rng.randint(1_000_000, 99_999_999)}+{handle}@users.noreply.github.com"
        else:
            email = _email(first, last, style, domain)
        out.append(Identity(f"{first} {last}", email, tz))
    return out


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


# Share of a contributor's commits a maintainer applies (author != committer).
APPLIED_SHARE = 0.2


def schedule(
    count: int,
    *,
    seed: int,
    time_base: int,
    project: str,
    min_gap_hours: int = 5,
    max_gap_hours: int = 80,
    authors: int = 4,
    people: Sequence[Sequence[str]] = (),
    merges: Collection[int] = (),
    follow: dict[int, int] | None = None,
) -> list[Stamp]:
    """Author, committer and times of each of ``count`` commits (weeks of organic gaps).

    The first person is the maintainer: they merge (``merges``: indices of merge
    commits) and now and then apply a contributor's commit, which then carries the
    maintainer as committer and a later commit time. ``follow`` maps a commit index to
    an earlier one whose author writes it too (the commits of one short branch).
    """
    rng = random.Random(seed)
    team = identity_pool(rng, project, authors, people)
    weights = [5, 3, 2, 1, 1, 1, 1][: len(team)] + [1] * max(0, len(team) - 7)
    maintainer = team[0]
    out: list[Stamp] = []
    when = time_base
    for index in range(count):
        author = team[0] if index == 0 or index in merges else rng.choices(team, weights=weights)[0]
        if follow and index in follow:
            author = out[follow[index]].author
        if index:
            when += rng.randint(min_gap_hours * 3600, max_gap_hours * 3600)
        # Commits land in the author's working hours (08:00-19:00 local).
        local_hour = ((when + author.tz_offset) // 3600) % 24
        if not 8 <= local_hour <= 19:
            when += ((9 - local_hour) % 24) * 3600 + rng.randint(0, 3000)
        committer, commit_time = author, when
        if author != maintainer and rng.random() < APPLIED_SHARE:
            committer, commit_time = maintainer, when + rng.randint(600, 3 * 3600)
        out.append(Stamp(author, when, committer, commit_time))
    return out


def _tz(offset: int) -> str:
    sign = "-" if offset < 0 else "+"
    minutes = abs(offset) // 60
    return f"{sign}{minutes // 60:02d}{minutes % 60:02d}"


def _subject(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else ""


def build_history(snapshots: list[Snapshot], plan: Sequence[Stamp | tuple[Identity, int]],
                  *, seed: int = 0) -> History:
    """Commit ``snapshots`` in order; parents as each snapshot names them (default: linear)."""
    objects: dict[bytes, ShaFile] = {}
    records: list[CommitRecord] = []
    trees: list[dict[str, bytes]] = []
    ids: list[bytes] = []
    stamps = [p if isinstance(p, Stamp) else Stamp(p[0], p[1], p[0], p[1]) for p in plan]
    tree_id = b""
    for index, (snap, stamp) in enumerate(zip(snapshots, stamps, strict=True)):
        blob_ids: dict[str, bytes] = {}
        for path in sorted(snap.files):
            blob = Blob.from_string(snap.files[path].encode("utf-8"))
            objects[blob.id] = blob
            blob_ids[path] = blob.id
        tree_id = _tree(blob_ids, objects)
        parents = snap.parents if snap.parents is not None else ((index - 1,) if index else ())
        message = snap.message
        if snap.refers_to is not None:
            message = message.replace("{ref}", ids[snap.refers_to].decode())
        commit = Commit()
        commit.tree = tree_id
        commit.parents = [ids[p] for p in parents]
        commit.author = stamp.author.raw
        commit.committer = stamp.committer.raw
        commit.author_time, commit.commit_time = stamp.author_time, stamp.commit_time
        commit.author_timezone = stamp.author.tz_offset
        commit.commit_timezone = stamp.committer.tz_offset
        commit.message = (message.rstrip("\n") + "\n").encode("utf-8")
        objects[commit.id] = commit
        previous = trees[parents[0]] if parents else {}
        changed = tuple(sorted(p for p in blob_ids if previous.get(p) != blob_ids[p]))
        changed += tuple(sorted(p for p in previous if p not in blob_ids))
        records.append(CommitRecord(commit.id.decode(), message, stamp.author.text, stamp.author_time, snap.kind,
                                    changed, stamp.committer.text, stamp.commit_time,
                                    tuple(ids[p].decode() for p in parents), snap.branch))
        trees.append(blob_ids)
        ids.append(commit.id)
    head_index = max((i for i, s in enumerate(snapshots) if s.branch == MAIN), default=len(snapshots) - 1)
    people = tuple(dict.fromkeys([s.author for s in stamps] + [s.committer for s in stamps]))
    owner = stamps[0].author if stamps else None
    history = History(records, objects, ids[head_index] if ids else b"", _tree(trees[head_index], objects)
                      if trees else tree_id, trees, people, owner)
    if owner is not None:
        _reflogs(history, snapshots, stamps, random.Random(seed))
    return history


def _reflogs(history: History, snapshots: list[Snapshot], stamps: list[Stamp], rng: random.Random) -> None:
    """The owner's reflogs: their own commits, merges and branch switches, and fast-forward
    pulls of everyone else's work, with the working-tree file times those updates leave."""
    owner = history.owner
    assert owner is not None
    who = owner.text
    head_log: list[str] = []
    main_log: list[str] = []
    file_times: dict[str, int] = {}
    main_tip = ZERO
    current = MAIN
    pending: int | None = None  # last commit of others not pulled yet
    synced = -1  # index of the last main commit the working tree holds

    def entry(old: str, new: str, when: int, message: str) -> str:
        return f"{old} {new} {who} {when} {_tz(owner.tz_offset)}\t{message}\n"

    def touch(index: int, when: int) -> None:
        for path in history.commits[index].changed:
            file_times[path] = when

    def pull(before: int) -> None:
        nonlocal main_tip, pending, synced
        if pending is None:
            return
        start = max(stamps[pending].commit_time, stamps[pending].author_time)
        when = min(start + rng.randint(300, 5400), before - 60) if before else start + rng.randint(300, 5400)
        when = max(when, start)
        new = history.commits[pending].id
        line = entry(main_tip, new, when, "pull: Fast-forward")
        head_log.append(line)
        main_log.append(line)
        # A fast-forward rewrites every file changed since the last tip.
        for index in range(synced + 1, pending + 1):
            if history.commits[index].branch == MAIN:
                touch(index, when)
        synced = pending
        main_tip, pending = new, None

    for index, (snap, stamp) in enumerate(zip(snapshots, stamps, strict=True)):
        record = history.commits[index]
        local = stamp.committer == owner
        subject = _subject(record.message)
        if not local:
            if snap.branch == MAIN:
                pending = index
            continue
        pull(stamp.commit_time)
        if snap.branch != current:
            head_log.append(entry(main_tip if current == MAIN else history.commits[index - 1].id,
                                  main_tip if current == MAIN else history.commits[index - 1].id,
                                  stamp.commit_time - rng.randint(120, 1800),
                                  f"checkout: moving from {current} to {snap.branch}"))
            current = snap.branch
        old = main_tip if snap.branch == MAIN else (history.commits[index - 1].id
                                                     if snapshots[index - 1].branch == snap.branch else main_tip)
        if len(snap.parents or ()) > 1:
            theirs = snapshots[snap.parents[1]].branch
            if stamps[snap.parents[1]].committer != owner:
                theirs = f"origin/{theirs}"
            text = f"merge {theirs}: Merge made by the 'ort' strategy."
        elif stamp.author != owner:
            text = f"am: {subject}"
        elif index == 0:
            text = f"commit (initial): {subject}"
        else:
            text = f"commit: {subject}"
        line = entry(old if index else ZERO, record.id, stamp.commit_time, text)
        head_log.append(line)
        touch(index, stamp.commit_time)
        if snap.branch == MAIN:
            main_log.append(line)
            main_tip = record.id
            synced = index
        elif index + 1 >= len(snapshots) or snapshots[index + 1].branch != snap.branch:
            # Back to main before the merge that closes the branch.
            head_log.append(entry(record.id, main_tip, stamp.commit_time + rng.randint(60, 900),
                                  f"checkout: moving from {snap.branch} to {MAIN}"))
            current = MAIN
    pull(0)
    final = max([int(line.split("\t")[0].split()[-2]) for line in head_log] or [stamps[-1].commit_time])
    history.reflog_head, history.reflog_main = tuple(head_log), tuple(main_log)
    head_files = set(history.trees[-1]) if history.trees else set()
    for path in head_files:
        file_times.setdefault(path, final)
    history.file_times = {p: t for p, t in sorted(file_times.items()) if p in head_files}
    history.final_time = final + rng.randint(120, 3600)


def member_times(history: History) -> dict[str, int]:
    """Modification time of each working-tree file and directory after the owner's last
    pull or commit (a directory: its newest file). Everything else, ``.git`` included,
    was last written when the workspace was packed (``archive_mtime``)."""
    times = dict(history.file_times)
    for path, when in history.file_times.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            parent = "/".join(parts[:depth])
            times[parent] = max(times.get(parent, 0), when)
    return times


def archive_mtime(history: History) -> int:
    """When the workspace was packed: after every reflog entry of its owner."""
    if history.final_time:
        return history.final_time
    return max((max(c.timestamp, c.commit_time) for c in history.commits), default=0) + 3600
