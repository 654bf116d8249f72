"""Every Python component passes its own tests as shipped, and exports what it declares."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from challenges.engine.components.catalog import load_catalog

COMPONENTS = load_catalog("python")


@pytest.mark.parametrize("component", COMPONENTS, ids=[c.key for c in COMPONENTS])
def test_component_tests_pass_in_place(component):
    proc = subprocess.run([sys.executable, "-B", "-m", "unittest", "test_source"], cwd=component.directory,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Ran 0 tests" not in proc.stderr


@pytest.mark.parametrize("component", COMPONENTS, ids=[c.key for c in COMPONENTS])
def test_component_declares_what_it_defines(component):
    tree = ast.parse(component.source)
    top = {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    assert set(component.exports) <= top
    factory = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == component.factory)
    assert factory.args.args and factory.args.args[0].arg == "settings"
    # Standard library only, and never another component or project module.
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                assert module.split(".")[0] in sys.stdlib_module_names or module == "__future__", module
    # The factory reads its own section and works with nothing configured.
    assert f'"{component.kind}"' in component.source
    namespace: dict = {}
    exec(compile(component.source, str(Path(component.directory) / "source.py"), "exec"), namespace)
    assert namespace[component.factory]({}) is not None
    assert namespace[component.factory]({component.kind: dict(component.settings)}) is not None
    # Every documented setting is read by the module.
    for key in component.settings:
        assert f'"{key}"' in component.source, key


def test_library_passes_the_generated_code_lint():
    paths = [str(Path(c.directory) / name) for c in COMPONENTS for name in ("source.py", "test_source.py")]
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--select",
                           "E4,E7,E9,F", "--quiet", *paths], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
