"""Add library components to a template's blueprint (pure and deterministic from the draw).

``compose(bp, ctx, tier)`` chooses how many infrastructure kinds a project of that
tier carries (``TIER_KINDS``), leaves out kinds the template's own subject already
covers (the kind or a component's ``topics`` meeting the words of the template's
key concepts or slug), picks one implementation per kind and adds to the blueprint:

- one source module per component (its role from ``component.toml``; its file stem
  drawn from the component's stem and ``STEM_VARIANTS``) and its visible tests,
  whose single import line becomes the project's own import (``{{imports}}``);
- one history feature per component, each landing after the project's first
  feature, with its commit message and changelog line;
- one generated bootstrap module that holds every component's defaults by kind
  (overridable from a JSON file under ``config/``), imports each factory and builds
  the configured objects, with its own visible tests and a README section.

The components' settings live in the bootstrap module rather than in
``config/settings.json`` because the templates' settings loaders refuse keys they
do not know.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from typing import Any

from challenges.engine.components.catalog import Component, by_kind, load_catalog
from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Feature, Import, Module
from challenges.engine.model import get_template
from challenges.engine.naming import camel, pascal, snake, words
from challenges.engine.render import literal

COMPOSE_SEED_SALT = 0xC0_4D05E
# Tier -> (fewest, most) component kinds; None means every kind that fits.
TIER_KINDS: dict[int, tuple[int, int] | None] = {1: (1, 2), 2: (3, 4), 3: (5, 7), 4: (8, 11), 5: None}
# Other file stems a project might give a component (words, rendered per language): first
# by implementation, else by kind.  The component's own stem is always a candidate.
STEM_VARIANTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "metrics": (("telemetry",), ("instrumentation",)),
    "logging": (("log", "setup"),),
    "events": (("events",),),
    "config": (("runtime", "config"),),
    "serialization": (("serialization",),),
    "validation": (("validation",),),
    "clock": (("timing",),),
    "ids": (("identifiers",),),
    "storage": (("persistence",),),
    "cli": (("commands",),),
    "health": (("health",),),
    "flags": (("flags",),),
    "textfmt": (("formatting",),),
    "backoff": (("retry", "policy"),),
    "lock": (("locking",),),
    "archive": (("archive",),),
    "metrics/histogram-registry": (("metrics",), ("telemetry",), ("instrumentation",)),
    "metrics/rolling-window": (("stats",), ("window", "stats"), ("rates",)),
    "logging/json-lines": (("structured", "log"), ("log", "format"), ("json", "log")),
    "logging/audit-chain": (("audit", "trail"), ("audit", "log"), ("activity", "log")),
    "events/observer-bus": (("events",), ("event", "bus"), ("signals",), ("hooks",)),
    "events/topic-queue": (("notifications",), ("notifier",), ("topics",), ("outbox",)),
    "config/layered-env": (("options",), ("layered", "config"), ("overrides",)),
    "config/ini-sections": (("ini", "config"), ("ini", "settings"), ("config", "file")),
    "config/dataclass-schema": (("typed", "settings"), ("settings", "schema"), ("typed", "config")),
    "serialization/typed-json": (("codec",), ("json", "codec"), ("encoding",)),
    "serialization/csv-records": (("csv", "records"), ("csv", "io"), ("tabular",)),
    "serialization/key-value": (("kv", "format"), ("logfmt",), ("key", "values")),
    "validation/schema-fields": (("validation",), ("schema",), ("payloads",)),
    "validation/rule-chain": (("rules",), ("checks",), ("validators",)),
    "clock/manual-clock": (("clock",), ("clocks",), ("timing",)),
    "clock/duration-deadline": (("durations",), ("deadlines",), ("timeouts",)),
    "ids/sortable": (("ids",), ("identifiers",), ("id", "gen")),
    "ids/short-hash": (("hashes",), ("short", "ids"), ("digests",)),
    "storage/json-documents": (("documents",), ("document", "store"), ("datastore",)),
    "storage/append-log": (("journal",), ("append", "log"), ("event", "log")),
    "storage/indexed-memory": (("record", "store"), ("records",), ("memory", "store")),
    "validation/coercion": (("coercion",), ("parsing",), ("input", "parsers")),
    "cli/argparse-router": (("cli",), ("console",), ("manage",)),
    "cli/command-table": (("commands",), ("operator", "commands"), ("console",)),
    "health/check-registry": (("health",), ("healthchecks",), ("status", "checks")),
    "health/readiness-probes": (("probes",), ("readiness",), ("liveness",)),
    "flags/percentage-rollout": (("flags",), ("feature", "flags"), ("rollout",)),
    "flags/targeting-rules": (("toggles",), ("feature", "toggles"), ("switches",)),
    "textfmt/text-table": (("tables",), ("table", "format"), ("report", "tables")),
    "textfmt/slugs-wrap": (("text",), ("text", "utils"), ("strings",)),
    "backoff/exponential-jitter": (("backoff",), ("retry",), ("retrying",)),
    "backoff/schedule-budget": (("retry", "budget"), ("retries",), ("retry", "policy")),
    "lock/lock-file": (("lockfile",), ("file", "lock"), ("locks",)),
    "lock/keyed-locks": (("key", "locks"), ("locks",), ("mutex",)),
    "lock/leases": (("leases",), ("lease", "table"), ("leadership",)),
    "ids/tokens": (("tokens",), ("api", "tokens"), ("secrets", "gen")),
    "archive/rotating-files": (("rotation",), ("rotating", "file"), ("output", "rotation")),
    "archive/gzip-snapshots": (("snapshots",), ("backups",), ("archive",)),
}
# Entry-point stems for the bootstrap module, tried in a drawn order; nothing in the project
# imports it, which is what entry points look like.  The fallbacks are tried last, in order.
BOOTSTRAP_STEMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "python": (("app",), ("main",), ("server",)),
    "javascript": (("app",), ("index",), ("main",), ("server",)),
}
BOOTSTRAP_FALLBACK_STEMS: tuple[tuple[str, ...], ...] = (("wiring",), ("bootstrap",), ("container",))
# The JSON file (under ``config/``) that overrides the bootstrap defaults.
OVERRIDE_FILES = ("runtime", "services", "infrastructure", "ops")
BOOTSTRAP_FEATURES = (
    ("Build the shared services in one place", "One module builds the shared services from their settings."),
    ("Wire the supporting services from one module", "Supporting services are wired in one place."),
    ("Add an application wiring module", "Application wiring for the supporting services."),
)
README_TITLES = ("Shared services", "Supporting services", "Runtime services", "Infrastructure")
COMPONENT_KEY = "lib-{kind}"


def _words_of(*texts: str) -> set[str]:
    return {w for text in texts for w in words(text)}


def _subject_words(ctx: BuildContext) -> set[str]:
    spec = get_template(ctx.draw.template).spec
    return _words_of(*spec.key_concepts, spec.slug)


def _tier_count(tier: int, available: int, rng: random.Random) -> int:
    bounds = TIER_KINDS.get(max(1, min(tier, max(TIER_KINDS))))
    if bounds is None:
        return available
    return min(available, rng.randint(*bounds))


def _taken_stems(bp: Blueprint) -> set[str]:
    return {m.stem for m in [*bp.modules, *bp.tests, *bp.oracle]}


def _pick_stem(options: list[tuple[str, ...]], ctx: BuildContext, taken: set[str], rng: random.Random) -> str | None:
    rng.shuffle(options)
    for option in options:
        stem = ctx.namer.file(*option)
        if stem in taken or (ctx.py and stem in sys.stdlib_module_names):
            continue
        return stem
    return None


def choose(bp: Blueprint, ctx: BuildContext, tier: int, catalog: tuple[Component, ...] | None = None,
           rng: random.Random | None = None) -> list[Component]:
    """The components a project of ``tier`` carries, in a drawn order."""
    rng = rng if rng is not None else random.Random(ctx.draw.history_seed ^ COMPOSE_SEED_SALT)
    kinds = by_kind(catalog if catalog is not None else load_catalog(ctx.language))
    subject = _subject_words(ctx)
    eligible = [kind for kind, impls in kinds.items() if not (set(impls[0].topics) | {kind}) & subject]
    chosen = rng.sample(eligible, _tier_count(tier, len(eligible), rng))
    return [rng.choice(list(kinds[kind])) for kind in chosen]


def _py_literal(value: Any, indent: int) -> str:
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = "".join(f"{pad}    {json.dumps(k)}: {_py_literal(v, indent + 4)},\n" for k, v in value.items())
        return "{\n" + inner + pad + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_py_literal(v, indent) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _js_literal(value: Any, indent: int) -> str:
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = "".join(f"{pad}  {k if k.isidentifier() else json.dumps(k)}: {_js_literal(v, indent + 2)},\n"
                        for k, v in value.items())
        return "{\n" + inner + pad + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_js_literal(v, indent) for v in value) + "]"
    if isinstance(value, str):
        # JSON escapes every control character; only the quote style differs.
        body = json.dumps(value, ensure_ascii=False)[1:-1].replace('\\"', '"').replace("'", "\\'")
        return "'" + body + "'"
    return json.dumps(value)


PY_BOOTSTRAP = '''"""Builds the {described} from their settings.

Each service reads its own section.  The defaults below apply unless
``config/{override}.json`` overrides a section's keys.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

{{{{imports}}}}

SETTINGS_PATH = Path(__file__).resolve().parents[{{{{root_parents}}}}] / "config" / "{override}.json"

DEFAULTS = {defaults}


@dataclass
class {holder}:
{fields}


def load_{override}_settings(path=None):
    """The defaults, with the sections found in the overrides file merged over them."""
    source = Path(path) if path is not None else SETTINGS_PATH
    merged = {{section: dict(values) for section, values in DEFAULTS.items()}}
    try:
        overrides = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return merged
    for section, values in overrides.items():
        if section not in merged:
            raise ValueError(f"{{source}}: unknown section {{section!r}}")
        if not isinstance(values, dict):
            raise ValueError(f"{{source}}: section {{section!r}} must be an object")
        merged[section].update(values)
    return merged


def build_{services}(settings=None):
    """Every {service_word} configured from ``settings`` (default: the loaded settings)."""
    settings = settings if settings is not None else load_{override}_settings()
    return {holder}(
{calls}
    )
'''

PY_BOOTSTRAP_TEST = '''import json
import tempfile
import unittest
from pathlib import Path

{{{{imports}}}}


class {test_cls}(unittest.TestCase):
    def test_defaults_build_every_service(self):
        built = build_{services}()
{asserts}

    def test_overrides_replace_single_keys(self):
        section, values = next(iter(DEFAULTS.items()))
        key = next(iter(values), None)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "{override}.json"
            path.write_text(json.dumps({{section: {{}}}}), encoding="utf-8")
            self.assertEqual(load_{override}_settings(path)[section], values)
            if key is not None:
                path.write_text(json.dumps({{section: {{key: values[key]}}}}), encoding="utf-8")
                self.assertEqual(load_{override}_settings(path)[section][key], values[key])

    def test_unknown_sections_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "{override}.json"
            path.write_text(json.dumps({{"no_such_section": {{}}}}), encoding="utf-8")
            with self.assertRaises(ValueError):
                load_{override}_settings(path)

    def test_missing_file_means_defaults(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(load_{override}_settings(Path(tmp) / "absent.json"), DEFAULTS)


if __name__ == "__main__":
    unittest.main()
'''

JS_BOOTSTRAP = """'use strict';

/**
 * Builds the {described} from their settings.
 *
 * Each service reads its own section.  The defaults below apply unless
 * `config/{override}.json` overrides a section's keys.
 */

const fs = require('node:fs');
const path = require('node:path');
{{{{imports}}}}

const SETTINGS_PATH = path.join(__dirname, '{{{{root_rel}}}}', 'config', '{override}.json');

const DEFAULTS = {defaults};

/** The defaults, with the sections found in the overrides file merged over them. */
function {load_fn}(file = SETTINGS_PATH) {{
  const merged = {{}};
  for (const [section, values] of Object.entries(DEFAULTS)) {{
    merged[section] = {{ ...values }};
  }}
  let overrides;
  try {{
    overrides = JSON.parse(fs.readFileSync(file, 'utf8'));
  }} catch (err) {{
    if (err.code === 'ENOENT') return merged;
    throw err;
  }}
  for (const [section, values] of Object.entries(overrides)) {{
    if (!(section in merged)) throw new Error(`${{file}}: unknown section ${{section}}`);
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {{
      throw new Error(`${{file}}: section ${{section}} must be an object`);
    }}
    Object.assign(merged[section], values);
  }}
  return merged;
}}

/** Every {service_word} configured from `settings` (default: the loaded settings). */
function {build_fn}(settings = {load_fn}()) {{
  return {{
{calls}
  }};
}}

module.exports = {{ DEFAULTS, {load_fn}, {build_fn} }};
"""

JS_BOOTSTRAP_TEST = """'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
{{{{imports}}}}

function tempFile(content) {{
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
  const file = path.join(dir, '{override}.json');
  if (content !== undefined) fs.writeFileSync(file, JSON.stringify(content));
  return file;
}}

test('defaults build every service', () => {{
  const built = {build_fn}();
{asserts}
}});

test('overrides replace single keys', () => {{
  const [section, values] = Object.entries(DEFAULTS)[0];
  assert.deepEqual({load_fn}(tempFile({{ [section]: {{}} }}))[section], values);
  const key = Object.keys(values)[0];
  if (key !== undefined) {{
    const merged = {load_fn}(tempFile({{ [section]: {{ [key]: values[key] }} }}));
    assert.deepEqual(merged[section][key], values[key]);
  }}
}});

test('unknown sections are refused', () => {{
  assert.throws(() => {load_fn}(tempFile({{ noSuchSection: {{}} }})), /unknown section/);
}});

test('a missing file means defaults', () => {{
  assert.deepEqual({load_fn}(tempFile()), DEFAULTS);
}});
"""


def _bootstrap(ctx: BuildContext, picks: list[tuple[Component, str]], rng: random.Random, taken: set[str]
               ) -> tuple[Module, Module, str, str] | None:
    """The generated bootstrap module and its test; ``None`` when no stem is free."""
    language = ctx.language
    stem = _pick_stem(list(BOOTSTRAP_STEMS[language]), ctx, taken, rng)
    for fallback in BOOTSTRAP_FALLBACK_STEMS:
        if stem is None:
            stem = _pick_stem([fallback], ctx, taken, rng)
    if stem is None:
        return None
    override = rng.choice(OVERRIDE_FILES)
    services = rng.choice(("services", "components", "dependencies"))
    described = {"services": "shared services", "components": "supporting components",
                 "dependencies": "shared dependencies"}[services]
    service_word = {"services": "service", "components": "component", "dependencies": "dependency"}[services]
    names: dict[str, str] = {}
    factories = [c.factory for c, _ in picks]
    imports = []
    for component, key in picks:
        local = component.factory
        if factories.count(local) > 1:
            local = ctx.namer.fn(component.kind, *words(component.factory))
        names[component.kind] = local
        spec = local if local == component.factory else (
            f"{component.factory} as {local}" if ctx.py else f"{component.factory}: {local}")
        imports.append(Import(key, (spec,)))
    defaults = {c.kind: dict(c.settings) for c, _ in picks}
    role = rng.choice(("service", "api"))
    if ctx.py:
        holder = pascal(rng.choice(("services", "app", "context", "runtime")))
        text = PY_BOOTSTRAP.format(
            described=described, override=override, defaults=_py_literal(defaults, 0), holder=holder,
            fields="\n".join(f"    {snake(c.kind)}: Any" for c, _ in picks), services=services,
            service_word=service_word,
            calls="\n".join(f"        {snake(c.kind)}={names[c.kind]}(settings)," for c, _ in picks),
        )
        test = PY_BOOTSTRAP_TEST.format(
            test_cls=pascal(stem, "test"), services=services, override=override,
            asserts="\n".join(f"        self.assertIsNotNone(built.{snake(c.kind)})" for c, _ in picks),
        )
        exported = (f"build_{services}", f"load_{override}_settings", "DEFAULTS")
    else:
        load_fn, build_fn = camel("load", override, "settings"), camel("build", services)
        text = JS_BOOTSTRAP.format(
            described=described, override=override, defaults=_js_literal(defaults, 0), load_fn=load_fn,
            build_fn=build_fn, service_word=service_word,
            calls="\n".join(f"    {camel(c.kind)}: {names[c.kind]}(settings)," for c, _ in picks),
        )
        test = JS_BOOTSTRAP_TEST.format(
            override=override, build_fn=build_fn, load_fn=load_fn,
            asserts="\n".join(f"  assert.ok(built.{camel(c.kind)});" for c, _ in picks),
        )
        exported = ("DEFAULTS", load_fn, build_fn)
    source = Module(key="lib-bootstrap", stem=stem, text=text, role=role, imports=tuple(imports),
                    feature="lib-bootstrap")
    tests = Module(key="lib-bootstrap-test", stem=stem, text=test, imports=(Import("lib-bootstrap", exported),),
                   feature="lib-bootstrap", test=True)
    return source, tests, override, f"{stem}{'.py' if ctx.py else '.js'}"


def _lower_first(text: str) -> str:
    """``text`` as a clause: its first letter lowered unless it starts an acronym ("JSON")."""
    text = text.rstrip(".")
    if len(text) > 1 and text[1].isupper():
        return text
    return text[:1].lower() + text[1:]


def _readme(picks: list[tuple[Component, str]], stems: dict[str, str], override: str, bootstrap_file: str,
            rng: random.Random) -> tuple[str, str]:
    lines = [f"`{bootstrap_file}` builds the supporting services; each reads its own section of the "
             f"settings. Put overrides in `config/{override}.json`, keyed by section:", ""]
    for component, _ in sorted(picks, key=lambda p: p[0].kind):
        keys = ", ".join(f"`{k}` ({json.dumps(v)})" for k, v in component.settings.items()) or "no settings"
        lines.append(f"- `{component.kind}` ({stems[component.kind]}): {_lower_first(component.summary)}; {keys}")
    return rng.choice(README_TITLES), "\n".join(lines)


def compose(bp: Blueprint, ctx: BuildContext, tier: int, catalog: tuple[Component, ...] | None = None
            ) -> Blueprint:
    """``bp`` with a drawn set of library components, their tests, history and bootstrap."""
    rng = random.Random(ctx.draw.history_seed ^ COMPOSE_SEED_SALT)
    components = choose(bp, ctx, tier, catalog, rng)
    if not components or not bp.features:
        return bp
    taken = _taken_stems(bp)
    picks: list[tuple[Component, str]] = []
    modules: list[Module] = []
    tests: list[Module] = []
    stems: dict[str, str] = {}
    for component in components:
        variants = STEM_VARIANTS.get(component.key) or STEM_VARIANTS.get(component.kind, ())
        options = [component.stem, *(v for v in variants if v != component.stem)]
        stem = _pick_stem(options, ctx, taken, rng)
        if stem is None:
            continue
        taken.add(stem)
        key = COMPONENT_KEY.format(kind=component.kind)
        picks.append((component, key))
        stems[component.kind] = stem
        modules.append(Module(key=key, stem=stem, text=literal(component.source), role=component.role, feature=key))
        tests.append(Module(key=f"{key}-test", stem=stem, text=component.test_with_imports_placeholder(),
                            imports=(Import(key, component.test_imports()),), feature=key, test=True))
    if not picks:
        return bp
    built = _bootstrap(ctx, picks, rng, taken)
    if built is None:
        return bp
    boot, boot_test, override, boot_file = built
    features = list(bp.features)
    # Components land after the project's first feature, at drawn points of its history.
    for component, key in picks:
        at = rng.randint(1, len(features))
        features.insert(at, Feature(key, component.message, component.changelog))
    added = {key for _, key in picks}
    last = max(i for i, f in enumerate(features) if f.key in added)
    message, changelog = rng.choice(BOOTSTRAP_FEATURES)
    features.insert(rng.randint(last + 1, len(features)), Feature("lib-bootstrap", message, changelog))
    section = _readme(picks, stems, override, boot_file, rng)
    return dataclasses.replace(
        bp, modules=[*bp.modules, *modules, boot], tests=[*bp.tests, *tests, boot_test], features=features,
        readme_sections=[*bp.readme_sections, section],
    )

