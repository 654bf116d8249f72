"""What the audit looks at (``AuditTarget``) and what it knows (``AuditContext``).

``AuditTarget`` is everything one agent can observe for one instance or
attempt: a directory (the workspace; it may hold a ``.git`` repository) and the
surfaces around it: the archive name, URLs (clone URL, API links), HTTP
headers, the bootstrap payload, the environment of spawned processes, and any
other text handed over before turn one (a task page, a prompt).

``AuditContext`` is the private side: the catalogue vocabulary that must not
appear, fact tokens with their anchors, the synthetic identity pool, the host
identity that must not appear, the gold-fixed region, harness contents and
file patterns, platform paths, the environment allowlist and residue
declarations.  Every default is a field, so callers override rather than edit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from challenges.audit.errors import AuditError

CATALOGUE_KINDS: tuple[str, ...] = (
    "slug", "title", "family", "bug-class", "bug-type", "solution", "canary", "red-herring",
    "instance-id", "draw-id", "lexicon-key", "catalogue",
)

DEFAULT_MARKERS: tuple[str, ...] = ("BUG", "FIXME", "XXX", "HACK")

# Harness vocabulary.  Phrases are unambiguous in any project; single words are
# flagged unless the caller lists them in ``allowed_words`` (a lexicon about
# aviaries may say "canary", one about databases "oracle").  "injected" and
# "benchmark" alone are ordinary engineering words (dependency injection,
# performance work) and are only flagged inside phrases.
HARNESS_PHRASES: tuple[str, ...] = (
    "red herring", "red herrings", "gold patch", "gold patches", "gold fix", "gold solution",
    "golden patch", "hidden test", "hidden tests", "hidden oracle", "hidden suite", "oracle test",
    "oracle tests", "test oracle", "canary guard", "canary map", "canary test", "injected bug",
    "injected fault", "injected defect", "bug injection", "bug injector", "fault injector",
    "planted bug", "planted fault", "bolt on bug", "fail to pass", "pass to pass", "leak audit",
    "mutation adequacy", "eval harness", "evaluation harness", "benchmark harness",
    "challenge harness", "this is a test of", "you are being evaluated", "being benchmarked",
)
HARNESS_WORDS: tuple[str, ...] = ("oracle", "oracles", "canary", "canaries", "harness", "herring",
                                  "gauntlet")

DEFAULT_HARNESS_PATTERNS: tuple[str, ...] = (
    "*oracle*", "gold*.patch", "gold*.diff", "*.gold", "*canaries*", "*canary_map*", "*canary-map*",
    "draw.json", "fingerprint.json", "secrets.json", "*hidden_test*", "*hidden-test*", "*hiddentest*",
    "*red_herring*", "*red-herring*", "*redherring*", ".gauntlet*", "*leak_audit*",
)

# Substrings that betray the platform's own tree or interpreter; callers add the
# concrete repository root, var dir and interpreter prefix (see
# ``default_platform_paths``).
DEFAULT_PLATFORM_MARKERS: tuple[str, ...] = (
    "challenges/engine", "challenges/audit", "challenges/sandbox", "detection/analysis",
    "site-packages", "dist-packages",
)

# Mail providers whose addresses are people's real mailboxes; synthetic identities
# use reserved or project domains.
DEFAULT_REAL_EMAIL_PATTERNS: tuple[str, ...] = (
    r"[^@\s<>]+@(?:gmail|googlemail|outlook|hotmail|live|yahoo|icloud|me|proton|protonmail|gmx|aol)\.[a-z.]+",
)


SPELLINGS: tuple[str, ...] = ("any", "literal-in-workspace")


@dataclass(frozen=True)
class CatalogueTerm:
    """A word or phrase of the private catalogue.

    ``spelling="any"`` (default): every spelling is a finding everywhere (see
    ``challenges.audit.text``).  ``spelling="literal-in-workspace"`` is for an
    archetype noun the application legitimately uses as its own vocabulary (a
    connection-pool template's code has a ``ConnectionPool`` class): inside the
    workspace (file contents, history, commit messages, paths) only the literal
    catalogue spelling (``connection-pool``, case-insensitive, as a whole token)
    is a finding; on every other surface (archive name, URLs, headers, payload,
    environment, refs, tags, texts) every spelling still is.
    """

    text: str
    kind: str = "catalogue"
    spelling: str = "any"

    def __post_init__(self) -> None:
        if self.kind not in CATALOGUE_KINDS:
            raise AuditError("term_kind_unknown", f"unknown catalogue term kind {self.kind!r}", field="kind")
        if self.spelling not in SPELLINGS:
            raise AuditError("term_spelling_unknown", f"unknown spelling rule {self.spelling!r}", field="spelling")


@dataclass(frozen=True)
class FactToken:
    """A distinctive phrase of the hidden fact; allowed only in ``anchors`` (workspace paths)."""

    phrase: str
    anchors: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResidueDeclaration:
    """A path whose content is load-bearing across attempts, with the seed to restore."""

    path: str
    seed: str


@dataclass(frozen=True)
class AuditTarget:
    root: Path | None = None
    archive_name: str | None = None
    urls: tuple[str, ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    payload: Any = None
    environment: Mapping[str, str] | None = None
    texts: Mapping[str, str] = field(default_factory=dict)
    archive_members: tuple[Mapping[str, Any], ...] = ()  # tar header metadata of a delivered archive

    def __post_init__(self) -> None:
        if self.root is not None:
            root = Path(self.root)
            if not root.is_dir():
                raise AuditError("target_unreadable", f"{root} is not a readable directory", field="root")
            object.__setattr__(self, "root", root)


@dataclass(frozen=True)
class AuditContext:
    catalogue_terms: tuple[CatalogueTerm, ...] = ()
    fact_tokens: tuple[FactToken, ...] = ()
    identity_pool: frozenset[str] = frozenset()  # exact "Name <email>" strings
    identity_patterns: tuple[str, ...] = ()  # regexes, full match on "Name <email>"
    host_names: tuple[str, ...] = ()  # host user names and host name
    host_emails: tuple[str, ...] = ()
    real_email_patterns: tuple[str, ...] = DEFAULT_REAL_EMAIL_PATTERNS
    gold_regions: tuple[str, ...] = ()  # text of the gold-fixed faulty region(s)
    harness_contents: Mapping[str, str] = field(default_factory=dict)  # label -> hidden file text
    harness_paths: tuple[str, ...] = ()  # exact workspace-relative paths of hidden files
    harness_patterns: tuple[str, ...] = DEFAULT_HARNESS_PATTERNS
    platform_paths: tuple[str, ...] = DEFAULT_PLATFORM_MARKERS
    env_allowlist: frozenset[str] | None = None
    env_expected: Mapping[str, str] = field(default_factory=dict)
    residue: tuple[ResidueDeclaration, ...] = ()
    allowed_remotes: tuple[str, ...] = ()
    require_local_identity: bool = False
    ordinary_words: frozenset[str] = frozenset()
    allowed_words: frozenset[str] = frozenset()
    markers: tuple[str, ...] = DEFAULT_MARKERS
    harness_phrases: tuple[str, ...] = HARNESS_PHRASES
    harness_words: tuple[str, ...] = HARNESS_WORDS
    min_gold_region_chars: int = 12

    def __post_init__(self) -> None:
        for name in ("identity_patterns", "real_email_patterns"):
            for pattern in getattr(self, name):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise AuditError("pattern_invalid", f"{pattern!r}: {exc}", field=name) from exc
        seen: set[str] = set()
        for decl in self.residue:
            if decl.path in seen:
                raise AuditError("residue_duplicate", f"residue path {decl.path!r} declared twice", field="residue")
            seen.add(decl.path)

    def identity_allowed(self, identity: str) -> bool:
        if identity in self.identity_pool:
            return True
        return any(re.fullmatch(p, identity) for p in self.identity_patterns)
