"""Python emitter: a package at the repository root, stdlib ``unittest`` tests.

The package sits at the root (not under ``src/``) so ``python -m unittest`` run
from the repository root imports it without installation — the sandbox has no
third-party test runner and no network.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path, PurePosixPath

from challenges.engine.emitters.base import (
    Emitter,
    LintProblem,
    ProjectInfo,
    ScaffoldState,
    register_emitter,
)
from challenges.engine.ir import Module

# A neutral rule set (ruff's own defaults), run with --isolated so neither the
# host's nor the generated project's configuration is consulted.
RUFF_RULES = "E4,E7,E9,F"

GITIGNORE = """__pycache__/
*.py[cod]
*.egg-info/
.eggs/
build/
dist/
.venv/
venv/
.coverage
htmlcov/
.mypy_cache/
.pytest_cache/
"""


@register_emitter
class PythonEmitter(Emitter):
    language = "python"
    source_ext = ".py"
    tech_stack = ("python", "unittest", "stdlib")

    def source_root(self, info: ProjectInfo) -> str:
        return info.name

    def test_path(self, module: Module) -> str:
        return f"tests/test_{module.stem}.py"

    @staticmethod
    def dotted(path: str) -> str:
        return ".".join(PurePosixPath(path).with_suffix("").parts)

    def render_imports(self, module: Module, paths: dict[str, str], info: ProjectInfo) -> str:
        lines = []
        for imp in module.imports:
            names = ", ".join(imp.names)
            line = f"from {self.dotted(paths[imp.module])} import {names}"
            if len(line) > 88:
                inner = "".join(f"    {name},\n" for name in imp.names)
                line = f"from {self.dotted(paths[imp.module])} import (\n{inner})"
            lines.append(line)
        return "\n".join(lines)

    def test_command(self) -> str:
        return "python -m unittest discover -s tests -t ."

    def scaffold(self, info: ProjectInfo, state: ScaffoldState) -> dict[str, str]:
        files: dict[str, str] = {
            "pyproject.toml": self._pyproject(info, state),
            "README.md": self.readme(
                info, state,
                install="Requires Python 3.10 or newer and no third-party packages. "
                "For an editable install:\n\n```\npython -m pip install -e .\n```",
            ),
            self.changelog_path(info): self.changelog(info, state),
            ".gitignore": GITIGNORE,
            **self.settings_files(state.settings or info.settings),
            "tests/__init__.py": "",
        }
        root = PurePosixPath(info.name)
        packages = {root}
        for path in state.source_paths:
            parent = PurePosixPath(path).parent
            while parent != root and root in parent.parents:
                packages.add(parent)
                parent = parent.parent
        for package in sorted(packages):
            if package == root:
                files[f"{package}/__init__.py"] = self._package_init(info, state)
            else:
                files[f"{package}/__init__.py"] = ""
        return files

    @staticmethod
    def _package_init(info: ProjectInfo, state: ScaffoldState) -> str:
        """The root package: its version, and a docstring in the project's habit (often none)."""
        version = f'__version__ = "{state.version}"\n'
        doc = info.docs.package_doc
        if doc == "name":
            return f'"""The {info.name} package."""\n\n{version}'
        if doc == "summary":
            return f'"""{info.short_description}."""\n\n{version}'
        return version

    @staticmethod
    def _pyproject(info: ProjectInfo, state: ScaffoldState) -> str:
        summary = info.short_description.replace('"', "'")
        return (
            "[build-system]\n"
            'requires = ["setuptools>=68"]\n'
            'build-backend = "setuptools.build_meta"\n\n'
            "[project]\n"
            f'name = "{info.name}"\n'
            f'version = "{state.version}"\n'
            f'description = "{summary}"\n'
            'readme = "README.md"\n'
            'requires-python = ">=3.10"\n'
            "dependencies = []\n\n"
            "[tool.setuptools.packages.find]\n"
            f'include = ["{info.name}*"]\n'
        )

    def lint(self, workdir: Path, paths: list[str]) -> list[LintProblem]:
        problems: list[LintProblem] = []
        py_paths = [p for p in paths if p.endswith(".py")]
        for rel in py_paths:
            source = (workdir / rel).read_text(encoding="utf-8")
            try:
                compile(source, rel, "exec")
            except SyntaxError as exc:
                problems.append(LintProblem(rel, f"does not compile: {exc.msg} (line {exc.lineno})"))
        if not py_paths:
            return problems
        proc = subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--select", RUFF_RULES,
             "--output-format", "concise", "--quiet", *py_paths],
            cwd=workdir, capture_output=True, text=True, timeout=60, check=False,
        )
        if proc.returncode != 0:
            for line in (proc.stdout + proc.stderr).splitlines():
                if line.strip():
                    problems.append(LintProblem(line.split(":", 1)[0], f"ruff: {line.strip()}"))
        return problems
