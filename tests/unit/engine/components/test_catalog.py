"""The catalog loads every implementation and names the file and field of a bad one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from challenges.engine.components.catalog import LIBRARY, CatalogError, by_kind, load_catalog
from challenges.engine.render import literal, render

TOML = """kind = "ids"
impl = "tiny"
summary = "Tiny identifiers"
role = "util"
stem = ["ids"]
factory = "from_settings"
exports = ["Ids", "from_settings"]
topics = []
lines_hint = 10

[settings]
size = 4

[commit]
message = "Add tiny identifiers"
changelog = "Tiny identifiers."
"""
SOURCE = '''class Ids:
    pass


def from_settings(settings):
    return Ids()
'''
TEST = "import unittest\n\nfrom source import Ids\n\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        Ids()\n"


def _write(root: Path, toml: str = TOML, source: str = SOURCE, test: str = TEST) -> Path:
    impl = root / "python" / "ids" / "tiny"
    impl.mkdir(parents=True)
    (impl / "component.toml").write_text(toml)
    (impl / "source.py").write_text(source)
    (impl / "test_source.py").write_text(test)
    return impl


def test_loads_a_valid_component(tmp_path):
    _write(tmp_path)
    (component,) = load_catalog("python", tmp_path)
    assert component.key == "ids/tiny"
    assert component.stem == ("ids",)
    assert component.settings == {"size": 4}
    assert component.test_imports() == ("Ids",)
    assert "{{imports}}" in component.test_with_imports_placeholder()
    assert "from source" not in component.test_with_imports_placeholder()


def test_missing_language_is_an_empty_catalog(tmp_path):
    assert load_catalog("javascript", tmp_path) == ()


@pytest.mark.parametrize(("change", "field", "words"), [
    (('kind = "ids"', 'kind = "uid"'), "kind", "differs from its directory"),
    (('role = "util"', 'role = "helpers"'), "role", "is not one of"),
    (('factory = "from_settings"', 'factory = "FromSettings"'), "factory", "function name"),
    (('exports = ["Ids", "from_settings"]', 'exports = ["Ids"]'), "exports", "must include the factory"),
    (('lines_hint = 10', 'lines_hint = "ten"'), "lines_hint", "must be int"),
    (('summary = "Tiny identifiers"\n', ''), "summary", "missing field"),
    (('stem = ["ids"]', 'stem = ["Ids"]'), "stem", "invalid entry"),
])
def test_bad_toml_names_file_and_field(tmp_path, change, field, words):
    _write(tmp_path, toml=TOML.replace(*change))
    with pytest.raises(CatalogError) as err:
        load_catalog("python", tmp_path)
    assert err.value.field == field
    assert "component.toml" in err.value.message and words in err.value.message


def test_export_not_defined_is_refused(tmp_path):
    _write(tmp_path, source=SOURCE.replace("class Ids", "class Other"))
    with pytest.raises(CatalogError, match="'Ids' is listed in exports but not defined"):
        load_catalog("python", tmp_path)


def test_tests_must_import_with_one_line(tmp_path):
    _write(tmp_path, test=TEST.replace("from source import Ids", "from source import Ids\nimport source"))
    with pytest.raises(CatalogError, match="exactly one line"):
        load_catalog("python", tmp_path)


@pytest.mark.parametrize("text", ['TEMPLATE = "{{name}}"', 'PATTERN = rf"{prefix}\\d{{8}}"', 'X = "{{[}}"'])
def test_braces_in_a_component_reach_the_project_as_written(tmp_path, text):
    _write(tmp_path, source=SOURCE + f"\n{text}\n")
    (component,) = load_catalog("python", tmp_path)
    assert render(literal(component.source), {}, {}).text == component.source
    rendered_test = render(component.test_with_imports_placeholder(), {}, {}, imports="from shop.ids import Ids").text
    assert rendered_test == TEST.replace("from source import Ids", "from shop.ids import Ids")


def test_the_renderers_private_characters_are_refused(tmp_path):
    _write(tmp_path, source=SOURCE + '\nMARK = "\ue004"\n')
    with pytest.raises(CatalogError, match="private-use character") as err:
        load_catalog("python", tmp_path)
    assert err.value.field == "source.py"


def test_bad_toml_syntax(tmp_path):
    _write(tmp_path, toml="kind = ")
    with pytest.raises(CatalogError, match="not valid TOML"):
        load_catalog("python", tmp_path)


def test_the_shipped_library_loads(tmp_path):
    components = load_catalog("python")
    assert components, "the Python library is empty"
    kinds = by_kind(components)
    assert all(len({c.impl for c in impls}) == len(impls) for impls in kinds.values())
    # The shipped library is also valid when copied elsewhere (no path assumptions).
    shutil.copytree(LIBRARY / "python", tmp_path / "python",
                    ignore=shutil.ignore_patterns("__pycache__"))
    assert [c.key for c in load_catalog("python", tmp_path)] == [c.key for c in components]
