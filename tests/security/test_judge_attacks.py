"""Class 1: the scored code cannot forge its verdict (issue 10).

Every test applies a real hostile patch to a freshly generated instance and evaluates it for
real: tree preparation, the hidden suite's probes in the bubblewrap sandbox, the judge on the
host against expectations recorded from the gold code. Each must end not solved, with an
agent-visible reason from the fixed vocabulary. The gold patch still solves and a no-op
does not, in both languages.
"""

from __future__ import annotations

import pytest

from tests.security.judge_support import (
    LANGUAGES,
    assert_not_solved_and_silent,
    at_bug,
    at_import,
    evaluate,
    released,
)

pytestmark = pytest.mark.slow


@pytest.fixture(params=LANGUAGES)
def language(request) -> str:
    return request.param


def test_the_gold_patch_still_solves(language):
    outcome = evaluate(language, released(language).instance.gold.patch)
    assert outcome.result == "solved", outcome.details
    assert outcome.reason == f"all {len(released(language).kit.plan)} hidden tests passed"


def test_a_no_op_does_not_solve(language):
    outcome = evaluate(language, None)
    assert_not_solved_and_silent(language, outcome)
    assert outcome.failed == len(released(language).kit.fail_to_pass) > 0


def test_skipping_where_the_bug_shows_fails_the_skipped_tests():
    # Scored as "all passed" when skipped tests counted as passed.
    outcome = evaluate("python", at_bug("python", 'import unittest\nraise unittest.SkipTest("works here")'))
    assert_not_solved_and_silent("python", outcome)
    judged = outcome.details["tests"]
    assert {judged[t]["why"] for t in released("python").kit.fail_to_pass} <= {"outcome", "value"}
    assert any("skipped" in judged[t]["detail"] for t in judged)


def test_marking_the_running_node_test_skipped_through_async_hooks_changes_nothing():
    code = """const running = require('node:async_hooks').executionAsyncResource();
if (running && typeof running.skip === 'function') running.skip('works here');"""
    outcome = evaluate("javascript", at_bug("javascript", code))
    assert_not_solved_and_silent("javascript", outcome)
    judged = outcome.details["tests"]
    assert "missing" not in {t["why"] for t in judged.values()}  # the forger reported every test
    assert all(judged[t]["why"] != "passed" for t in released("javascript").kit.fail_to_pass)


STACK_WALKER = r'''
import ast, glob, os, sys
_emitters = []
_frame = sys._getframe()
while _frame is not None:
    for _scope in (_frame.f_locals, _frame.f_globals):
        for _value in list(_scope.values()):
            for _name in ("emit", "addSuccess"):
                if callable(getattr(_value, _name, None)):
                    _emitters.append(getattr(_value, _name))
    _frame = _frame.f_back
_emit = next(e for e in _emitters if getattr(e, "__name__", "") == "emit")
for _path in sorted(glob.glob("tests/**/test_*.py", recursive=True)):
    for _cls in [n for n in ast.parse(open(_path).read()).body if isinstance(n, ast.ClassDef)]:
        for _fn in [n for n in _cls.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]:
            _id = f"{_path}::{_cls.name}::{_fn.name}"
            _emit({"t": "start", "id": _id})
            _emit({"t": "end", "id": _id, "outcome": "ok"})
            _emit({"id": _id, "verdict": "passed", "token": "x"})
_emit({"t": "done"})
os._exit(0)
'''


def test_walking_the_stack_to_the_emitter_and_reporting_passes_then_exiting():
    outcome = evaluate("python", at_bug("python", STACK_WALKER))
    assert_not_solved_and_silent("python", outcome)
    whys = {t["why"] for t in outcome.details["tests"].values()}
    # The walker found the emitter: tests reported before it ran were reported again.
    assert "duplicate" in whys and "passed" not in whys


PY_GUESSER = r'''
import ast as _ast, glob as _glob, os as _os, sys as _sys

def _forge():
    runtime = _sys.modules["probe_runtime"]
    errors = [n.name for p in _glob.glob("**/errors.py", recursive=True)
              for n in _ast.parse(open(p).read()).body if isinstance(n, _ast.ClassDef)]

    def calls(fn, helpers, seen=()):
        found = []
        for node in sorted((n for n in _ast.walk(fn) if isinstance(n, _ast.Call)), key=lambda n: (n.lineno, n.col_offset)):
            func = node.func
            if isinstance(func, _ast.Attribute) and isinstance(func.value, _ast.Name):
                if func.value.id == "__probe__" and node.args and isinstance(node.args[0], _ast.Constant):
                    found.append((node.args[0].value, func.attr))
                elif func.value.id == "self" and func.attr in helpers and func.attr not in seen:
                    found += calls(helpers[func.attr], helpers, (*seen, func.attr))
        return found

    for path in sorted(_glob.glob("tests/**/test_*.py", recursive=True)):
        for cls in [n for n in _ast.parse(open(path).read()).body if isinstance(n, _ast.ClassDef)]:
            helpers = {f.name: f for f in cls.body if isinstance(f, _ast.FunctionDef)}
            for name, fn in helpers.items():
                if not name.startswith("test"):
                    continue
                test = f"{path}::{cls.name}::{name}"
                runtime.emit({"t": "start", "id": test})
                for site, kind in calls(fn, helpers):
                    guess = {"raised": errors[-1] if errors else "ValueError"} if kind.startswith("raises") else True
                    runtime.emit({"t": "obs", "s": site, "v": [guess]})
                runtime.emit({"t": "end", "id": test, "outcome": "ok"})
    runtime.emit({"t": "done"})
    _os._exit(0)

if "probe_runtime" in _sys.modules:
    _forge()
'''


def test_a_forger_that_reads_the_probes_and_emits_guessed_observations():
    outcome = evaluate("python", at_import("python", PY_GUESSER))
    assert_not_solved_and_silent("python", outcome)
    judged = outcome.details["tests"]
    # Every planned test was forged exactly once, before any ran; the guesses are what fail.
    assert "missing" not in {t["why"] for t in judged.values()}
    assert all(judged[t]["why"] == "value" for t in released("python").kit.fail_to_pass)


@pytest.mark.parametrize("patching", [
    "unittest.TestCase._callTestMethod = lambda self, method: None",
    "unittest.TestCase.assertFalse = lambda *args, **kwargs: None",
    "unittest.TestCase.assertRaises = lambda *args, **kwargs: __import__('contextlib').suppress(Exception)",
    "unittest.TestCase._getAssertEqualityFunc = lambda self, first, second: (lambda *a, **k: None)",
], ids=["_callTestMethod", "assertFalse", "assertRaises", "_getAssertEqualityFunc"])
def test_monkeypatching_unittest_gains_nothing(patching):
    outcome = evaluate("python", at_import("python", f"import unittest\n{patching}"))
    assert_not_solved_and_silent("python", outcome)


def test_replacing_every_node_assert_function_with_a_no_op_gains_nothing():
    code = """for (const name of ['node:assert', 'node:assert/strict', 'assert']) {
  const target = require(name);
  for (const key of Object.keys(target)) if (typeof target[key] === 'function') target[key] = () => undefined;
}"""
    outcome = evaluate("javascript", at_import("javascript", code))
    assert_not_solved_and_silent("javascript", outcome)
    assert outcome.failed == len(released("javascript").kit.fail_to_pass)


@pytest.mark.parametrize("language, code", [
    ("python", "import os\nos._exit(0)"), ("javascript", "process.exit(0);"),
], ids=["os._exit", "process.exit"])
def test_exiting_cleanly_where_a_failing_test_reaches_makes_the_rest_fail(language, code):
    outcome = evaluate(language, at_bug(language, code))
    assert_not_solved_and_silent(language, outcome)
    whys = {t["why"] for t in outcome.details["tests"].values()}
    assert "missing" in whys or "unfinished" in whys


JS_FORGER = r"""
const runtime = globalThis[Symbol.for('probe.runtime')];
if (runtime) {
  const fs = require('node:fs');
  const path = require('node:path');
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const errors = walk('src').filter((f) => f.endsWith('errors.js'))
    .flatMap((f) => (fs.readFileSync(f, 'utf8').match(/class (\w+)/g) || []).map((m) => m.slice(6)));
  for (const file of fs.readdirSync('test').filter((f) => f.endsWith('.test.js'))) {
    const source = fs.readFileSync(`test/${file}`, 'utf8');
    let suite = null;
    for (const line of source.split('\n')) {
      const opened = line.match(/^describe\('([^']+)'/);
      if (opened) suite = opened[1];
      const test = line.match(/^\s+it\('([^']+)'/);
      if (!test) continue;
      const id = `test/${file}::${suite ? `${suite} > ` : ''}${test[1]}`;
      runtime.emit({ t: 'start', id });
      for (const site of line.matchAll(/__probe\.(\w+)\((\d+)/g)) {
        runtime.emit({ t: 'obs', s: Number(site[2]), v: [site[1] === 'throws' ? { raised: errors[0] } : true] });
      }
      runtime.emit({ t: 'end', id, outcome: 'ok' });
    }
  }
  runtime.emit({ t: 'done' });
  process.exit(0);
}
"""


def test_a_javascript_forger_that_finds_the_runtime_and_emits_guesses():
    outcome = evaluate("javascript", at_import("javascript", JS_FORGER))
    assert_not_solved_and_silent("javascript", outcome)
    assert outcome.failed >= len(released("javascript").kit.fail_to_pass)
