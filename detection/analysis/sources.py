"""Reading solutions and canonical libraries from disk (for the command line).

A solution is a file, or a directory whose source files (by the language's
extensions, sorted by path) together form it. A canonical library directory
holds one sub-directory per bug type, each holding canonical solutions (files
or directories); files directly in the library root belong to bug type ``any``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import AnalysisError
from .languages import get_language


def _sources_in(directory: Path, extensions: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.is_file() and p.suffix in extensions
                  and ".git" not in p.parts)


def read_solution_files(path: str | os.PathLike[str], language: str) -> list[tuple[str, str]]:
    """``(path, text)`` of each source file of one solution (a file, or a directory's files)."""
    spec = get_language(language)
    target = Path(path)
    if target.is_file():
        return [(str(target), target.read_text("utf-8", errors="replace"))]
    if target.is_dir():
        files = _sources_in(target, spec.extensions)
        if not files:
            raise AnalysisError(f"{target} holds no {spec.name} source files",
                                field="paths", code="analysis_empty_solution")
        return [(str(f), f.read_text("utf-8", errors="replace")) for f in files]
    raise AnalysisError(f"{target} does not exist", field="paths", code="analysis_missing_path")


def read_solution(path: str | os.PathLike[str], language: str) -> str:
    """The source text of one solution (a directory's files are concatenated)."""
    return "\n\n".join(text for _, text in read_solution_files(path, language))


@dataclass(frozen=True)
class CanonicalSolution:
    name: str
    bug_type: str
    source: str


def read_canonical_library(directory: str | os.PathLike[str], language: str) -> list[CanonicalSolution]:
    spec = get_language(language)
    root = Path(directory)
    if not root.is_dir():
        raise AnalysisError(f"canonical library {root} is not a directory", field="canonical",
                            code="analysis_missing_path")
    out: list[CanonicalSolution] = []
    for entry in sorted(root.iterdir()):
        if entry.is_file() and entry.suffix in spec.extensions:
            out.append(CanonicalSolution(entry.stem, "any", read_solution(entry, language)))
        elif entry.is_dir():
            for item in sorted(entry.iterdir()):
                if (item.is_file() and item.suffix in spec.extensions) or \
                        (item.is_dir() and _sources_in(item, spec.extensions)):
                    name = f"{entry.name}/{item.stem if item.is_file() else item.name}"
                    out.append(CanonicalSolution(name, entry.name, read_solution(item, language)))
    return out
