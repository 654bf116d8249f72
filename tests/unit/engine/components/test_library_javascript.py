"""Every JavaScript component passes its own ``node:test`` suite as shipped.

One test walks the whole library so that an empty library passes rather than skips.
"""

from __future__ import annotations

import shutil
import subprocess

from challenges.engine.components.catalog import load_catalog


def test_every_component_passes_its_tests_in_place():
    components = load_catalog("javascript")
    assert all(c.language == "javascript" for c in components)
    if components:
        assert shutil.which("node") is not None, "node is required to run the JavaScript component tests"
    failures = []
    for component in components:
        proc = subprocess.run([shutil.which("node"), "--test", "source.test.js"], cwd=component.directory,
                              capture_output=True, text=True, timeout=120, check=False)
        if proc.returncode != 0 or "# pass 0" in proc.stdout:
            failures.append(f"{component.key}:\n{(proc.stdout + proc.stderr)[-2000:]}")
    assert not failures, "\n\n".join(failures)
