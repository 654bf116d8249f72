"""``compose`` adds a tier-scaled, draw-dependent set of library components to a blueprint,
and the generated project runs them: their tests and the bootstrap's tests pass in place."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from challenges.engine import draw, generate
from challenges.engine.components import catalog as catalog_module
from challenges.engine.components.catalog import load_catalog
from challenges.engine.components.compose import TIER_KINDS, _js_literal, choose, compose
from challenges.engine.context import BuildContext
from challenges.engine.generate import CONTEXT_SEED_SALT, resolve_lexicon
from challenges.engine.model import get_template
from challenges.engine.naming import Namer, words
from tests.unit.engine.conftest import BY_KEY, LEXICONS


def _context(slug: str, language: str, seed: int):
    d = draw(slug, language, random.Random(seed), lexicons=LEXICONS)
    lex = resolve_lexicon(d.lexicon_key, BY_KEY[d.lexicon_key])
    ctx = BuildContext(d, lex, Namer(language), random.Random(d.history_seed ^ CONTEXT_SEED_SALT))
    template = get_template(slug)
    return ctx, template.build(ctx), template.spec


def test_compose_is_deterministic_per_draw():
    ctx, bp, spec = _context("paged-listing-cache", "python", 3)
    first = compose(bp, ctx, spec.tier)
    again = compose(bp, ctx, spec.tier)
    assert [(m.key, m.stem, m.text) for m in first.modules] == [(m.key, m.stem, m.text) for m in again.modules]
    assert first.features == again.features
    other_ctx, other_bp, _ = _context("paged-listing-cache", "python", 4)
    other = compose(other_bp, other_ctx, spec.tier)
    assert [m.stem for m in other.modules] != [m.stem for m in first.modules]


@pytest.mark.parametrize("tier", sorted(TIER_KINDS))
def test_component_count_follows_the_tier(tier):
    ctx, bp, _ = _context("booking-ledger", "python", 5)
    catalog = load_catalog("python")
    chosen = choose(bp, ctx, tier)
    bounds = TIER_KINDS[tier]
    eligible = {c.kind for c in catalog} - {c.kind for c in catalog if set(c.topics) & {"booking", "ledger"}}
    if bounds is None:
        assert {c.kind for c in chosen} == eligible
    else:
        assert bounds[0] <= len(chosen) <= bounds[1]
    assert len({c.kind for c in chosen}) == len(chosen)


def test_kinds_the_template_covers_are_left_out():
    ctx, bp, spec = _context("retrying-client", "python", 1)
    subject = {w for concept in (*spec.key_concepts, spec.slug) for w in words(concept)}
    for component in choose(bp, ctx, 5):
        assert not (set(component.topics) | {component.kind}) & subject, component.key
    assert "backoff" not in {c.kind for c in choose(bp, ctx, 5)}


def test_blueprint_gains_modules_tests_features_and_bootstrap():
    ctx, bp, spec = _context("event-dedup-pipeline", "python", 2)
    out = compose(bp, ctx, spec.tier)
    added = [m for m in out.modules if m.key.startswith("lib-")]
    tests = [m for m in out.tests if m.key.startswith("lib-")]
    assert len(added) == len(tests) >= 2
    boot = next(m for m in added if m.key == "lib-bootstrap")
    components = [m for m in added if m is not boot]
    assert {imp.module for imp in boot.imports} == {m.key for m in components}
    for test in tests:
        assert "{{imports}}" in test.text and "from source import" not in test.text
    stems = [m.stem for m in [*out.modules, *out.tests] if not m.test] + [m.stem for m in out.tests]
    assert len(set(m.stem for m in out.modules)) == len(out.modules)
    assert len(set(m.stem for m in out.tests)) == len(out.tests), stems
    order = [f.key for f in out.features]
    assert order[0] == bp.features[0].key
    assert order.index("lib-bootstrap") > max(order.index(m.key) for m in components)
    assert [f.key for f in out.features if not f.key.startswith("lib-")] == [f.key for f in bp.features]
    assert out.settings == bp.settings  # the template's loader keeps its own keys only
    assert len(out.readme_sections) == len(bp.readme_sections) + 1


_TEST_NAME = re.compile(r"^\s*def (test_\w+)", re.M)


@pytest.mark.parametrize(("slug", "seed"), [("booking-ledger", 2), ("event-dedup-pipeline", 1)])
def test_generated_project_runs_component_and_bootstrap_tests(tmp_path, slug, seed):
    d = draw(slug, "python", random.Random(seed), lexicons=LEXICONS)
    instance = generate(d, lexicon=BY_KEY[d.lexicon_key])
    for path, text in instance.files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    library = {frozenset(_TEST_NAME.findall(c.test)): c.key for c in load_catalog("python")}
    ours = {}
    for path in instance.visible_tests:
        names = frozenset(_TEST_NAME.findall(instance.files[path]))
        if names in library:
            ours[path] = library[names]
        elif "test_defaults_build_every_service" in names:
            ours[path] = "bootstrap"
    assert "bootstrap" in ours.values()
    assert len(ours) >= 2
    modules = [str(Path(p).with_suffix("")).replace("/", ".") for p in sorted(ours)]
    proc = subprocess.run([sys.executable, "-B", "-m", "unittest", *modules], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"Ran [1-9]\d* tests", proc.stderr)
    # Building the services with their defaults writes nothing into the project.
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts) == sorted(instance.files)


JS_TOML = """kind = "ids"
impl = "counter"
summary = "Sequential identifiers with a prefix"
role = "util"
stem = ["sequence"]
factory = "fromSettings"
exports = ["Sequence", "fromSettings"]
topics = []
lines_hint = 20

[settings]
prefix = "n"

[commit]
message = "Add sequential identifiers"
changelog = "Sequential identifiers."
"""
JS_SOURCE = """'use strict';

/** Sequential identifiers with a prefix. */
class Sequence {
  constructor(prefix = 'n') {
    this.prefix = prefix;
    this.last = 0;
  }

  next() {
    this.last += 1;
    return `${this.prefix}${this.last}`;
  }
}

function fromSettings(settings) {
  const section = settings.ids ?? {};
  return new Sequence(section.prefix ?? 'n');
}

module.exports = { Sequence, fromSettings };
"""
JS_TEST = """'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Sequence, fromSettings } = require('./source');

test('counts up with the prefix', () => {
  const ids = new Sequence('x');
  assert.equal(ids.next(), 'x1');
  assert.equal(ids.next(), 'x2');
  assert.equal(fromSettings({ ids: { prefix: 'q' } }).next(), 'q1');
});
"""


@pytest.fixture
def js_library(tmp_path, monkeypatch):
    impl = tmp_path / "library" / "javascript" / "ids" / "counter"
    impl.mkdir(parents=True)
    (impl / "component.toml").write_text(JS_TOML)
    (impl / "source.js").write_text(JS_SOURCE)
    (impl / "source.test.js").write_text(JS_TEST)
    monkeypatch.setattr(catalog_module, "LIBRARY", tmp_path / "library")
    catalog_module._default_catalog.cache_clear()
    yield
    catalog_module._default_catalog.cache_clear()


def test_javascript_project_runs_component_and_bootstrap_tests(js_library, tmp_path):
    node = shutil.which("node")
    assert node is not None, "node is required for the JavaScript projects"
    d = draw("booking-ledger", "javascript", random.Random(2), lexicons=LEXICONS)
    instance = generate(d, lexicon=BY_KEY[d.lexicon_key])
    root = tmp_path / "project"
    for path, text in instance.files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    component_tests = [p for p in instance.visible_tests if "sequence" in p or "DEFAULTS" in instance.files[p]]
    assert len(component_tests) == 2, instance.visible_tests
    proc = subprocess.run([node, "--test", *component_tests], cwd=root, capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout


def test_javascript_string_defaults_are_valid_source():
    node = shutil.which("node")
    assert node is not None, "node is required for the JavaScript projects"
    value = {"format": "line one\nline\ttwo \"q\" 'a' \\ \u2028", "list": ["x\ny", 1, True, None], "2nd": {}}
    script = f"process.stdout.write(JSON.stringify({_js_literal(value, 0)}));"
    proc = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == value


@pytest.mark.parametrize("slug", ["buffered-writer", "booking-ledger"])
def test_javascript_bootstrap_with_the_real_library_checks_and_passes(tmp_path, slug):
    node = shutil.which("node")
    assert node is not None, "node is required for the JavaScript projects"
    d = draw(slug, "javascript", random.Random(3), lexicons=LEXICONS)
    instance = generate(d, lexicon=BY_KEY[d.lexicon_key])
    for path, text in instance.files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    boot_tests = [p for p in instance.visible_tests if "DEFAULTS" in instance.files[p]]
    assert len(boot_tests) == 1, instance.visible_tests
    sources = [p for p in instance.source_paths if "const DEFAULTS" in instance.files[p]]
    assert len(sources) == 1
    check = subprocess.run([node, "--check", sources[0]], cwd=tmp_path, capture_output=True, text=True,
                           timeout=60, check=False)
    assert check.returncode == 0, check.stderr
    proc = subprocess.run([node, "--test", *boot_tests], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout
