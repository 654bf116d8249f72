"""Loading the packaged lexicon data files.

``load_lexicons()`` reads every ``data/*.json`` once per process, validates
each document, checks cross-lexicon uniqueness (keys, project names) and
returns the lexicons sorted by key. ``load_lexicons_from`` does the same for
any directory, uncached, for tests and staff tooling.

``check_pool`` enforces the pool size the spec requires (50+ lexicons). It is
separate from loading so that a partial data directory (a staff member's
work in progress, a test fixture) still loads; the unit tests and the
generation pipeline's readiness check call it on the packaged pool.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .errors import LexiconError
from .model import Lexicon
from .validate import DEFAULT_POLICY, LexiconPolicy, validate_lexicon

DATA_DIR = Path(__file__).resolve().parent / "data"


def load_lexicon_file(path: Path, policy: LexiconPolicy = DEFAULT_POLICY) -> Lexicon:
    """Validate one data file; its stem must equal its ``key``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise LexiconError("invalid_json", "$", str(exc), source=path.name) from exc
    try:
        lexicon = validate_lexicon(data, policy)
    except LexiconError as exc:
        raise LexiconError(exc.code, exc.key, exc.message, source=path.name) from exc
    if lexicon.key != path.stem:
        raise LexiconError("key_mismatch", "key",
                           f"key {lexicon.key!r} differs from file name {path.stem!r}",
                           source=path.name)
    return lexicon


def load_lexicons_from(directory: Path, policy: LexiconPolicy = DEFAULT_POLICY) -> tuple[Lexicon, ...]:
    """Load, validate and cross-check every ``*.json`` in ``directory``."""
    lexicons = tuple(load_lexicon_file(p, policy) for p in sorted(directory.glob("*.json")))
    # File names are unique and must equal keys, so keys are unique too; the
    # human domain label and project names must be unique as well because
    # fingerprints and generated package names use them.
    domains: dict[str, str] = {}
    projects: dict[str, str] = {}
    for lexicon in lexicons:
        if lexicon.domain in domains:
            raise LexiconError("duplicate_domain", "domain",
                               f"{lexicon.domain!r} is also used by {domains[lexicon.domain]!r}",
                               source=f"{lexicon.key}.json")
        domains[lexicon.domain] = lexicon.key
        for i, project in enumerate(lexicon.project_names):
            if project in projects:
                raise LexiconError("duplicate_project_name", f"project_names[{i}]",
                                   f"{project!r} is also used by {projects[project]!r}",
                                   source=f"{lexicon.key}.json")
            projects[project] = lexicon.key
    return lexicons


def check_pool(lexicons: tuple[Lexicon, ...], policy: LexiconPolicy = DEFAULT_POLICY) -> None:
    """Raise LexiconError('too_few_lexicons') if the pool is below the policy minimum."""
    if len(lexicons) < policy.min_lexicons:
        raise LexiconError("too_few_lexicons", "$",
                           f"found {len(lexicons)} lexicons, need at least {policy.min_lexicons}")


@lru_cache(maxsize=1)
def load_lexicons() -> tuple[Lexicon, ...]:
    """All packaged lexicons, validated, sorted by key (cached)."""
    return load_lexicons_from(DATA_DIR)


@lru_cache(maxsize=1)
def _by_key() -> dict[str, Lexicon]:
    return {lexicon.key: lexicon for lexicon in load_lexicons()}


def get_lexicon(key: str) -> Lexicon:
    """The packaged lexicon with ``key``; LexiconError('unknown_lexicon') otherwise."""
    try:
        return _by_key()[key]
    except KeyError:
        raise LexiconError("unknown_lexicon", key, "no packaged lexicon has this key") from None
