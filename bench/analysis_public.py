"""The analysis core beside copydetect on public labelled datasets of real solutions.

``python -m bench.analysis_public --data DIR [--no-ted]`` scores every dataset
found under ``DIR`` (public data is never committed: put it in a scratch
directory) with the scorers of :mod:`bench.analysis_eval` and prints one line
per dataset, then one JSON object as the last line. Nothing here was tuned on
these datasets.

Layouts recognised under ``DIR`` (each sub-directory is one dataset):

* **CSV pairs** (ConPlag, Slobodkin and Sadovnikov 2022, as published with a
  ``filename_1,filename_2,code_1,code_2,labels`` header; ``labels`` 1 =
  plagiarised): every ``*.csv`` file of the directory; the language is read
  from a ``language`` file in the directory (default ``java``);
* **IR-Plag** (Karnalim et al. 2019): ``<task>/original/<file>``,
  ``<task>/non-plagiarized/<n>/<file>``, ``<task>/plagiarized/L<level>/<n>/<file>``;
  positives are original–plagiarised pairs, negatives original–non-plagiarised
  pairs (as the dataset's paper scores them);
* **JSON Lines pairs**: ``*.jsonl`` with ``{"a", "b", "language", "label"}``
  (``label`` true for a copy) and an optional ``"kind"``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

from bench.analysis_eval import LANGUAGE_SUFFIX, Pair, evaluate

SUFFIX_LANGUAGE = {suffix: language for language, suffix in LANGUAGE_SUFFIX.items()}


def csv_pairs(directory: Path) -> list[Pair]:
    language_file = directory / "language"
    language = language_file.read_text().strip() if language_file.exists() else "java"
    csv.field_size_limit(sys.maxsize)
    out: list[Pair] = []
    for path in sorted(directory.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                label = str(row.get("labels", row.get("label", ""))).strip()
                if label not in ("0", "1"):
                    continue
                out.append(Pair(row["code_1"], row["code_2"], language, label == "1",
                                (row.get("notes") or "").split(")")[0].strip("( ") if label == "1" else "independent"))
    return out


def irplag_pairs(directory: Path) -> list[Pair]:
    out: list[Pair] = []
    for task in sorted(p for p in directory.iterdir() if p.is_dir()):
        originals = sorted(f for f in (task / "original").rglob("*") if f.is_file())
        if not originals:
            continue
        original = originals[0]
        language = SUFFIX_LANGUAGE.get(original.suffix, "java")
        base = original.read_text("utf-8", "replace")
        for f in sorted((task / "non-plagiarized").rglob("*")):
            if f.is_file() and f.suffix == original.suffix:
                out.append(Pair(base, f.read_text("utf-8", "replace"), language, False, "independent"))
        for f in sorted((task / "plagiarized").rglob("*")):
            if f.is_file() and f.suffix == original.suffix:
                level = next((part for part in f.relative_to(task).parts if part.upper().startswith("L")), "L?")
                out.append(Pair(base, f.read_text("utf-8", "replace"), language, True, level))
    return out


def jsonl_pairs(directory: Path) -> list[Pair]:
    out: list[Pair] = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append(Pair(row["a"], row["b"], row["language"], bool(row["label"]), row.get("kind", "")))
    return out


def datasets(root: Path) -> list[tuple[str, list[Pair]]]:
    found: list[tuple[str, list[Pair]]] = []
    for directory in sorted(p for p in root.iterdir() if p.is_dir()):
        if any(directory.glob("*.csv")):
            found.append((directory.name, csv_pairs(directory)))
        elif any(directory.glob("*.jsonl")):
            found.append((directory.name, jsonl_pairs(directory)))
        elif any((task / "original").is_dir() for task in directory.iterdir() if task.is_dir()):
            found.append((directory.name, irplag_pairs(directory)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True, help="directory holding one sub-directory per dataset")
    parser.add_argument("--no-ted", action="store_true", help="skip the tree edit distance (slow on big files)")
    args = parser.parse_args()
    sys.setrecursionlimit(20_000)
    scorers = ["similarity", "containment", "structural"] + ([] if args.no_ted else ["tree_edit"]) + ["copydetect"]
    results: dict[str, object] = {}
    for name, pairs in datasets(Path(args.data)):
        start = time.perf_counter()
        results[name] = evaluate(pairs, scorers)
        results[name]["seconds"] = round(time.perf_counter() - start, 1)  # type: ignore[index]
        print(name, json.dumps(results[name]), flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
