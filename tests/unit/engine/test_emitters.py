from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from challenges.engine.emitters import ProjectInfo, ScaffoldState, get_emitter
from challenges.engine.emitters.base import Release
from challenges.engine.errors import TemplateError
from challenges.engine.ir import Import, Module


def info(structure: str) -> ProjectInfo:
    return ProjectInfo(name="coldtrack", summary="Tracks shipments.", domain="cold chain", structure=structure,
                       domain_dir="shipments", settings={"page_size": 20})


MODULES = {
    "store": Module("store", "repository", "", role="storage"),
    "svc": Module("svc", "shipments", "", role="service", imports=(Import("store", ("Repo",)),)),
    "util": Module("util", "keys", "", role="util"),
}


@pytest.mark.parametrize(("structure", "expected"), [
    ("flat", {"store": "coldtrack/repository.py", "svc": "coldtrack/shipments.py", "util": "coldtrack/keys.py"}),
    ("nested", {"store": "coldtrack/storage/repository.py", "svc": "coldtrack/services/shipments.py",
                "util": "coldtrack/lib/keys.py"}),
    ("domain-driven", {"store": "coldtrack/shipments/repository.py", "svc": "coldtrack/shipments/shipments.py",
                       "util": "coldtrack/common/keys.py"}),
    ("layer-driven", {"store": "coldtrack/infrastructure/repository.py",
                      "svc": "coldtrack/application/shipments.py", "util": "coldtrack/shared/keys.py"}),
])
def test_python_layout_per_structure(structure, expected):
    emitter = get_emitter("python")
    assert {k: emitter.module_path(m, info(structure)) for k, m in MODULES.items()} == expected


def test_python_imports_are_absolute_and_packages_get_markers():
    emitter = get_emitter("python")
    inf = info("nested")
    paths = {k: emitter.module_path(m, inf) for k, m in MODULES.items()}
    assert emitter.render_imports(MODULES["svc"], paths, inf) == "from coldtrack.storage.repository import Repo"
    files = emitter.scaffold(inf, ScaffoldState(version="0.2.0", source_paths=tuple(paths.values()),
                                                releases=(Release("0.2.0", "2025-01-02", ("Added.",)),)))
    assert {"coldtrack/__init__.py", "coldtrack/storage/__init__.py", "coldtrack/services/__init__.py",
            "coldtrack/lib/__init__.py", "tests/__init__.py"} <= set(files)
    assert '__version__ = "0.2.0"' in files["coldtrack/__init__.py"]
    assert 'version = "0.2.0"' in files["pyproject.toml"]
    changelog = files[emitter.changelog_path(inf)]
    assert "0.2.0" in changelog and "2025-01-02" in changelog and "Added." in changelog
    assert json.loads(files["config/settings.json"]) == {"page_size": 20}
    assert "python -m unittest" in files["README.md"]


def test_javascript_imports_are_relative_requires():
    emitter = get_emitter("javascript")
    inf = info("layer-driven")
    paths = {k: emitter.module_path(m, inf) for k, m in MODULES.items()}
    assert paths["svc"] == "src/application/shipments.js"
    assert emitter.render_imports(MODULES["svc"], paths, inf) == \
        "const { Repo } = require('../infrastructure/repository');"
    flat = info("flat")
    flat_paths = {k: emitter.module_path(m, flat) for k, m in MODULES.items()}
    assert emitter.render_imports(MODULES["svc"], flat_paths, flat) == "const { Repo } = require('./repository');"
    package = json.loads(emitter.scaffold(inf, ScaffoldState(version="1.0.0"))["package.json"])
    assert package["scripts"]["test"] == "node --test" and package["version"] == "1.0.0"
    assert emitter.test_path(Module("t", "cache", "", test=True)) == "test/cache.test.js"


def test_unknown_structure_is_a_named_error():
    with pytest.raises(TemplateError) as exc:
        get_emitter("python").module_path(MODULES["store"], info("spiral"))
    assert exc.value.code == "structure_unknown"


def test_lint_reports_problems(tmp_path: Path):
    (tmp_path / "ok.py").write_text("import os\n\nprint(os.sep)\n")
    (tmp_path / "unused.py").write_text("import os\n")
    (tmp_path / "broken.py").write_text("def f(:\n")
    problems = get_emitter("python").lint(tmp_path, ["ok.py", "unused.py", "broken.py"])
    text = " ".join(f"{p.path} {p.message}" for p in problems)
    assert "F401" in text and "broken.py does not compile" in text and "ok.py" not in text
    (tmp_path / "good.js").write_text("'use strict';\nmodule.exports = { a: 1 };\n")
    (tmp_path / "bad.js").write_text("function (\n")
    js = get_emitter("javascript").lint(tmp_path, ["good.js", "bad.js"])
    assert [p.path for p in js] == ["bad.js"]


def test_changelog_and_readme_follow_the_drawn_documentation_style():
    emitter = get_emitter("python")
    state = ScaffoldState(version="0.2.0", releases=(Release("0.2.0", "2025-01-02", ("Added.",)),),
                          settings={"page_size": 20})
    seen_formats, seen_layouts = set(), set()
    for seed in range(40):
        inf = dataclasses.replace(info("flat"), style_seed=seed, settings={"page_size": 20})
        files = emitter.scaffold(inf, state)
        style = inf.docs
        changelog = files[emitter.changelog_path(inf)]
        expected = {"keep-a-changelog": "## [0.2.0] - 2025-01-02", "plain": "## 0.2.0 (2025-01-02)",
                    "news": "coldtrack 0.2.0 - 2025-01-02\n----"}[style.changelog]
        assert expected in changelog
        assert "page_size" in files["README.md"] and "config/settings.json" in files
        assert inf.summary.strip() not in files["pyproject.toml"] or len(inf.summary) < 40
        seen_formats.add(style.changelog)
        seen_layouts.add((style.layout, style.config_form, style.setext))
    assert len(seen_formats) == 3 and len(seen_layouts) >= 8
    no_settings = emitter.scaffold(dataclasses.replace(info("flat"), settings={}), ScaffoldState(version="0.1.0"))
    assert "config/settings.json" not in no_settings and "settings.json" not in no_settings["README.md"]
