"""Test fixtures for the audit: git repositories written with dulwich, byte by byte.

Refs and HEAD are written as files (no reflogs, no identity lookup), so nothing
of the host reaches a fixture unless a test plants it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dulwich.objects import Blob, Commit, Tag, Tree
from dulwich.repo import Repo

MARA = "Mara Lindqvist <mara.lindqvist@tidewater.dev>"
KOFI = "Kofi Okafor <kofi.okafor@tidewater.dev>"
POOL = frozenset({MARA, KOFI})
BASE_TIME = 1_700_000_000
CONFIG = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"


@dataclass
class CommitSpec:
    files: dict[str, str]
    message: str
    author: str = MARA
    committer: str | None = None


@dataclass
class RepoSpec:
    commits: list[CommitSpec]
    tags: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # name -> (commit index, message, tagger)
    refs: dict[str, int] = field(default_factory=dict)  # extra ref -> commit index
    notes: dict[int, str] = field(default_factory=dict)  # commit index -> note text
    loose_blobs: tuple[str, ...] = ()  # unreachable blobs
    config: str = CONFIG
    worktree: dict[str, str] | None = None  # defaults to the last commit's files


def _tree(files: dict[str, bytes], store: dict[bytes, object]) -> bytes:
    tree = Tree()
    children: dict[str, dict[str, bytes]] = {}
    for path, blob_id in files.items():
        head, sep, rest = path.partition("/")
        if sep:
            children.setdefault(head, {})[rest] = blob_id
        else:
            tree.add(head.encode(), 0o100644, blob_id)
    for name, sub in children.items():
        tree.add(name.encode(), 0o040000, _tree(sub, store))
    store[tree.id] = tree
    return tree.id


def _blob_tree(files: dict[str, str], store: dict[bytes, object]) -> bytes:
    ids = {}
    for path, text in files.items():
        blob = Blob.from_string(text.encode("utf-8"))
        store[blob.id] = blob
        ids[path] = blob.id
    return _tree(ids, store)


def write_repo(root: Path, spec: RepoSpec) -> Path:
    git = root / ".git"
    for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags", "refs/notes", "info"):
        (git / sub).mkdir(parents=True, exist_ok=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "config").write_text(spec.config)
    store: dict[bytes, object] = {}
    ids: list[bytes] = []
    parent = None
    for index, c in enumerate(spec.commits):
        commit = Commit()
        commit.tree = _blob_tree(c.files, store)
        commit.parents = [parent] if parent else []
        commit.author = c.author.encode()
        commit.committer = (c.committer or c.author).encode()
        commit.author_time = commit.commit_time = BASE_TIME + index * 86_400
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = (c.message.rstrip("\n") + "\n").encode()
        store[commit.id] = commit
        ids.append(commit.id)
        parent = commit.id
    refs: dict[str, bytes] = {"refs/heads/main": ids[-1]}
    for name, (index, message, tagger) in spec.tags.items():
        tag = Tag()
        tag.name = name.encode()
        tag.object = (Commit, ids[index])
        tag.tagger = tagger.encode()
        tag.tag_time = BASE_TIME + index * 86_400
        tag.tag_timezone = 0
        tag.message = (message + "\n").encode()
        store[tag.id] = tag
        refs[f"refs/tags/{name}"] = tag.id
    for name, index in spec.refs.items():
        refs[name] = ids[index]
    if spec.notes:
        note_files = {ids[i].decode(): text for i, text in spec.notes.items()}
        note = Commit()
        note.tree = _blob_tree(note_files, store)
        note.parents = []
        note.author = note.committer = MARA.encode()
        note.author_time = note.commit_time = BASE_TIME
        note.author_timezone = note.commit_timezone = 0
        note.message = b"Notes added by 'git notes add'\n"
        store[note.id] = note
        refs["refs/notes/commits"] = note.id
    for text in spec.loose_blobs:
        blob = Blob.from_string(text.encode("utf-8"))
        store[blob.id] = blob
    repo = Repo(str(root))
    repo.object_store.add_objects([(obj, None) for obj in store.values()])
    repo.close()
    for name, sha in refs.items():
        path = git / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sha.decode() + "\n")
    for path, text in (spec.worktree if spec.worktree is not None else spec.commits[-1].files).items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return root


# A realistic small codebase: a harbour berth booking service.  It deliberately
# holds words that naive scanners trip on: an injected clock, "Bug reports",
# HACKING.md, an XXX-XXXX phone mask, "benchmark" in docs, "timeout", a dated
# changelog, a .gitignore listing virtualenv dirs.
CLEAN_FILES: dict[str, str] = {
    "README.md": (
        "# tidewater\n\nBerth bookings for small harbours: vessels reserve berths by the night,\n"
        "harbour masters confirm arrivals and release berths on departure.\n\n"
        "## Usage\n\n```\npython -m tidewater.cli book --vessel Kestrel --nights 3\n```\n\n"
        "Bug reports and patches are welcome; see HACKING.md for the development setup.\n"
        "Phone numbers are stored with the mask XXX-XXXX until confirmed.\n"
    ),
    "HACKING.md": "# Hacking on tidewater\n\nRun `python -m unittest` before sending a patch.\n"
                  "The booking path has a small benchmark in docs/perf.md.\n",
    "CHANGELOG.md": "# Changelog\n\n## 0.2.0 - 2023-11-20\n- Release berths on departure.\n\n"
                    "## 0.1.0 - 2023-11-14\n- First release.\n",
    ".gitignore": "__pycache__/\n*.py[cod]\n.venv/\nvenv/\nbuild/\ndist/\n",
    "pyproject.toml": "[project]\nname = \"tidewater\"\nversion = \"0.2.0\"\nrequires-python = \">=3.10\"\n",
    "docs/perf.md": "# Performance\n\nA booking takes under a millisecond on a laptop.\n",
    "tidewater/__init__.py": '"""Berth bookings for small harbours."""\n\n__version__ = "0.2.0"\n',
    "tidewater/clock.py": (
        '"""Time source; the service takes an injected clock so tests can freeze time."""\n\n'
        "import time\n\n\nclass SystemClock:\n    def now(self) -> float:\n        return time.time()\n"
    ),
    "tidewater/models.py": (
        '"""Records."""\n\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Berth:\n'
        "    code: str\n    length_m: float\n\n\n@dataclass\nclass Booking:\n    vessel: str\n"
        "    berth: str\n    nights: int\n"
    ),
    "tidewater/ledger.py": (
        '"""Booking ledger: which berth is taken on which night."""\n\n'
        "from tidewater.models import Booking\n\nDEFAULT_TIMEOUT = 30  # seconds to wait for a lock\n\n\n"
        "class Ledger:\n    def __init__(self, clock):\n        self._clock = clock  # injected for tests\n"
        "        self._bookings: list[Booking] = []\n        self.xxx_large_vessels = 0\n\n"
        "    def book(self, booking: Booking) -> None:\n"
        "        # Nights are half-open intervals: a departure frees the berth that night.\n"
        "        if booking.nights <= 0:\n            raise ValueError(\"nights must be positive\")\n"
        "        self._bookings.append(booking)\n\n    def release(self, vessel: str) -> int:\n"
        "        before = len(self._bookings)\n"
        "        self._bookings = [b for b in self._bookings if b.vessel != vessel]\n"
        "        return before - len(self._bookings)\n"
    ),
    "tidewater/cli.py": (
        '"""Command line entry point."""\n\nimport argparse\n\nfrom tidewater.clock import SystemClock\n'
        "from tidewater.ledger import Ledger\nfrom tidewater.models import Booking\n\n\n"
        "def main(argv=None) -> int:\n    parser = argparse.ArgumentParser(prog=\"tidewater\")\n"
        "    parser.add_argument(\"command\")\n    parser.add_argument(\"--vessel\")\n"
        "    parser.add_argument(\"--nights\", type=int, default=1)\n    args = parser.parse_args(argv)\n"
        "    ledger = Ledger(SystemClock())\n    ledger.book(Booking(args.vessel, \"A1\", args.nights))\n"
        "    return 0\n"
    ),
    "tests/__init__.py": "",
    "tests/test_ledger.py": (
        "import unittest\n\nfrom tidewater.ledger import Ledger\nfrom tidewater.models import Booking\n\n\n"
        "class FrozenClock:\n    def now(self):\n        return 0.0\n\n\n"
        "class LedgerTests(unittest.TestCase):\n    def test_release_frees_every_booking_of_a_vessel(self):\n"
        "        ledger = Ledger(FrozenClock())\n        ledger.book(Booking(\"Kestrel\", \"A1\", 2))\n"
        "        self.assertEqual(ledger.release(\"Kestrel\"), 1)\n"
    ),
}


def clean_history() -> list[CommitSpec]:
    """Three commits growing the clean codebase (two synthetic authors)."""
    first = {k: v for k, v in CLEAN_FILES.items() if k.startswith(("tidewater/models", "pyproject", ".gitignore"))}
    second = {k: v for k, v in CLEAN_FILES.items() if not k.startswith(("tests/", "CHANGELOG"))}
    # An earlier ledger without release, and a scratch file removed later: history
    # that differs from the working tree, as every real project has.
    second["tidewater/ledger.py"] = CLEAN_FILES["tidewater/ledger.py"].split("    def release")[0]
    second["docs/berths.txt"] = "A1 12m\nA2 15m\nB1 9m\n"
    return [
        CommitSpec(first, "Initial project layout"),
        CommitSpec(second, "Add the booking ledger and command line", author=KOFI),
        CommitSpec(dict(CLEAN_FILES), "Release 0.2.0", committer=KOFI),
    ]


def clean_repo(root: Path, **overrides) -> Path:
    spec = RepoSpec(clean_history(), tags={"v0.2.0": (2, "Release 0.2.0", MARA)})
    for key, value in overrides.items():
        setattr(spec, key, value)
    return write_repo(root, spec)
