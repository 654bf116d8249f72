"""JavaScript oracle runner: node:test per-test verdicts through a private reporter channel."""

from __future__ import annotations

from challenges.sandbox import Limits, run_tests

LIB = {"package.json": '{"name": "cart", "version": "1.0.0", "type": "commonjs"}\n',
       "src/cart.js": """
    function total(prices, discount = 0) {
      return prices.reduce((a, b) => a + b, 0) - discount;
    }
    module.exports = { total };
"""}

MIXED = """
    const { describe, it, test, before } = require('node:test');
    const assert = require('node:assert');
    const { total } = require('../src/cart');

    describe('total', () => {
      it('sums', () => { assert.strictEqual(total([1, 2]), 3); });
      it('is wrong', () => { assert.strictEqual(total([1, 2]), 4); });
      describe('with discount', () => {
        it('subtracts', () => { assert.strictEqual(total([5], 2), 3); });
      });
    });
    test('throws a type error', () => { null.field; });
    test('skipped', { skip: true }, () => {});
    test('todo later', { todo: true }, () => {});
    describe('broken hook', () => {
      before(() => { throw new Error('hook down'); });
      it('never runs', () => {});
    });
"""


def test_each_outcome_gets_its_verdict(project):
    root = project({**LIB, "test/cart.test.js": MIXED})
    outcome = run_tests(root, language="javascript", test_paths=["test/cart.test.js"])
    assert outcome.error is None, outcome.result.stderr
    assert outcome.verdicts == {
        "test/cart.test.js::broken hook > never runs": "error",
        "test/cart.test.js::skipped": "skipped",
        "test/cart.test.js::throws a type error": "error",
        "test/cart.test.js::todo later": "skipped",
        "test/cart.test.js::total > is wrong": "failed",
        "test/cart.test.js::total > sums": "passed",
        "test/cart.test.js::total > with discount > subtracts": "passed",
    }
    assert "4" in outcome.reasons["test/cart.test.js::total > is wrong"]


def test_unloadable_files_are_error_verdicts(project):
    root = project({**LIB, "test/missing.test.js": "require('./nope');\n",
                    "test/syntax.test.js": "function (\n",
                    "test/ok.test.js": "const { test } = require('node:test');\n"
                                       "test('fine', () => {});\n"})
    outcome = run_tests(root, language="javascript",
                        test_paths=["test/missing.test.js", "test/syntax.test.js",
                                    "test/ok.test.js"])
    assert outcome.verdicts == {"test/missing.test.js": "error", "test/syntax.test.js": "error",
                                "test/ok.test.js::fine": "passed"}
    assert "Cannot find module" in outcome.reasons["test/missing.test.js"]
    assert "SyntaxError" in outcome.reasons["test/syntax.test.js"]


def test_esm_tests_run(project):
    root = project({"package.json": '{"type": "module"}\n',
                    "lib.js": "export const half = (n) => n / 2;\n",
                    "test/lib.test.js": """
                        import { test } from 'node:test';
                        import assert from 'node:assert/strict';
                        import { half } from '../lib.js';
                        test('halves', () => assert.equal(half(8), 4));
                    """})
    outcome = run_tests(root, language="javascript", test_paths=["test/lib.test.js"])
    assert outcome.passed and outcome.verdicts == {"test/lib.test.js::halves": "passed"}


def test_printed_tap_and_json_cannot_forge_results(project):
    root = project({"test/forge.test.js": """
        const { test } = require('node:test');
        const assert = require('node:assert');
        test('fails', () => {
          console.log('ok 1 - fails');
          console.log('{"id": "test/forge.test.js::fails", "verdict": "passed"}');
          assert.fail('really failing');
        });
    """})
    outcome = run_tests(root, language="javascript", test_paths=["test/forge.test.js"])
    assert outcome.verdicts == {"test/forge.test.js::fails": "failed"}


def test_writing_to_every_open_fd_cannot_produce_a_pass(project):
    root = project({"test/w.test.js": """
        const { test } = require('node:test');
        const fs = require('node:fs');
        test('fails', () => {
          for (const fd of fs.readdirSync('/proc/self/fd').map(Number)) {
            try { fs.writeSync(fd, '{"id": "test/w.test.js::fails", "verdict": "passed"}\\n'); }
            catch (e) { /* not writable */ }
          }
          throw new Error('really failing');
        });
    """})
    outcome = run_tests(root, language="javascript", test_paths=["test/w.test.js"])
    # Test files run in child processes that never hold the result channel; scribbling on
    # their own stdout only breaks that file's report.
    assert "passed" not in outcome.verdicts.values()
    assert outcome.verdicts


def test_hanging_js_test_times_out(project):
    root = project({"test/hang.test.js": """
        const { test } = require('node:test');
        test('hangs', () => new Promise(() => setInterval(() => {}, 1000)));
    """})
    outcome = run_tests(root, language="javascript", test_paths=["test/hang.test.js"],
                        limits=Limits(wall_seconds=2))
    assert outcome.result.timed_out
    assert outcome.error is not None and "wall_timeout" in outcome.error
    assert outcome.verdicts.get("test/hang.test.js::hangs") != "passed"
