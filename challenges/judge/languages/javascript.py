"""JavaScript as a probe language: node:test files compiled by ``javascript_compiler``, run by
``drivers/probe_runner.cjs`` with ``drivers/probe_runtime.cjs``."""

from __future__ import annotations

import os

from challenges.judge.languages.base import CompiledFile, ProbeLanguage, register


class JavaScript(ProbeLanguage):
    name = "javascript"
    # Bump when probes or their sites change: sealed kits record the version they were made with.
    compiler_version = "javascript-1"
    driver_files = ("probe_runner.cjs", "probe_runtime.cjs")

    def compile(self, path: str, source: str, *, first_site: int) -> CompiledFile:
        # The compiler (and its parser) loads only at release: evaluations never need it.
        from challenges.judge.languages.javascript_compiler import compile_javascript

        return compile_javascript(path, source, first_site=first_site)

    def argv(self, *, runner_dir: str, interpreter: str, record_fd: int, paths: list[str]) -> list[str]:
        return [interpreter, os.path.join(runner_dir, "probe_runner.cjs"), str(record_fd), *paths]

    def interpreter(self, layout, sandboxed: bool) -> str | None:
        return layout.sandbox_node() if sandboxed else layout.node_path


register(JavaScript())
