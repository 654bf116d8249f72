"""JavaScript (Node, CommonJS) emitter: sources under ``src/``, ``node:test`` tests."""

from __future__ import annotations

import json
import posixpath
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath

from challenges.engine.emitters.base import (
    Emitter,
    LintProblem,
    ProjectInfo,
    ScaffoldState,
    register_emitter,
)
from challenges.engine.errors import EngineError
from challenges.engine.ir import Module

GITIGNORE = """node_modules/
coverage/
.nyc_output/
npm-debug.log*
.env
dist/
"""
LINT_WORKERS = 2


@register_emitter
class JavaScriptEmitter(Emitter):
    language = "javascript"
    source_ext = ".js"
    tech_stack = ("javascript", "node", "node:test")
    runtime = "node"

    def source_root(self, info: ProjectInfo) -> str:
        return "src"

    def test_path(self, module: Module) -> str:
        return f"test/{module.stem}.test.js"

    def render_imports(self, module: Module, paths: dict[str, str], info: ProjectInfo) -> str:
        here = PurePosixPath(self.module_path(module, info)).parent
        lines = []
        for imp in module.imports:
            target = PurePosixPath(paths[imp.module]).with_suffix("")
            rel = posixpath.relpath(str(target), str(here))
            if not rel.startswith("."):
                rel = "./" + rel
            lines.append(f"const {{ {', '.join(imp.names)} }} = require('{rel}');")
        return "\n".join(lines)

    def test_command(self) -> str:
        return "npm test"

    def scaffold(self, info: ProjectInfo, state: ScaffoldState) -> dict[str, str]:
        package = {
            "name": info.name.replace("_", "-"),
            "version": state.version,
            "description": info.short_description,
            "private": True,
            "type": "commonjs",
            "scripts": {"test": "node --test"},
            "engines": {"node": ">=18"},
        }
        return {
            **self.settings_files(state.settings or info.settings),
            "package.json": json.dumps(package, indent=2) + "\n",
            "README.md": self.readme(
                info, state,
                install="Requires Node.js 18 or newer; there are no runtime dependencies.",
            ),
            self.changelog_path(info): self.changelog(info, state),
            ".gitignore": GITIGNORE,
        }

    def lint(self, workdir: Path, paths: list[str]) -> list[LintProblem]:
        node = shutil.which("node")
        if node is None:
            raise EngineError("node_missing", "node is required to check generated JavaScript", field="language")
        js_paths = [p for p in paths if p.endswith(".js")]

        def check(rel: str) -> LintProblem | None:
            proc = subprocess.run([node, "--check", rel], cwd=workdir, capture_output=True,
                                  text=True, timeout=30, check=False)
            if proc.returncode != 0:
                return LintProblem(rel, f"node --check: {proc.stderr.strip()[:500]}")
            return None

        with ThreadPoolExecutor(LINT_WORKERS) as pool:
            return [p for p in pool.map(check, js_paths) if p is not None]
