"""Build the audit's inputs from a generated engine instance.

``context_for_instance(instance, ...)`` derives the private side of the audit
from what the engine recorded:

* catalogue terms: template slug and title, family, bug class and type,
  (the slug with ``spelling="literal-in-workspace"`` when the app's own code
  uses the archetype noun, e.g. ``ConnectionPool``; see ``CatalogueTerm``),
  solution approach, drawn canary labels and red-herring kinds, the draw's
  history seed (a draw id) and, when given, the platform's instance id.  The
  lexicon key and the template's key concepts are *not* terms: the domain is
  visible by design and concepts such as "pagination" are ordinary code words;
* ordinary and allowed words: every word of the drawn lexicon (domain
  vocabulary is never a harness word here, e.g. a lexicon about aviaries may
  say "canary");
* fact tokens with their anchors, the gold-fixed region, every hidden text
  (oracle files, gold and alternative patches, gold-fixed files, canary map,
  draw) and the oracle paths;
* the identities the engine drew for the project (authors, committers, the
  clone owner pinned in the local config) plus the sandbox's synthetic identity
  (what oracle runs and agents commit as);
* residue declarations from the template's ``residue_paths``.

Host identity and platform paths default to ``detect_host_identity()`` and
``default_platform_paths()``; pass them explicitly in tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from challenges.audit.findings import AuditReport, run_audit
from challenges.audit.host import HostIdentity, default_platform_paths, detect_host_identity
from challenges.audit.intake import Substrate
from challenges.audit.residue import declarations_from_files
from challenges.audit.target import AuditContext, AuditTarget, CatalogueTerm, FactToken
from challenges.audit.text import TermMatcher, WordIndex, words


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _strings(item)


def lexicon_words(lexicon_key: str) -> frozenset[str]:
    """Every word (identifier-aware, lower-case) of a lexicon's vocabulary."""
    from challenges.engine.lexicons import get_lexicon
    from challenges.engine.naming import lexicon_dict

    data = dict(lexicon_dict(get_lexicon(lexicon_key)))
    data.pop("key", None)
    found = {w.text for text in _strings(data) for w in words(text)}
    found |= {"".join(w.text for w in words(text)) for text in _strings(data)}
    return frozenset(found)


def synthetic_identity_pool(instance: Any) -> frozenset[str]:
    """Every identity the engine drew for ``instance``'s project (its contributors and the
    clone owner of the local config), plus the sandbox's."""
    from challenges.sandbox.env import SYNTHETIC_GIT_EMAIL, SYNTHETIC_GIT_NAME

    return instance.history.identities() | {f"{SYNTHETIC_GIT_NAME} <{SYNTHETIC_GIT_EMAIL}>"}


def _code_vocabulary(instance: Any, term: str) -> bool:
    """Whether ``term`` names something in the instance's source code (an identifier or a
    docstring of the app itself, e.g. ``ConnectionPool`` for a connection-pool archetype)."""
    matcher = TermMatcher.compile(term)
    return any(matcher.hits(WordIndex(instance.files[path])) for path in instance.source_paths)


def catalogue_terms(instance: Any, *, instance_id: str | None = None) -> tuple[CatalogueTerm, ...]:
    from challenges.engine.model import get_template

    spec = get_template(instance.template).spec
    slug_spelling = "literal-in-workspace" if _code_vocabulary(instance, spec.slug) else "any"
    terms = [
        CatalogueTerm(spec.slug, "slug", slug_spelling), CatalogueTerm(spec.title, "title"),
        CatalogueTerm(spec.family, "family"), CatalogueTerm(spec.bug_class, "bug-class"),
        CatalogueTerm(spec.bug_type, "bug-type"), CatalogueTerm(spec.solution_approach, "solution"),
        CatalogueTerm(str(instance.draw.history_seed), "draw-id"),
    ]
    terms += [CatalogueTerm(name, "canary") for name in spec.canaries]
    terms += [CatalogueTerm(kind, "red-herring") for kind in spec.red_herrings]
    if instance_id is not None:
        terms.append(CatalogueTerm(str(instance_id), "instance-id"))
    return tuple(terms)


def hidden_texts(instance: Any) -> dict[str, str]:
    texts = {f"oracle {path}": text for path, text in instance.oracle_files.items()}
    texts["gold patch"] = instance.gold.patch
    for path, text in instance.gold.files.items():
        texts[f"gold-fixed {path}"] = text
    for alt in instance.alternatives:
        texts[f"alternative patch {alt.label}"] = alt.patch
    secrets = instance.secrets_dict()
    texts["canary map"] = json.dumps(secrets["canaries"], sort_keys=True, indent=2)
    texts["draw"] = instance.draw.to_json()
    return texts


def context_for_instance(
    instance: Any,
    *,
    instance_id: str | None = None,
    host: HostIdentity | None = None,
    platform_paths: tuple[str, ...] | None = None,
    env_allowlist: frozenset[str] | None = None,
    env_expected: dict[str, str] | None = None,
    allowed_remotes: tuple[str, ...] = (),
    require_local_identity: bool = False,
    extra_terms: tuple[CatalogueTerm, ...] = (),
) -> AuditContext:
    """The ``AuditContext`` for one engine ``GeneratedInstance`` (see the module docstring)."""
    from challenges.engine.model import get_template

    spec = get_template(instance.template).spec
    host = host if host is not None else detect_host_identity()
    regions = tuple(instance.gold.files[r.path][r.start:r.end] for r in instance.regions)
    vocabulary = lexicon_words(instance.draw.lexicon_key)
    return AuditContext(
        catalogue_terms=catalogue_terms(instance, instance_id=instance_id) + tuple(extra_terms),
        fact_tokens=tuple(FactToken(phrase, tuple(anchors)) for phrase, anchors in instance.fact_tokens),
        identity_pool=synthetic_identity_pool(instance),
        host_names=host.names,
        host_emails=host.emails,
        gold_regions=regions,
        harness_contents=hidden_texts(instance),
        harness_paths=tuple(sorted(instance.oracle_files)),
        platform_paths=platform_paths if platform_paths is not None else default_platform_paths(),
        env_allowlist=env_allowlist,
        env_expected=dict(env_expected or {}),
        residue=declarations_from_files(spec.residue_paths, instance.files),
        allowed_remotes=allowed_remotes,
        require_local_identity=require_local_identity,
        ordinary_words=vocabulary,
        allowed_words=vocabulary,
    )


def substrate_for_instance(instance: Any) -> Substrate:
    """The intake gate's view of an instance: its shipped files, project name and tier."""
    return Substrate(dict(instance.files), instance.draw.project_name, instance.tier)


def write_workspace(instance: Any, dest: Path | str) -> Path:
    """Write the agent-visible workspace (a git repository checked out at HEAD) into ``dest``.

    The repository is its maintainer's own clone: the local config pins their synthetic
    identity (spec 002, layer one), so a commit made by anything that does not inherit the
    sandbox environment is still synthetic, never the host's, and the identity is one a
    reader of the history expects there.
    """
    from dulwich.repo import Repo

    root = instance.history.write(Path(dest))
    owner = instance.history.owner
    repo = Repo(str(root))
    config = repo.get_config()
    config.set((b"user",), b"name", owner.name.encode())
    config.set((b"user",), b"email", owner.email.encode())
    config.write_to_path()
    repo.close()
    return root


def workspace_archive(instance: Any, root: Path | str, *, top_dir: str) -> bytes:
    """The deterministic archive of a written workspace, its times consistent with history:
    files carry the time the owner's checkout last wrote them, the rest the packing time."""
    from challenges.audit.archive import build_archive
    from challenges.engine.history import archive_mtime, member_times

    return build_archive(root, top_dir=top_dir, include_git=True, mtime=archive_mtime(instance.history),
                         mtimes=member_times(instance.history))


def audit_instance(instance: Any, workdir: Path | str, **context_options: Any) -> AuditReport:
    """Write the workspace under ``workdir`` and audit it with ``context_for_instance``."""
    root = write_workspace(instance, Path(workdir) / "workspace")
    return run_audit(AuditTarget(root), context_for_instance(instance, **context_options))
