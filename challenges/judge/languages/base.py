"""One small unit per language: compile hidden test files into probes, and run them.

A ``ProbeLanguage`` knows how to turn an ordinary test file of its language into a probe
(every assertion an observation of its actual side, the expected side removed), and how to
start its probe driver in the sandbox. Languages register themselves; the judge asks the
registry. (A language plugin of the generator can hold its ``ProbeLanguage`` later.)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from challenges.judge.kit import Site


class CompileError(Exception):
    """A hidden test file the probe compiler cannot turn into a probe (fail closed)."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


@dataclass(frozen=True)
class CompiledFile:
    path: str
    source: str
    sites: tuple[Site, ...]


class ProbeLanguage(ABC):
    """How one language compiles test files into probes and runs them in the sandbox."""

    name: str
    compiler_version: str
    # Sandbox path -> file name in challenges/sandbox/drivers, copied read-only into /opt/runner.
    driver_files: tuple[str, ...]

    @abstractmethod
    def compile(self, path: str, source: str, *, first_site: int) -> CompiledFile:
        """The probe of one test file; site ids start at ``first_site``."""

    @abstractmethod
    def argv(self, *, runner_dir: str, interpreter: str, record_fd: int, paths: list[str]) -> list[str]:
        """Command line of the probe driver inside the sandbox."""

    @abstractmethod
    def interpreter(self, layout, sandboxed: bool) -> str | None:
        """Path of the language's interpreter (inside the sandbox when ``sandboxed``)."""


_REGISTRY: dict[str, ProbeLanguage] = {}


def register(language: ProbeLanguage) -> ProbeLanguage:
    _REGISTRY[language.name] = language
    return language


def get_language(name: str) -> ProbeLanguage:
    if not _REGISTRY:
        from challenges.judge.languages import javascript, python  # noqa: F401 - registers them
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"no probe compiler for language {name!r}") from None


def languages() -> tuple[str, ...]:
    get_language("python")
    return tuple(sorted(_REGISTRY))
