"""Critical residue (spec 002): declared paths reset to seed content at each new attempt.

A template whose challenge spans several attempts declares the paths that are
load-bearing for its measurement (``TemplateSpec.residue_paths``); everything
else carries forward untouched.  At the start of each attempt the caller:

1. restores the workspace (extracting the archive),
2. runs ``check_residue`` (the integrity check: it must see the raw restore,
   so it runs before the reset and reports any declared path that differs),
3. runs ``reset_residue`` which writes exactly the declared paths back to their
   seed bytes and returns the new baselines (sha256 per declared path).

``declarations_from_files`` refuses a declaration without seed content, at
construction time rather than hours into a campaign.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from challenges.audit.errors import ResidueError
from challenges.audit.findings import Finding
from challenges.audit.target import ResidueDeclaration


def _safe_relative(path: str) -> str:
    parts = path.split("/")
    if not path or path.startswith("/") or "\\" in path or any(p in ("", ".", "..") for p in parts):
        raise ResidueError("residue_path_invalid", f"residue path {path!r} must be a plain relative path",
                           field="path")
    return path


def declarations_from_files(paths: Iterable[str], files: Mapping[str, str]) -> tuple[ResidueDeclaration, ...]:
    """Declarations for ``paths`` with their seed content from ``files`` (the shipped workspace)."""
    out: list[ResidueDeclaration] = []
    for path in paths:
        _safe_relative(path)
        if path not in files:
            raise ResidueError("residue_seed_missing", f"residue path {path!r} has no seed content", field="path")
        out.append(ResidueDeclaration(path, files[path]))
    if len({d.path for d in out}) != len(out):
        raise ResidueError("residue_duplicate", "a residue path is declared twice", field="path")
    return tuple(out)


def check_residue(root: Path | str, declarations: Iterable[ResidueDeclaration]) -> list[Finding]:
    """Integrity check: ``residue_missing`` / ``residue_modified`` per declared path."""
    base = Path(root)
    findings: list[Finding] = []
    for decl in declarations:
        target = base / _safe_relative(decl.path)
        if not target.is_file() or target.is_symlink():
            findings.append(Finding("residue", "residue_missing", "declared residue path is missing", decl.path))
        elif target.read_bytes() != decl.seed.encode("utf-8"):
            findings.append(Finding("residue", "residue_modified", "declared residue path differs from its seed",
                                    decl.path))
    return findings


def reset_residue(root: Path | str, declarations: Iterable[ResidueDeclaration]) -> dict[str, str]:
    """Write every declared path back to its seed; returns ``{path: sha256 of the seed}``."""
    base = Path(root)
    baselines: dict[str, str] = {}
    for decl in declarations:
        target = base / _safe_relative(decl.path)
        if target.is_symlink():
            target.unlink()  # never write through a link the agent planted
        target.parent.mkdir(parents=True, exist_ok=True)
        data = decl.seed.encode("utf-8")
        target.write_bytes(data)
        baselines[decl.path] = hashlib.sha256(data).hexdigest()
    return baselines


def declared_residue_paths() -> dict[str, tuple[str, ...]]:
    """``{template slug: residue paths}`` for every engine template that declares any."""
    from challenges.engine.model import registry

    return {slug: tuple(cls.spec.residue_paths) for slug, cls in registry().items() if cls.spec.residue_paths}
