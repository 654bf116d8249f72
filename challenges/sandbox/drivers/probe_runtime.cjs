'use strict';
// Observation runtime of JavaScript probes (runs inside the sandbox; holds nothing secret).
//
// A probe is a hidden test file whose node:assert calls were compiled into calls of this
// module, each with the id of its site: value(site, ...operands) records operands,
// relation(site, op, a, b) the truth of a relation, throws/rejects(site, ...) what a call
// threw or a promise rejected with, typeOf(site, x) a constructor name. The probe's
// `require('node:test')` is this module's `test` API: node:test itself, with every test
// function wrapped so the channel gets "start", the test's observations and "end" in order.
// Values are written in the canonical form the host expects (challenges/judge/values.py).
//
// Nothing here decides anything; the host compares what arrives with expectations it never
// sends here, and a test that does not report is a failed test.
const { writeSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { isDeepStrictEqual } = require('node:util');
const nodeTest = require('node:test');

const MAX_DEPTH = 32;
const MAX_NODES = 5000;
const MAX_TEXT = 4096;
const DETAIL = 2000;
let fd = null;
let currentFile = '';
const suites = [];

function configure(n) { fd = n; }
function setFile(file) { currentFile = file; }

function emit(record) {
  if (fd === null) return;
  const data = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset);
}

function text(value) {
  if (value.length <= MAX_TEXT) return value;
  const sha256 = createHash('sha256').update(value, 'utf8').digest('hex');
  return { str: value.slice(0, 256), len: value.length, sha256 };
}

function ctorName(value) {
  try {
    const proto = Object.getPrototypeOf(value);
    if (proto === null) return '';
    const ctor = proto.constructor;
    return typeof ctor === 'function' ? String(ctor.name) : '';
  } catch (err) {
    return '?';
  }
}

function numText(n) {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Object.is(n, -0)) return '0';
  return String(n);
}

function sortKey(item) { return JSON.stringify(item); }
function sorted(items) { return items.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0)); }

function isClass(fn) {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

function canon(value, depth, state) {
  state.nodes += 1;
  if (depth > MAX_DEPTH || state.nodes > MAX_NODES) return { deep: typeof value };
  if (value === null) return null;
  switch (typeof value) {
    case 'undefined': return { undefined: '' };
    case 'boolean': return value;
    case 'number': return { num: numText(value) };
    case 'bigint': return { bigint: value.toString().slice(0, 64) };
    case 'string': return text(value);
    case 'symbol': return { symbol: String(value.description || '') };
    case 'function': return isClass(value) ? { type: String(value.name) } : { function: String(value.name) };
    default: break;
  }
  if (state.seen.has(value)) return { cycle: ctorName(value) };
  state.seen.add(value);
  try {
    return container(value, depth, state);
  } finally {
    state.seen.delete(value);
  }
}

function fields(value, depth, state, extra) {
  const pairs = extra.slice();
  for (const key of Object.keys(value)) pairs.push([key, canon(value[key], depth + 1, state)]);
  return sorted(pairs);
}

function container(value, depth, state) {
  if (Array.isArray(value)) {
    const out = [];
    for (let i = 0; i < value.length && i < MAX_NODES; i += 1) out.push(canon(value[i], depth + 1, state));
    return out;
  }
  if (value instanceof Map) {
    return { map: sorted([...value.entries()].map(([k, v]) => [canon(k, depth + 1, state), canon(v, depth + 1, state)])) };
  }
  if (value instanceof Set) return { set: sorted([...value].map((v) => canon(v, depth + 1, state))) };
  if (value instanceof Date) return { date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
  if (value instanceof RegExp) return { regexp: String(value) };
  if (value instanceof Error) {
    return { error: [ctorName(value), fields(value, depth, state, [['message', text(String(value.message))]])] };
  }
  if (ArrayBuffer.isView(value)) return { bytes: Buffer.from(value.buffer, value.byteOffset, Math.min(value.byteLength, 2048)).toString('hex') };
  if (typeof value.then === 'function') return { promise: '' };
  return { object: [ctorName(value), fields(value, depth, state, [])] };
}

function canonical(value) { return canon(value, 0, { nodes: 0, seen: new Set() }); }

function observe(site, values) { emit({ t: 'obs', s: site, v: values }); }

function value(site, ...operands) { observe(site, operands.map(canonical)); }

function typeOf(site, operand) {
  observe(site, [{ type: operand !== null && typeof operand === 'object' ? ctorName(operand) : typeof operand }]);
}

const RELATIONS = {
  '===': (a, b) => Object.is(a, b),
  '==': (a, b) => a == b, // eslint-disable-line eqeqeq
  deep: (a, b) => isDeepStrictEqual(a, b),
  '!==': (a, b) => !Object.is(a, b),
  '!=': (a, b) => a != b, // eslint-disable-line eqeqeq
  'not deep': (a, b) => !isDeepStrictEqual(a, b),
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  in: (a, b) => a in b,
  'not in': (a, b) => !(a in b),
  instanceof: (a, b) => a instanceof b,
  'not instanceof': (a, b) => !(a instanceof b),
  match: (a, b) => { b.lastIndex = 0; return typeof a === 'string' && b.test(a); },
  'not match': (a, b) => { b.lastIndex = 0; return typeof a === 'string' && !b.test(a); },
};

function relation(site, op, left, right) {
  let outcome;
  try {
    outcome = Boolean(RELATIONS[op](left, right));
  } catch (err) {
    observe(site, [{ raised: ctorName(err) }]);
    return;
  }
  observe(site, [outcome]);
}

function isErrorClass(candidate) {
  return typeof candidate === 'function' && candidate.prototype !== undefined
    && (candidate === Error || candidate.prototype instanceof Error);
}

// mode: {message: bool, keys: [string]} from the compiler; expected: a class or a validator.
function thrownValues(err, expected, mode) {
  const seen = { raised: err !== null && typeof err === 'object' ? ctorName(err) : typeof err };
  if (mode && mode.message) seen.message = String(err && err.message);
  const out = [seen.message !== undefined ? { raised: seen.raised, message: seen.message.slice(0, MAX_TEXT) } : { raised: seen.raised }];
  if (mode && mode.keys) for (const key of mode.keys) out.push(canonical(err === null || err === undefined ? undefined : err[key]));
  if (typeof expected === 'function' && !isErrorClass(expected)) {
    let verdict;
    try {
      verdict = canonical(expected(err));
    } catch (inner) {
      verdict = { raised: ctorName(inner) };
    }
    out.push(verdict);
  }
  return out;
}

function throws(site, fn, expected, mode) {
  try {
    fn();
  } catch (err) {
    observe(site, thrownValues(err, expected, mode));
    return err;
  }
  observe(site, [{ returned: null }]);
  return undefined;
}

async function rejects(site, promiseOrFn, expected, mode) {
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
  } catch (err) {
    observe(site, thrownValues(err, expected, mode));
    return;
  }
  observe(site, [{ returned: null }]);
}

// --- node:test, with every test reporting start, observations and end -------------------
function split(args) {
  let name; let options; let fn;
  for (const arg of args) {
    if (typeof arg === 'string') name = arg;
    else if (typeof arg === 'function') fn = arg;
    else if (arg && typeof arg === 'object') options = arg;
  }
  return { name, options, fn };
}

function rebuild(name, options, fn) {
  const out = [];
  if (name !== undefined) out.push(name);
  if (options !== undefined) out.push(options);
  if (fn !== undefined) out.push(fn);
  return out;
}

function describeError(err) {
  const shown = err && err.stack ? String(err.stack) : String(err);
  return shown.slice(0, DETAIL);
}

function outcomeOf(err) {
  return err && (err.code === 'ERR_ASSERTION' || err.name === 'AssertionError') ? 'failed' : 'error';
}

function wrapTest(original) {
  const wrapped = function test(...args) {
    const { name, options, fn } = split(args);
    if (fn === undefined) return original(...args);
    const label = name !== undefined ? name : (fn.name || '<anonymous>');
    const id = `${currentFile}::${[...suites, label].join(' > ')}`;
    const body = fn.length >= 2
      ? function callbackTest(t, done) {
        emit({ t: 'start', id });
        return fn.call(this, t, (err) => {
          emit(err ? { t: 'end', id, outcome: outcomeOf(err), detail: describeError(err) } : { t: 'end', id, outcome: 'ok' });
          done(err);
        });
      }
      : async function asyncTest(t) {
        emit({ t: 'start', id });
        try {
          await fn.call(this, t);
        } catch (err) {
          emit({ t: 'end', id, outcome: outcomeOf(err), detail: describeError(err) });
          throw err;
        }
        emit({ t: 'end', id, outcome: 'ok' });
      };
    return original(...rebuild(name, options, body));
  };
  for (const key of ['skip', 'todo', 'only']) wrapped[key] = original[key];
  return wrapped;
}

function wrapSuite(original) {
  const wrapped = function suite(...args) {
    const { name, options, fn } = split(args);
    if (fn === undefined) return original(...args);
    const label = name !== undefined ? name : (fn.name || '<anonymous>');
    const body = function suiteBody(...inner) {
      suites.push(label);
      try {
        return fn.apply(this, inner);
      } finally {
        suites.pop();
      }
    };
    return original(...rebuild(name, options, body));
  };
  for (const key of ['skip', 'todo', 'only']) wrapped[key] = original[key];
  return wrapped;
}

const test = wrapTest(nodeTest.test);
Object.assign(test, {
  test, it: test, describe: wrapSuite(nodeTest.describe), suite: wrapSuite(nodeTest.suite),
  before: nodeTest.before, after: nodeTest.after, beforeEach: nodeTest.beforeEach, afterEach: nodeTest.afterEach,
  run: nodeTest.run,
});
Object.defineProperty(test, 'mock', { get: () => nodeTest.mock });
test.default = test;

function done() { emit({ t: 'done' }); }

module.exports = {
  configure, setFile, emit, done, canonical, value, typeOf, relation, throws, rejects, test,
};
