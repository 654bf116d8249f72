"""Python as a probe language: unittest files compiled by ``python_compiler``, run by
``drivers/probe_driver.py`` with ``drivers/probe_runtime.py``."""

from __future__ import annotations

import os

from challenges.judge.languages.base import CompiledFile, ProbeLanguage, register


class Python(ProbeLanguage):
    name = "python"
    # Bump when probes or their sites change: sealed kits record the version they were made with.
    compiler_version = "python-1"
    driver_files = ("probe_driver.py", "probe_runtime.py")

    def compile(self, path: str, source: str, *, first_site: int) -> CompiledFile:
        # The compiler (and its parser) loads only at release: evaluations never need it.
        from challenges.judge.languages.python_compiler import compile_python

        return compile_python(path, source, first_site=first_site)

    def argv(self, *, runner_dir: str, interpreter: str, record_fd: int, paths: list[str]) -> list[str]:
        return [interpreter, "-S", "-B", os.path.join(runner_dir, "probe_driver.py"), str(record_fd), *paths]

    def interpreter(self, layout, sandboxed: bool) -> str | None:
        return layout.sandbox_python() if sandboxed else layout.host_python()


register(Python())
