"""Measured difficulty of one generated instance (issue 12, "difficulty by construction").

A tier is a promise about how hard an instance is; this module measures what was built so
the promise can be checked. From a workspace, its hidden tests, the gold patch and the task
statement it computes a :class:`DifficultyProfile`:

- **size and breadth**: non-blank lines and files of non-test source code, and test files;
- **fault files**: the files the gold patch touches;
- **causal distance**: the fewest module boundaries (import-graph hops) from the source
  modules the hidden fail-to-pass tests import directly to a fault module. 0 means a failing
  test imports the faulty module itself; ``None`` means no fault module is reachable through
  imports at all (the tests reach it some other way, e.g. by running a program);
- **grep rank**: where the fault file lands when source files are ordered by how many
  distinct content words of the statement they contain (a case-insensitive substring match,
  as ``grep -il`` does). Rank 1 means the best grep hit is the faulty file; the share is the
  part of the source tree (the fault file included) scoring at least as well as it, i.e.
  what an agent that reads grep hits best-first reads before reaching the fault at worst;
- **visible failing**: whether a visible test fails on the shipped code because of the bug
  (taken from the visible gate's record, never re-run here).

:func:`shortfalls` compares a profile with a tier's floor (lines, files, causal distance)
and says, in words staff can act on, where the instance falls short.

Imports are read with tree-sitter: Python ``import``/``from`` statements (absolute and
relative) resolved to project files, JavaScript ``require(...)``/``import ... from`` with
relative paths. Nothing here touches Django, the database or the sandbox.
"""

from __future__ import annotations

import posixpath
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tree_sitter import Language, Node, Parser

PROFILE_VERSION = 1

SOURCE_EXTENSIONS = {"python": (".py",), "javascript": (".js", ".cjs", ".mjs")}

# Function words and filler a statement is full of; they say nothing about where code lives.
STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing done down during each even ever every few for from further
get gets got had has have having he her here hers him his how however i if in into is it its itself just
let like made make many may me might more most much must my no nor not now of off on once one only or other
our ours out over own same say says said see seen she should since so some still such than that the their
them then there these they this those though through to too two under until up upon us very was we were what
when where which while who whom why will with within without would yet you your yours
instead expected expect actually happens happened got getting tried try trying wrote write
""".split())
_WORD = re.compile(r"[A-Za-z]+")
MIN_WORD_LENGTH = 3


@dataclass(frozen=True)
class DifficultyProfile:
    """What one instance measures (JSON-ready through ``to_dict``)."""

    source_lines: int
    source_files: int
    test_files: int
    fault_files: tuple[str, ...]
    causal_distance: int | None
    # Per fault file: its distance from the failing tests' imports (None: unreachable).
    fault_distances: dict[str, int | None] = field(default_factory=dict)
    # The source modules the fail-to-pass tests import directly (distance 0).
    entry_modules: tuple[str, ...] = ()
    grep_rank: int | None = None
    grep_share: float | None = None
    grep_words: int = 0
    visible_failing: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": PROFILE_VERSION,
            "source_lines": self.source_lines, "source_files": self.source_files, "test_files": self.test_files,
            "fault_files": list(self.fault_files), "causal_distance": self.causal_distance,
            "fault_distances": dict(self.fault_distances), "entry_modules": list(self.entry_modules),
            "grep_rank": self.grep_rank, "grep_share": self.grep_share, "grep_words": self.grep_words,
            "visible_failing": self.visible_failing,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DifficultyProfile:
        return cls(
            source_lines=int(data["source_lines"]), source_files=int(data["source_files"]),
            test_files=int(data["test_files"]), fault_files=tuple(data.get("fault_files", ())),
            causal_distance=data.get("causal_distance"), fault_distances=dict(data.get("fault_distances", {})),
            entry_modules=tuple(data.get("entry_modules", ())), grep_rank=data.get("grep_rank"),
            grep_share=data.get("grep_share"), grep_words=int(data.get("grep_words", 0)),
            visible_failing=data.get("visible_failing"),
        )


@dataclass(frozen=True)
class DifficultyFloor:
    """The least a tier's instance must measure (staff settings ``difficulty.min_*.<tier>``)."""

    min_source_lines: int = 0
    min_source_files: int = 0
    min_causal_distance: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"min_source_lines": self.min_source_lines, "min_source_files": self.min_source_files,
                "min_causal_distance": self.min_causal_distance}


def shortfalls(profile: DifficultyProfile, floor: DifficultyFloor, tier: int) -> list[str]:
    """Where ``profile`` falls short of ``floor``, one staff-readable sentence each (empty: it does not)."""
    out: list[str] = []
    if profile.source_lines < floor.min_source_lines:
        out.append(f"{profile.source_lines} lines of non-test source; tier {tier} asks for at least "
                   f"{floor.min_source_lines}")
    if profile.source_files < floor.min_source_files:
        out.append(f"{profile.source_files} source files; tier {tier} asks for at least {floor.min_source_files}")
    if floor.min_causal_distance > 0:
        if profile.causal_distance is None:
            out.append(f"the fault is not reachable through imports from the failing tests; tier {tier} asks for a "
                       f"causal distance of at least {floor.min_causal_distance} module boundaries")
        elif profile.causal_distance < floor.min_causal_distance:
            where = ("the failing tests import the faulty module directly" if profile.causal_distance == 0 else
                     f"the fault is {profile.causal_distance} module boundar"
                     f"{'y' if profile.causal_distance == 1 else 'ies'} from what the failing tests import")
            out.append(f"{where}; tier {tier} asks for at least {floor.min_causal_distance}")
    return out


# --- paths ---------------------------------------------------------------------------------

def is_test_path(path: str) -> bool:
    """Whether ``path`` is test code under the layouts the emitters write (``tests/``, ``test/``,
    ``test_*.py``, ``*_test.py``, ``*.test.js``, ``*.spec.js``)."""
    parts = path.split("/")
    name = parts[-1]
    return (any(part in ("tests", "test", "__tests__") for part in parts[:-1])
            or name.startswith("test_") or name.endswith(("_test.py", ".test.js", ".spec.js")))


def code_paths(files: Iterable[str] | Mapping[str, str], language: str) -> tuple[list[str], list[str]]:
    """(source paths, test paths) among ``files``: code in ``language``, split by :func:`is_test_path`.

    Given the files' text, Python package markers (an ``__init__.py`` with nothing but a
    docstring) are not counted as source, as the generator does not count them.
    """
    extensions = SOURCE_EXTENSIONS.get(language, ())
    source, tests = [], []
    for path in sorted(files):
        if not path.endswith(extensions):
            continue
        if is_test_path(path):
            tests.append(path)
        elif not (language == "python" and path.rsplit("/", 1)[-1] == "__init__.py"
                  and isinstance(files, Mapping) and is_package_marker(files[path])):
            source.append(path)
    return source, tests


def is_package_marker(text: str) -> bool:
    """Whether a Python ``__init__.py`` holds nothing but a docstring, comments and dunder
    metadata (``__version__ = "1.2.0"``)."""
    root = _parser("python").parse(text.encode("utf-8")).root_node
    for child in root.named_children:
        if child.type == "comment":
            continue
        if child.type == "expression_statement" and all(
                c.type == "string" or (c.type == "assignment" and re.fullmatch(
                    r"__\w+__", _text(c.child_by_field_name("left")))) for c in child.named_children):
            continue
        return False
    return True


def count_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


# --- imports -------------------------------------------------------------------------------

@cache
def _parser(language: str) -> Parser:
    if language == "python":
        import tree_sitter_python as grammar
    elif language == "javascript":
        import tree_sitter_javascript as grammar
    else:
        raise ValueError(f"no import reader for {language!r}")
    return Parser(Language(grammar.language()))


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _walk(root: Node) -> Iterable[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def python_import_targets(text: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every import of a Python file as (level, module, imported names); level counts the leading
    dots of a relative import, ``import a.b`` is (0, "a.b", ())."""
    tree = _parser("python").parse(text.encode("utf-8"))
    out: list[tuple[int, str, tuple[str, ...]]] = []
    for node in _walk(tree.root_node):
        if node.type == "import_statement":
            for child in node.named_children:
                target = child.child_by_field_name("name") if child.type == "aliased_import" else child
                if target is not None and target.type == "dotted_name":
                    out.append((0, _text(target), ()))
        elif node.type == "import_from_statement":
            module = node.child_by_field_name("module_name")
            level, name = 0, _text(module)
            if module is not None and module.type == "relative_import":
                prefix = next((c for c in module.children if c.type == "import_prefix"), None)
                level = _text(prefix).count(".")
                dotted = next((c for c in module.children if c.type == "dotted_name"), None)
                name = _text(dotted)
            names = []
            for child in node.children_by_field_name("name"):
                target = child.child_by_field_name("name") if child.type == "aliased_import" else child
                names.append(_text(target))
            out.append((level, name, tuple(names)))
    return out


def javascript_import_targets(text: str) -> list[str]:
    """Every module specifier a JavaScript file loads: ``require('x')``, ``import ... from 'x'``,
    ``export ... from 'x'`` and ``import('x')`` with a literal string."""
    tree = _parser("javascript").parse(text.encode("utf-8"))
    out: list[str] = []
    for node in _walk(tree.root_node):
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            if function is not None and function.type in ("identifier", "import") and _text(function) in (
                    "require", "import") and args is not None and len(args.named_children) == 1:
                spec = _string(args.named_children[0])
                if spec is not None:
                    out.append(spec)
        elif node.type in ("import_statement", "export_statement"):
            spec = _string(node.child_by_field_name("source"))
            if spec is not None:
                out.append(spec)
    return out


def _string(node: Node | None) -> str | None:
    if node is None or node.type != "string":
        return None
    fragments = [c for c in node.named_children if c.type != "escape_sequence"]
    if len(fragments) > 1:
        return None
    return _text(fragments[0]) if fragments else ""


class _PythonResolver:
    """Dotted module names to project files, the way the generated projects' tests find them:
    from the repository root, from ``src/``, and from the importing file's own directory."""

    ROOTS = ("", "src/", "lib/")

    def __init__(self, paths: Iterable[str]):
        self.paths = {p for p in paths if p.endswith(".py")}

    def _file(self, base: str, dotted: str) -> str | None:
        stem = base + dotted.replace(".", "/") if dotted else base.rstrip("/")
        for candidate in (f"{stem}.py", f"{stem}/__init__.py"):
            if candidate.lstrip("/") in self.paths:
                return candidate.lstrip("/")
        return None

    def resolve(self, importer: str, level: int, module: str, names: Sequence[str]) -> list[str]:
        if level:
            package = posixpath.dirname(importer)
            for _ in range(level - 1):
                package = posixpath.dirname(package)
            bases = [f"{package}/" if package else ""]
        else:
            here = posixpath.dirname(importer)
            bases = [*self.ROOTS, *([f"{here}/"] if here else [])]
        for base in bases:
            found = []
            # ``from pkg import mod`` names a submodule when there is one.
            for name in names:
                sub = self._file(base, f"{module}.{name}" if module else name)
                if sub is not None:
                    found.append(sub)
            target = self._file(base, module) if module else None
            if target is not None and (not found or not target.endswith("__init__.py")):
                found.append(target)
            if found:
                return found
        return []


def _resolve_javascript(importer: str, spec: str, paths: set[str]) -> str | None:
    if not spec.startswith((".", "/")):
        return None  # a package or a node: built-in
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec)).lstrip("/")
    for candidate in (joined, *(joined + ext for ext in SOURCE_EXTENSIONS["javascript"]),
                      *(f"{joined}/index{ext}" for ext in SOURCE_EXTENSIONS["javascript"])):
        if candidate in paths:
            return candidate
    return None


def import_graph(files: Mapping[str, str], language: str) -> dict[str, set[str]]:
    """For every code file of ``files``, the project files it imports (edges of the import graph)."""
    extensions = SOURCE_EXTENSIONS.get(language, ())
    code = {p: t for p, t in files.items() if p.endswith(extensions)}
    graph: dict[str, set[str]] = {}
    if language == "python":
        resolver = _PythonResolver(code)
        for path, text in code.items():
            edges: set[str] = set()
            for level, module, names in python_import_targets(text):
                edges.update(resolver.resolve(path, level, module, names))
            edges.discard(path)
            graph[path] = edges
    elif language == "javascript":
        known = set(code)
        for path, text in code.items():
            edges = {t for spec in javascript_import_targets(text)
                     if (t := _resolve_javascript(path, spec, known)) is not None}
            edges.discard(path)
            graph[path] = edges
    else:
        raise ValueError(f"no import reader for {language!r}")
    return graph


def entry_modules(graph: Mapping[str, set[str]], tests: Iterable[str], source: Iterable[str]) -> set[str]:
    """The source modules ``tests`` import directly, looking through test-side helper modules
    (a test importing ``tests/helpers.py`` that imports the code counts as importing it)."""
    source = set(source)
    entries: set[str] = set()
    seen = set(tests)
    queue = deque(tests)
    while queue:
        current = queue.popleft()
        for target in graph.get(current, ()):
            if target in source:
                entries.add(target)
            elif target not in seen:
                seen.add(target)
                queue.append(target)
    return entries


def distances(graph: Mapping[str, set[str]], starts: Iterable[str], within: Iterable[str]) -> dict[str, int]:
    """Breadth-first import hops from ``starts`` (distance 0) over the modules of ``within``."""
    allowed = set(within)
    out = {s: 0 for s in starts if s in allowed}
    queue = deque(out)
    while queue:
        current = queue.popleft()
        for target in graph.get(current, ()):
            if target in allowed and target not in out:
                out[target] = out[current] + 1
                queue.append(target)
    return out


# --- grep ----------------------------------------------------------------------------------

def content_words(statement: str) -> set[str]:
    """The distinct words of a statement an agent would grep for (lower case, no function words)."""
    return {w for w in (m.group(0).lower() for m in _WORD.finditer(statement))
            if len(w) >= MIN_WORD_LENGTH and w not in STOP_WORDS}


def grep_ranking(statement: str, sources: Mapping[str, str],
                 fault_files: Iterable[str]) -> tuple[int | None, float | None, int]:
    """(rank, share, words) of the best-placed fault file among ``sources`` ordered by statement-word hits.

    Rank is 1 + the number of files with strictly more hits; share is the part of the source
    files with at least as many hits (the fault file included). (None, None, words) when no
    fault file is a source file or the statement has no content words.
    """
    words = content_words(statement)
    faults = [p for p in fault_files if p in sources]
    if not words or not faults or not sources:
        return None, None, len(words)
    hits = {path: sum(1 for w in words if w in text.lower()) for path, text in sources.items()}
    best = max(hits[p] for p in faults)
    rank = 1 + sum(1 for score in hits.values() if score > best)
    share = sum(1 for score in hits.values() if score >= best) / len(hits)
    return rank, round(share, 4), len(words)


# --- the profile ---------------------------------------------------------------------------

def test_file_of(test_id: str, candidates: Iterable[str]) -> str | None:
    """The test file a test id (``path::Class::name`` or ``path > suite > name``) belongs to."""
    for path in sorted(candidates, key=len, reverse=True):
        if test_id == path or test_id.startswith((path + "::", path + " > ", path + " ")):
            return path
    return None


def measure(
    *,
    language: str,
    files: Mapping[str, str],
    source_paths: Sequence[str],
    test_paths: Sequence[str],
    fault_files: Sequence[str],
    statement: str,
    oracle_files: Mapping[str, str],
    failing_tests: Sequence[str] = (),
    visible_failing: bool | None = None,
) -> DifficultyProfile:
    """The profile of a workspace (``files``) with its hidden tests (``oracle_files``).

    ``failing_tests`` are the hidden fail-to-pass test ids; when none are given every hidden
    test file counts as a place the symptom shows.
    """
    sources = {p: files[p] for p in source_paths if p in files}
    everything = {**files, **oracle_files}
    graph = import_graph(everything, language)
    hidden = [p for p in oracle_files if p.endswith(SOURCE_EXTENSIONS.get(language, ()))]
    failing_files = sorted({f for t in failing_tests if (f := test_file_of(t, hidden)) is not None}) or hidden
    entries = entry_modules(graph, failing_files, sources)
    reach = distances(graph, entries, sources)
    faults = tuple(sorted(fault_files))
    per_fault = {p: reach.get(p) for p in faults}
    known = [d for d in per_fault.values() if d is not None]
    rank, share, words = grep_ranking(statement, sources, faults)
    return DifficultyProfile(
        source_lines=sum(count_lines(t) for t in sources.values()), source_files=len(sources),
        test_files=len(test_paths), fault_files=faults, causal_distance=min(known) if known else None,
        fault_distances=per_fault, entry_modules=tuple(sorted(entries)), grep_rank=rank, grep_share=share,
        grep_words=words, visible_failing=visible_failing,
    )


def profile_instance(instance: Any, *, fail_to_pass: Sequence[str] = (),
                     failing_on_bug: Sequence[str] | None = None) -> DifficultyProfile:
    """The profile of a :class:`~challenges.engine.instance.GeneratedInstance`.

    ``fail_to_pass`` and ``failing_on_bug`` are what the oracle and visible gates recorded
    (``GateReport``); without the visible record ``visible_failing`` stays unknown (None).
    """
    _, tests = code_paths(instance.files, instance.language)
    return measure(
        language=instance.language, files=instance.files, source_paths=list(instance.source_paths),
        test_paths=tests, fault_files=sorted(instance.gold.files), statement=instance.statement,
        oracle_files=instance.oracle_files, failing_tests=fail_to_pass,
        visible_failing=None if failing_on_bug is None else bool(failing_on_bug),
    )


SUMMARY_MEASURES = ("source_lines", "source_files", "causal_distance", "grep_rank")


def summarise(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Mean and median of each measure over profile records (``DifficultyProfile.to_dict``).

    A measure an instance lacks (no reachable fault, no grep rank) is left out of that
    measure's figures; ``unreachable`` counts the instances whose fault imports cannot reach.
    """
    rows = list(records)
    out: dict[str, Any] = {"instances": len(rows), "mean": {}, "median": {},
                           "unreachable": sum(1 for r in rows if r.get("causal_distance") is None),
                           "visible_failing": sum(1 for r in rows if r.get("visible_failing")),
                           "below_floor": sum(1 for r in rows if r.get("check", {}).get("shortfalls"))}
    for name in SUMMARY_MEASURES:
        values = sorted(r[name] for r in rows if r.get(name) is not None)
        out["mean"][name] = round(sum(values) / len(values), 2) if values else None
        out["median"][name] = _median(values)
    return out


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    middle = len(values) // 2
    return float(values[middle]) if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


__all__ = [
    "DifficultyFloor", "DifficultyProfile", "code_paths", "content_words", "distances", "entry_modules",
    "grep_ranking", "import_graph", "is_package_marker", "is_test_path", "measure", "profile_instance", "shortfalls",
    "summarise",
]
