"""The JavaScript probe compiler, before and after: assertions become observations."""

from __future__ import annotations

import subprocess

import pytest

from challenges.judge.languages import CompileError
from challenges.judge.languages.javascript_compiler import PRELUDE, compile_javascript

HEAD = "'use strict';\nconst assert = require('node:assert/strict');\n"


def probe(body: str, head: str = HEAD) -> str:
    return compile_javascript("test/x.test.js", head + body).source


def body_of(source: str) -> str:
    return source.split("\n", 3)[3]


@pytest.mark.parametrize("before, after", [
    ("assert.equal(total(cart), 42);", "__probe.value(1, total(cart));"),
    ("assert.deepStrictEqual(pairs(), [[0, 10], [20, 50]]);", "__probe.value(1, pairs());"),
    ("assert.deepEqual(ids(a), ids(b));", "__probe.relation(1, 'deep', ids(a), ids(b));"),
    ("assert.strictEqual(key(a), key(b));", "__probe.relation(1, '===', key(a), key(b));"),
    ("assert.notEqual(a.id, b.id);", "__probe.relation(1, '!==', a.id, b.id);"),
    ("assert.ok(isFree('a', 1, 2));", "__probe.value(1, isFree('a', 1, 2));"),
    ("assert(err instanceof Busy);", "__probe.typeOf(1, err);"),
    ("assert.ok(!(held <= 4));", "__probe.relation(1, '>', held, 4);"),
    ("assert.ok('x.csv' in report.rejected);", "__probe.relation(1, 'in', 'x.csv', report.rejected);"),
    ("assert.ok(count() === 3);", "__probe.value(1, count());"),
    ("assert.match(key, /^[0-9a-f]{32}$/);", "__probe.relation(1, 'match', key, /^[0-9a-f]{32}$/);"),
    ("assert.throws(() => book(1), Conflict);", "__probe.throws(1, () => book(1), Conflict);"),
    ("assert.throws(() => book(1), /taken/);", "__probe.throws(1, () => book(1), undefined, { message: true });"),
    ("assert.throws(() => book(1), { code: 'E_BUSY' });",
     "__probe.throws(1, () => book(1), undefined, { message: false, keys: ['code'] });"),
    ("assert.throws(() => book(1), 'a message');", "__probe.throws(1, () => book(1));"),
    ("await assert.rejects(pool.get(), Busy);", "await __probe.rejects(1, pool.get(), Busy);"),
    ("assert.fail('never');", "assert.fail('never');"),
])
def test_assertions_become_observations(before, after):
    assert body_of(probe(before)) == after


def test_the_runtime_binding_follows_the_directive_and_node_test_is_wrapped():
    source = probe("const { describe, it } = require('node:test');\nit('a', () => {});\n")
    assert source.startswith(f"'use strict';\n{PRELUDE}\n")
    assert "const { describe, it } = __probe.test;" in source


def test_esm_imports_of_assert_and_node_test():
    source = compile_javascript("test/x.test.mjs", (
        "import { test as t, describe } from 'node:test';\n"
        "import { strictEqual as same, strict as a } from 'node:assert';\n"
        "same(f(), 1);\na.ok(g());\n")).source
    assert "const { test: t, describe } = __probe.test;" in source
    assert "__probe.value(1, f());" in source and "__probe.value(2, g());" in source


def test_validator_functions_are_compiled_too():
    source = probe("await assert.rejects(run(), (err) => { assert.ok(err instanceof Gone); return true; });")
    assert body_of(source) == "await __probe.rejects(1, run(), (err) => { __probe.typeOf(2, err); return true; });"


def test_destructured_assert_functions():
    source = probe("equal(f(), 3);\n", head="'use strict';\nconst { equal } = require('node:assert');\n")
    assert source.endswith("__probe.value(1, f());\n")


@pytest.mark.parametrize("body, message", [
    ("assert.equal(...pair);", "spread"),
    ("assert.equal(1, 1);", "two literals"),
    ("assert.snapshot(f());", "unsupported assertion"),
    ("assert.equal(f(, 1);", "not valid JavaScript"),
])
def test_what_the_compiler_cannot_translate_fails_closed(body, message):
    with pytest.raises(CompileError, match=message):
        probe(body)


def test_no_expected_literal_survives_and_the_probe_is_valid_javascript(tmp_path):
    source = probe("const { it } = require('node:test');\n"
                   "it('t', () => { assert.deepEqual(windows(), [[0, 10], [20, 57]]); assert.equal(fee(), 'EUR 17.35'); });\n")
    assert "[20, 57]" not in source and "EUR 17.35" not in source
    path = tmp_path / "p.js"
    path.write_text(source)
    assert subprocess.run(["node", "--check", str(path)], capture_output=True).returncode == 0
