"""The realism gate: what makes a generated project recognisable as synthetic, checked
mechanically (pure; no sandbox, no database).

Each check returns refusals with a reason a reader can act on:

- ``grammar``: articles and number agreement in the project's prose (README, changelog,
  comments, docstrings, commit messages; not string literals, which are often data), see
  ``challenges.engine.prose``;
- ``error_fit``: an error class named after something specific (``InvalidTaxCode``,
  ``BedDoubleBooked``) raised with a message about something else (settings, a priority);
- ``warning_every_call``: a ``logger.warning`` that runs on every call of a function
  (a statement of the function body itself, not under a condition or handler);
- ``dead_setting``: a key of ``config/settings.json`` that no source file reads;
- ``identity_reuse``: a contributor whose name or surname another project already uses
  (``used_names``/``used_surnames``, from the persistent registry);
- ``time_order``: commit, reflog and working-tree times that contradict each other (a
  file older than the commit that last changed it, a packing time before the last
  reflog entry, times going backwards).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection, Iterable
from typing import Any

from challenges.engine.naming import generic_error, human, words
from challenges.engine.prose import grammar_problems, prose_of

# Words of an error class name that say what kind of failure it is, not what it is about.
GENERIC_ERROR_WORDS = frozenset({
    "invalid", "unknown", "not", "found", "no", "none", "already", "duplicate", "double", "error", "exception",
    "failed", "failure", "unavailable", "down", "exhausted", "conflict", "available", "over", "too", "many",
    "out", "of", "is", "the", "a", "an", "missing", "bad", "full", "limit", "exceeded", "unreachable", "taken",
    "offline", "closed", "locked", "expired", "empty", "blocked", "rejected", "refused", "timeout", "lost",
    "in", "use", "left", "busy", "overbooked", "booked", "held", "assigned", "reserved", "sold",
    "does", "exist", "exists", "key", "validation", "request", "input", "value", "entry", "capacity",
    "reached", "service", "backend", "upstream",
})
_PY_RAISE = re.compile(r"raise\s+([A-Z]\w*)\(\s*(f?)([\"'])((?:(?!\3).)*)\3", re.S)
_JS_THROW = re.compile(r"throw\s+new\s+([A-Z]\w*)\(\s*([`'\"])((?:(?!\2).)*)\2", re.S)
MAX_REASONS_PER_CHECK = 5
# Function names of failure handlers (``fail``, ``on_error``, ``reject_batch``...).
FAILURE_HANDLER = re.compile(r"fail|error|reject|abort|dead|evict|expire|timeout|lost|drop", re.I)


def _stem(word: str) -> str:
    return word[:5] if len(word) > 5 else word


def _specific(cls: str) -> set[str]:
    return {_stem(w) for w in words(cls) if w not in GENERIC_ERROR_WORDS and len(w) > 2}


def error_fit_problems(files: dict[str, str], error_names: Collection[str]) -> list[str]:
    """Raises of the lexicon's error classes whose message is about something the name is not."""
    problems: list[str] = []
    names = set(error_names)
    for path, text in sorted(files.items()):
        if path.endswith(".py"):
            found = [(m.group(1), m.group(4)) for m in _PY_RAISE.finditer(text)]
        elif path.endswith(".js"):
            found = [(m.group(1), m.group(3)) for m in _JS_THROW.finditer(text)]
        else:
            continue
        for cls, message in found:
            if cls not in names:
                continue
            specific = _specific(cls)
            said = {_stem(w) for w in words(re.sub(r"\$?\{[^}]*\}|%[sdrf]", " ", message))}
            if specific and said and not specific & said:
                problems.append(f"{path}: {cls} is raised for {message.strip()[:60]!r}, which is not about "
                                f"{' '.join(w for w in words(cls) if _stem(w) in specific)}")
    return problems


class _WarningEveryCall(ast.NodeVisitor):
    def __init__(self) -> None:
        self.hits: list[tuple[str, int]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for stmt in node.body:
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if FAILURE_HANDLER.search(node.name):
                break  # a function that handles a failure may well warn each time it runs
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr in ("warning", "warn", "error") \
                    and isinstance(call.func.value, ast.Name) and call.func.value.id in ("logger", "log", "LOG"):
                self.hits.append((node.name, stmt.lineno))
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef


_JS_FUNCTION = re.compile(r"^(?P<indent>[ \t]*)(?:async\s+)?(?:function\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$")
_JS_WARN = re.compile(r"^(?:console|(?:this\.)?_?logger)(?:\?\.|\.)(?:warn|error)\(")


def _js_warnings(path: str, text: str) -> list[str]:
    """JavaScript functions and methods whose body itself (not a branch) logs a warning."""
    lines = text.splitlines()
    problems = []
    for index, line in enumerate(lines):
        m = _JS_FUNCTION.match(line)
        if not m or m.group("name") in ("if", "for", "while", "switch", "catch") \
                or FAILURE_HANDLER.search(m.group("name")):
            continue
        indent = m.group("indent")
        for number, body in enumerate(lines[index + 1:], start=index + 2):
            if body.startswith(indent + "}") and not body.startswith(indent + " "):
                break
            stripped = body[len(indent):]
            if stripped[:1] in (" ", "\t") and stripped.strip() and \
                    len(stripped) - len(stripped.lstrip()) == 2 and _JS_WARN.match(stripped.strip()):
                problems.append(f"{path}:{number}: {m.group('name')}() logs a warning on every call")
    return problems


def warning_problems(files: dict[str, str], sources: Iterable[str]) -> list[str]:
    """Warnings logged unconditionally by a function of the shipped source."""
    problems: list[str] = []
    for path in sorted(sources):
        if path.endswith(".js") and path in files:
            problems += _js_warnings(path, files[path])
            continue
        if not path.endswith(".py") or path not in files:
            continue
        try:
            tree = ast.parse(files[path])
        except SyntaxError:
            continue
        visitor = _WarningEveryCall()
        visitor.visit(tree)
        problems += [f"{path}:{line}: {name}() logs a warning on every call" for name, line in visitor.hits]
    return problems


def dead_settings(files: dict[str, str], sources: Iterable[str]) -> list[str]:
    """Keys of ``config/settings.json`` that no source file mentions."""
    raw = files.get("config/settings.json")
    if raw is None:
        return []
    try:
        settings = json.loads(raw)
    except json.JSONDecodeError:
        return ["config/settings.json is not JSON"]
    texts = [files[p] for p in sources if p in files]
    return [f"config/settings.json: {key!r} is documented but no source reads it"
            for key in settings if not any(key in text for text in texts)]


def identity_problems(people: Iterable[str], used_names: Collection[str], used_surnames: Collection[str]) -> list[str]:
    names = {n.lower() for n in used_names}
    surnames = {n.lower() for n in used_surnames}
    problems = []
    for name in people:
        if name.lower() in names:
            problems.append(f"contributor {name!r} already appears in another project")
        elif name.split()[-1].lower() in surnames:
            problems.append(f"the surname of {name!r} already appears in another project")
    return problems


def time_problems(history: Any) -> list[str]:
    from challenges.engine.history import archive_mtime, member_times

    problems: list[str] = []
    commits = history.commits
    for earlier, later in zip(commits, commits[1:], strict=False):
        if later.timestamp < earlier.timestamp:
            problems.append(f"commit {later.id[:10]} is dated before the commit it follows")
    for commit in commits:
        if commit.commit_time and commit.commit_time < commit.timestamp:
            problems.append(f"commit {commit.id[:10]} was committed before it was written")
    reflog = [int(line.split("\t")[0].split()[-2]) for line in history.reflog_head]
    if reflog != sorted(reflog):
        problems.append("the reflog goes back in time")
    last_change: dict[str, int] = {}
    for commit in commits:
        for path in commit.changed:
            last_change[path] = max(commit.timestamp, commit.commit_time)
    packed = archive_mtime(history)
    first = commits[0].timestamp if commits else 0
    for path, when in member_times(history).items():
        if path in last_change and when < last_change[path]:
            problems.append(f"{path} is older than the commit that last changed it")
        if when > packed or when < first:
            problems.append(f"{path} has a time outside the project's history")
    if reflog and packed < max(reflog):
        problems.append("the workspace was packed before its last reflog entry")
    return problems


def check(instance: Any, *, lexicon: Any | None = None, used_names: Collection[str] = (),
          used_surnames: Collection[str] = ()) -> tuple[list[str], dict[str, int]]:
    """Every realism check on ``instance``: (reasons, problem count per check)."""
    from challenges.engine.generate import resolve_lexicon
    from challenges.engine.naming import pascal

    lex = resolve_lexicon(instance.draw.lexicon_key, lexicon if lexicon is not None else instance.lexicon or None)
    nouns = [(human(lex.noun(role)), human(lex.noun(role, plural=True)))
             for role in ("entity", "owner", "item", "resource", "event")]
    grammar: list[str] = []
    for path, text in sorted(instance.files.items()):
        grammar += [f"{path}: {p}" for p in grammar_problems(prose_of(path, text), nouns)]
    for commit in instance.history.commits:
        grammar += [f"commit {commit.id[:10]}: {p}" for p in grammar_problems(commit.message, nouns)]
    roles = ("not_found", "conflict", "invalid", "exhausted", "unavailable")
    error_names = {pascal(lex.error(role)) for role in roles}
    error_names |= {generic_error(role, instance.draw.history_seed) for role in roles}
    sources = list(instance.source_paths)
    people = sorted({p.name for p in instance.history.people})
    found = {
        "grammar": grammar,
        "error_fit": error_fit_problems({p: instance.files[p] for p in sources}, error_names),
        "warning_every_call": warning_problems(instance.files, sources),
        "dead_setting": dead_settings(instance.files, sources),
        "identity_reuse": identity_problems(people, used_names, used_surnames),
        "time_order": time_problems(instance.history),
    }
    reasons = [f"{name}: {p}" for name, problems in found.items() for p in problems[:MAX_REASONS_PER_CHECK]]
    return reasons, {name: len(problems) for name, problems in found.items()}
