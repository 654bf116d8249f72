"""Reads the labelled corpus (see corpus/README.md) into solutions and pairs."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
# written after every parameter was fixed, and never used to choose one
HELDOUT = CORPUS / "heldout"
LANGUAGE_BY_SUFFIX = {".py": "python", ".js": "javascript", ".ts": "typescript", ".go": "go",
                      ".java": "java", ".rs": "rust"}


@dataclass(frozen=True)
class Variant:
    group: str
    language: str
    role: str
    disguises: tuple[str, ...]
    source: str
    name: str


def _sections(text: str) -> list[tuple[str, list[str]]]:
    """(header, body lines) per ``@@@@`` section."""
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("@@@@ "):
            sections.append((line[5:].strip(), []))
        elif sections:
            sections[-1][1].append(line)
    return sections


def load_groups(directory: Path = CORPUS) -> dict[str, list[Variant]]:
    groups: dict[str, list[Variant]] = {}
    for path in sorted(directory.glob("*.txt")):
        stem = path.name[: -len(".txt")]
        language = LANGUAGE_BY_SUFFIX[Path(stem).suffix]
        variants: list[Variant] = []
        for index, (header, lines) in enumerate(_sections(path.read_text())):
            role = header.split()[0]
            disguises = tuple(d.strip() for d in header[len(role):].strip(" []").split(",") if d.strip())
            variants.append(Variant(stem, language, role, disguises, "\n".join(lines) + "\n",
                                    f"{stem}#{index}:{role}"))
        groups[stem] = variants
    return groups


def labelled_pairs(groups: dict[str, list[Variant]]) -> list[tuple[Variant, Variant, bool]]:
    """(a, b, is_copy) for every pair inside each group."""
    pairs = []
    for variants in groups.values():
        for a, b in combinations(variants, 2):
            positive = a.role != "independent" and b.role != "independent"
            pairs.append((a, b, positive))
    return pairs


def roc_auc(scores_pos: list[float], scores_neg: list[float]) -> float:
    """P(a positive pair is closer than a negative pair); ties count half."""
    wins = 0.0
    for p in scores_pos:
        for n in scores_neg:
            if p < n:
                wins += 1
            elif p == n:
                wins += 0.5
    return wins / (len(scores_pos) * len(scores_neg))
