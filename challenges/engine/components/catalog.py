"""Load and validate the component library (pure: no Django, no network).

Each implementation lives in ``library/<language>/<kind>/<impl>/`` with a
``component.toml`` (the format is described in ``library/README.md``), the module
(``source.py`` / ``source.js``) and its tests (``test_source.py`` /
``source.test.js``).  The tests import the module with exactly one line, which the
composer replaces by the project's own import of the composed module.

Every problem is reported as a ``CatalogError`` naming the file and the field.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from challenges.engine.errors import EngineError
from challenges.engine.ir import ROLES
from challenges.engine.render import literal

LIBRARY = Path(__file__).resolve().parent / "library"


@dataclass(frozen=True)
class LanguageFiles:
    """File names and the single import line of one language's implementations."""

    source: str
    test: str
    import_line: re.Pattern[str]
    factory_case: re.Pattern[str]


LANGUAGES: dict[str, LanguageFiles] = {
    "python": LanguageFiles(
        "source.py", "test_source.py",
        re.compile(r"^from source import (?P<names>[A-Za-z_]\w*(?:, [A-Za-z_]\w*)*)$", re.M),
        re.compile(r"^[a-z][a-z0-9_]*$"),
    ),
    "javascript": LanguageFiles(
        "source.js", "source.test.js",
        re.compile(r"^const \{ (?P<names>[A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)*) \} = require\('\./source'\);$",
                   re.M),
        re.compile(r"^[a-z][A-Za-z0-9]*$"),
    ),
}
# Any line that imports the module other than the canonical one.
_OTHER_IMPORT = re.compile(r"^\s*(?:from\s+source\s+import|import\s+source\b)|require\(\s*['\"]\./source(?:\.js)?['\"]",
                           re.M)
# The character the renderer reads as a literal "{{" (``render.LITERAL_BRACES``): component
# texts are source, so their own "{{" are escaped with it, and it may not occur in them.
_RESERVED = re.compile("[\ue000-\ue004]")
_WORD = re.compile(r"^[a-z][a-z0-9]*$")
_SLUG = re.compile(r"^[a-z][a-z0-9-]*$")
_IDENT = re.compile(r"^[A-Za-z_$][\w$]*$")


class CatalogError(EngineError):
    """The component library holds a malformed implementation."""


@dataclass(frozen=True)
class Component:
    """One implementation of one kind, with its module and test texts."""

    language: str
    kind: str
    impl: str
    summary: str
    role: str
    stem: tuple[str, ...]
    factory: str
    exports: tuple[str, ...]
    topics: tuple[str, ...]
    lines_hint: int
    settings: dict[str, Any]
    message: str
    changelog: str
    source: str = field(repr=False)
    test: str = field(repr=False)
    directory: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}/{self.impl}"

    def test_imports(self) -> tuple[str, ...]:
        """The names the test module imports from the component."""
        match = LANGUAGES[self.language].import_line.search(self.test)
        assert match is not None  # validated on load
        return tuple(match.group("names").split(", "))

    def test_with_imports_placeholder(self) -> str:
        """The test text with its import line replaced by the ``{{imports}}`` placeholder."""
        return LANGUAGES[self.language].import_line.sub("{{imports}}", literal(self.test), count=1)


def _fail(path: Path, name: str, message: str) -> CatalogError:
    return CatalogError("component_invalid", f"{path}: {message}", field=name)


def _get(data: dict[str, Any], path: Path, name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise _fail(path, name, f"missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise _fail(path, name, f"field {name!r} must be {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _strings(data: dict[str, Any], path: Path, name: str, pattern: re.Pattern[str], *, empty: bool = False
             ) -> tuple[str, ...]:
    values = _get(data, path, name, list)
    if not values and not empty:
        raise _fail(path, name, f"field {name!r} must not be empty")
    for value in values:
        if not isinstance(value, str) or not pattern.match(value):
            raise _fail(path, name, f"field {name!r} holds an invalid entry {value!r}")
    return tuple(values)


def _defines(language: str, source: str, name: str) -> bool:
    if language == "python":
        return re.search(rf"^(?:def|class|async def) {re.escape(name)}\b|^{re.escape(name)}\s*[:=]", source,
                         re.M) is not None
    exported = re.search(r"module\.exports\s*=\s*\{([^}]*)\}", source)
    return exported is not None and re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", exported.group(1)) is not None


def load_component(directory: Path, language: str) -> Component:
    """Read and validate one implementation directory."""
    files = LANGUAGES[language]
    toml_path = directory / "component.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise _fail(toml_path, "component.toml", "file is missing") from exc
    except tomllib.TOMLDecodeError as exc:
        raise _fail(toml_path, "component.toml", f"not valid TOML: {exc}") from exc
    kind = _get(data, toml_path, "kind", str)
    if kind != directory.parent.name:
        raise _fail(toml_path, "kind", f"kind {kind!r} differs from its directory {directory.parent.name!r}")
    impl = _get(data, toml_path, "impl", str)
    if impl != directory.name:
        raise _fail(toml_path, "impl", f"impl {impl!r} differs from its directory {directory.name!r}")
    if not _SLUG.match(kind) or not _SLUG.match(impl):
        raise _fail(toml_path, "kind", "kind and impl must be lower-case words joined by hyphens")
    summary = _get(data, toml_path, "summary", str).strip()
    if not summary:
        raise _fail(toml_path, "summary", "summary must not be empty")
    role = _get(data, toml_path, "role", str)
    if role not in ROLES:
        raise _fail(toml_path, "role", f"role {role!r} is not one of {', '.join(ROLES)}")
    stem = _strings(data, toml_path, "stem", _WORD)
    factory = _get(data, toml_path, "factory", str)
    if not files.factory_case.match(factory):
        raise _fail(toml_path, "factory", f"factory {factory!r} is not a {language} function name")
    exports = _strings(data, toml_path, "exports", _IDENT)
    if factory not in exports:
        raise _fail(toml_path, "exports", f"exports must include the factory {factory!r}")
    topics = _strings(data, toml_path, "topics", _WORD, empty=True)
    lines_hint = _get(data, toml_path, "lines_hint", int)
    settings = _get(data, toml_path, "settings", dict)
    for key in settings:
        if not re.match(r"^[a-z][a-z0-9_]*$", key) and not re.match(r"^[a-z][A-Za-z0-9]*$", key):
            raise _fail(toml_path, "settings", f"setting {key!r} is not a plain identifier")
    commit = _get(data, toml_path, "commit", dict)
    message = _get(commit, toml_path, "message", str).strip()
    changelog = _get(commit, toml_path, "changelog", str).strip()
    if not message or not changelog:
        raise _fail(toml_path, "commit", "commit message and changelog must not be empty")

    texts: dict[str, str] = {}
    for name in (files.source, files.test):
        path = directory / name
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise _fail(path, name, "file is missing") from exc
        if _RESERVED.search(texts[name]):
            raise _fail(path, name, "holds a private-use character the project renderer reserves (U+E000–U+E004)")
    source, test = texts[files.source], texts[files.test]
    if _OTHER_IMPORT.search(source):
        raise _fail(directory / files.source, files.source, "the module must not import itself")
    for name in exports:
        if not _defines(language, source, name):
            raise _fail(directory / files.source, "exports", f"{name!r} is listed in exports but not defined")
    import_lines = files.import_line.findall(test)
    other = [m.group(0) for m in _OTHER_IMPORT.finditer(test)]
    if len(import_lines) != 1 or len(other) != 1:
        raise _fail(directory / files.test, files.test, "the tests must import the module with exactly one line "
                    f"of the form {files.import_line.pattern!r}")
    for name in files.import_line.search(test).group("names").split(", "):  # type: ignore[union-attr]
        if name not in exports:
            raise _fail(directory / files.test, files.test, f"the tests import {name!r}, which is not exported")
    return Component(
        language=language, kind=kind, impl=impl, summary=summary, role=role, stem=stem, factory=factory,
        exports=exports, topics=topics, lines_hint=lines_hint, settings=dict(settings), message=message,
        changelog=changelog, source=source, test=test, directory=str(directory),
    )


def load_catalog(language: str, root: Path | None = None) -> tuple[Component, ...]:
    """Every implementation of ``language``, sorted by kind then implementation.

    An absent language directory is an empty catalog.
    """
    if language not in LANGUAGES:
        raise CatalogError("language_unknown", f"no component layout for {language!r}", field="language")
    if root is None:
        return _default_catalog(language)
    return _scan(language, root)


@functools.cache
def _default_catalog(language: str) -> tuple[Component, ...]:
    return _scan(language, LIBRARY)


def _scan(language: str, root: Path) -> tuple[Component, ...]:
    base = root / language
    if not base.is_dir():
        return ()
    found = []
    for kind_dir in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        for impl_dir in sorted(p for p in kind_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            found.append(load_component(impl_dir, language))
    return tuple(found)


def by_kind(components: tuple[Component, ...]) -> dict[str, tuple[Component, ...]]:
    """Implementations grouped by kind, kinds in sorted order."""
    kinds: dict[str, list[Component]] = {}
    for component in components:
        kinds.setdefault(component.kind, []).append(component)
    return {kind: tuple(kinds[kind]) for kind in sorted(kinds)}
