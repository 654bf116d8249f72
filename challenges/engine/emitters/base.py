"""Emitter base class: one per target language.

An emitter owns everything language-specific that is *not* the template's
business logic: where each module lives under a structural variant, how project
imports are written, test file naming, the project scaffolding (README, build
file, configuration, changelog, .gitignore, package markers), how the visible
and hidden suites are run, and the static checks of release gate 5.

Adding TypeScript, Go, Rust or Java means subclassing ``Emitter`` and
registering it with ``@register_emitter``; nothing else in the engine changes.
"""

from __future__ import annotations

import abc
import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from challenges.engine.errors import TemplateError
from challenges.engine.ir import Module

# Directory (relative to the source root) of each role under each structural
# variant.  "{domain}" is replaced with the entity directory of the lexicon.
LAYOUTS: dict[str, dict[str, str]] = {
    "flat": {},
    "nested": {
        "model": "core", "errors": "core", "config": "core", "util": "lib",
        "storage": "storage", "cache": "storage", "service": "services",
        "api": "web", "events": "events",
    },
    "domain-driven": {
        "model": "{domain}", "service": "{domain}", "storage": "{domain}", "api": "{domain}",
        "events": "{domain}", "errors": "common", "config": "common", "util": "common",
        "cache": "common",
    },
    "layer-driven": {
        "model": "domain", "errors": "domain", "service": "application", "events": "application",
        "storage": "infrastructure", "cache": "infrastructure", "util": "shared",
        "config": "shared", "api": "interfaces",
    },
}


@dataclass(frozen=True)
class Release:
    version: str
    date: str
    entries: tuple[str, ...]


@dataclass(frozen=True)
class ProjectInfo:
    """Project-level facts the scaffolding needs (stable across history)."""

    name: str  # distribution / package name (lower snake)
    summary: str
    domain: str
    structure: str
    domain_dir: str
    settings: dict[str, object]
    readme_sections: tuple[tuple[str, str], ...] = ()
    readme_usage: str = ""


@dataclass(frozen=True)
class ScaffoldState:
    """The evolving part of the scaffolding at one point of history."""

    version: str
    releases: tuple[Release, ...] = ()
    unreleased: tuple[str, ...] = ()
    source_paths: tuple[str, ...] = ()
    docs_complete: bool = True
    settings: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class LintProblem:
    path: str
    message: str


class Emitter(abc.ABC):
    """Language back end.  Paths are POSIX strings relative to the repository root."""

    language: str
    source_ext: str
    tech_stack: tuple[str, ...]
    # The program that runs this language's tests, when it is not the Python running us.
    runtime: str | None = None

    def available(self) -> bool:
        """Whether this machine can run (and so validate) code emitted in this language."""
        import shutil

        return self.runtime is None or shutil.which(self.runtime) is not None

    # -- layout ---------------------------------------------------------
    @abc.abstractmethod
    def source_root(self, info: ProjectInfo) -> str:
        """Directory holding the source modules ("coldtrack" for Python, "src" for JS)."""

    def module_dir(self, module: Module, info: ProjectInfo) -> str:
        layout = LAYOUTS.get(info.structure)
        if layout is None:
            raise TemplateError("structure_unknown", f"unknown structure {info.structure!r}", field="structure")
        sub = layout.get(module.role, "")
        if info.structure not in ("flat",) and module.role not in layout:
            raise TemplateError("role_unknown", f"role {module.role!r} has no directory", field="role")
        sub = sub.replace("{domain}", info.domain_dir)
        root = self.source_root(info)
        return str(PurePosixPath(root) / sub) if sub else root

    def module_path(self, module: Module, info: ProjectInfo) -> str:
        if module.test:
            return self.test_path(module)
        return f"{self.module_dir(module, info)}/{module.stem}{self.source_ext}"

    @abc.abstractmethod
    def test_path(self, module: Module) -> str:
        """Path of a (visible or hidden) test module."""

    @abc.abstractmethod
    def render_imports(self, module: Module, paths: dict[str, str], info: ProjectInfo) -> str:
        """Project import statements of ``module`` given every module key's path."""

    def module_names(self, path: str) -> dict[str, str]:
        """Per-module placeholder values (e.g. how to reach the repository root)."""
        depth = len(PurePosixPath(path).parts) - 1
        return {"root_parents": str(depth), "root_rel": "/".join([".."] * depth) or "."}

    # -- scaffolding ----------------------------------------------------
    @abc.abstractmethod
    def scaffold(self, info: ProjectInfo, state: ScaffoldState) -> dict[str, str]:
        """README, build file, configuration, changelog, .gitignore, package markers."""

    @abc.abstractmethod
    def test_command(self) -> str:
        """The command a developer types to run the visible suite (for the README)."""

    # -- gate 5 ---------------------------------------------------------
    @abc.abstractmethod
    def lint(self, workdir: Path, paths: list[str]) -> list[LintProblem]:
        """Static checks of generated source (no execution of generated code)."""

    # -- shared helpers -------------------------------------------------
    @staticmethod
    def settings_json(settings: dict[str, object]) -> str:
        return json.dumps(settings, indent=2, sort_keys=False) + "\n"

    @staticmethod
    def changelog(info: ProjectInfo, state: ScaffoldState) -> str:
        lines = ["# Changelog", "", "All notable changes to this project are documented here.", ""]
        if state.unreleased:
            lines += ["## [Unreleased]", ""] + [f"- {entry}" for entry in state.unreleased] + [""]
        for release in reversed(state.releases):
            lines += [f"## [{release.version}] - {release.date}", ""]
            lines += [f"- {entry}" for entry in release.entries] + [""]
        return "\n".join(lines).rstrip("\n") + "\n"

    def readme(self, info: ProjectInfo, state: ScaffoldState, *, install: str) -> str:
        lines = [f"# {info.name}", "", info.summary.strip(), ""]
        if state.docs_complete:
            for heading, body in info.readme_sections:
                lines += [f"## {heading}", "", body.strip(), ""]
            if info.readme_usage:
                lines += ["## Usage", "", info.readme_usage.strip(), ""]
        lines += ["## Configuration", ""]
        settings = state.settings or info.settings
        lines += ["Settings are read from `config/settings.json`:", ""]
        lines += ["| key | default |", "| --- | --- |"]
        lines += [f"| `{key}` | `{json.dumps(value)}` |" for key, value in settings.items()]
        lines += ["", "## Development", "", install.strip(), "", "Run the test suite with:", "",
                  "```", self.test_command(), "```", ""]
        return "\n".join(lines)


_EMITTERS: dict[str, type[Emitter]] = {}


def register_emitter(cls: type[Emitter]) -> type[Emitter]:
    _EMITTERS[cls.language] = cls
    return cls


def get_emitter(language: str) -> Emitter:
    from challenges.engine.emitters import javascript, python  # noqa: F401  (registration)

    cls = _EMITTERS.get(language)
    if cls is None:
        raise TemplateError("language_unknown", f"no emitter for {language!r}", field="language")
    return cls()


def emitter_languages() -> tuple[str, ...]:
    get_emitter("python")
    return tuple(sorted(_EMITTERS))
