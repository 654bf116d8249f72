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
import random
import re
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


README_LAYOUTS = ("classic", "getting-started", "terse")
CONFIG_FORMS = ("table", "list", "json")
CHANGELOG_FORMATS = ("keep-a-changelog", "plain", "news")


@dataclass(frozen=True)
class DocStyle:
    """One project's documentation habits."""

    layout: str
    config_form: str
    changelog: str
    setext: bool
    usage_title: str
    config_title: str
    description: str  # "clause": the summary's opening clause; "domain": "<Domain> tools"
    package_doc: str  # "none", "name", "summary"

    @classmethod
    def draw(cls, seed: int) -> DocStyle:
        rng = random.Random(seed ^ 0xD0C5)
        return cls(rng.choice(README_LAYOUTS), rng.choice(CONFIG_FORMS), rng.choice(CHANGELOG_FORMATS),
                   rng.random() < 0.25, rng.choice(("Usage", "Example", "Quick start", "Using it")),
                   rng.choice(("Configuration", "Settings", "Configuring")), rng.choice(("clause", "domain")),
                   rng.choice(("none", "name", "summary")))

    def heading(self, title: str, level: int) -> list[str]:
        if self.setext:
            return [title, ("=" if level == 1 else "-") * len(title)]
        return [f"{'#' * level} {title}"]


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
    # Seeds the project's documentation habits (README layout, changelog format, how
    # the package describes itself); drawn with the history seed.
    style_seed: int = 0

    @property
    def docs(self) -> DocStyle:
        return DocStyle.draw(self.style_seed)

    @property
    def short_description(self) -> str:
        """The package description: the summary's opening clause, not the whole tagline."""
        first = self.summary.strip().splitlines()[0] if self.summary.strip() else self.name
        clause = re.split(r"[;:]|, (?:for|so|and|which|with|it)\b|\. ", first, maxsplit=1)[0].strip().rstrip(".")
        if self.docs.description == "domain" or len(clause) < 12:
            return f"{self.domain[:1].upper()}{self.domain[1:]} tools"
        return clause


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

    @classmethod
    def settings_files(cls, settings: dict[str, object]) -> dict[str, str]:
        """``config/settings.json`` when the project has settings; none at all otherwise."""
        return {"config/settings.json": cls.settings_json(settings)} if settings else {}

    @staticmethod
    def changelog(info: ProjectInfo, state: ScaffoldState) -> str:
        """The changelog in the project's format (Keep a Changelog, plain, or a NEWS file)."""
        fmt = info.docs.changelog
        if fmt == "keep-a-changelog":
            lines = ["# Changelog", "", "All notable changes to this project are documented here.", ""]
            if state.unreleased:
                lines += ["## [Unreleased]", ""] + [f"- {entry}" for entry in state.unreleased] + [""]
            for release in reversed(state.releases):
                lines += [f"## [{release.version}] - {release.date}", ""]
                lines += [f"- {entry}" for entry in release.entries] + [""]
        elif fmt == "plain":
            lines = ["# Changes", ""]
            if state.unreleased:
                lines += ["## Next", ""] + [f"* {entry}" for entry in state.unreleased] + [""]
            for release in reversed(state.releases):
                lines += [f"## {release.version} ({release.date})", ""]
                lines += [f"* {entry}" for entry in release.entries] + [""]
        else:  # news: setext headings, newest first, no link syntax
            lines = []
            if state.unreleased:
                lines += ["Unreleased", "----------", ""] + [f"- {entry}" for entry in state.unreleased] + [""]
            for release in reversed(state.releases):
                title = f"{info.name} {release.version} - {release.date}"
                lines += [title, "-" * len(title), ""] + [f"- {entry}" for entry in release.entries] + [""]
            if not lines:
                lines = ["Nothing released yet."]
        return "\n".join(lines).rstrip("\n") + "\n"

    def changelog_path(self, info: ProjectInfo) -> str:
        return "NEWS.md" if info.docs.changelog == "news" else "CHANGELOG.md"

    def readme(self, info: ProjectInfo, state: ScaffoldState, *, install: str) -> str:
        """The README in one of several layouts real projects use (drawn per project)."""
        style = info.docs
        settings = state.settings or info.settings
        heading = style.heading
        sections: list[tuple[str, str]] = []
        if state.docs_complete:
            sections += [(title, body.strip()) for title, body in info.readme_sections]
            if info.readme_usage:
                sections.append((style.usage_title, info.readme_usage.strip()))
        if settings:
            sections.append((style.config_title, self._settings_text(style.config_form, settings)))
        tests = f"```\n{self.test_command()}\n```"
        if style.layout == "classic":
            sections.append(("Development", f"{install.strip()}\n\nRun the test suite with:\n\n{tests}"))
        elif style.layout == "getting-started":
            sections.insert(0, ("Getting started", install.strip()))
            sections.append(("Running the tests", tests))
        else:  # terse: one short block at the end
            sections.append(("Tests", f"{tests}\n\n{install.strip()}"))
        summary = info.summary.strip()
        lines = heading(info.name, 1) + ["", summary, ""]
        for title, body in sections:
            lines += heading(title, 2) + ["", body, ""]
        return "\n".join(lines)

    @staticmethod
    def _settings_text(form: str, settings: dict[str, object]) -> str:
        if form == "table":
            rows = [f"| `{key}` | `{json.dumps(value)}` |" for key, value in settings.items()]
            return "\n".join(["Settings are read from `config/settings.json`:", "", "| key | default |",
                              "| --- | --- |", *rows])
        if form == "list":
            rows = [f"- `{key}` (default `{json.dumps(value)}`)" for key, value in settings.items()]
            return "\n".join(["`config/settings.json` holds the defaults:", "", *rows])
        body = json.dumps(settings, indent=2)
        return f"Defaults ship in `config/settings.json`; edit that file to change them.\n\n```json\n{body}\n```"


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
