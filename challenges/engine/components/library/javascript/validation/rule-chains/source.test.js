'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createValidator, rules, RuleFailure, fromSettings } = require('./source');

const search = createValidator({
  page: [rules.defaultTo('1'), rules.toInt(), rules.min(1)],
  size: [rules.defaultTo('20'), rules.toInt(), rules.min(1), rules.max(100)],
  q: [rules.optional(), rules.maxLength(10)],
  sort: [rules.defaultTo('name'), rules.lower(), rules.oneOf(['name', 'date'])],
  tags: [rules.optional(), rules.toList(), rules.each(rules.minLength(2))],
});

test('query strings are coerced with defaults', () => {
  const result = search(new URLSearchParams('page=3&q=%20shoes%20&sort=DATE&tags=red,%20blue'));
  assert.equal(result.valid, true);
  assert.deepEqual(result.values, { page: 3, size: 20, q: 'shoes', sort: 'date', tags: ['red', 'blue'] });
});

test('each failing field gets its first message', () => {
  const result = search({ page: '0', size: 'ten', q: 'much too long text', sort: 'price', tags: 'ok,x' });
  assert.equal(result.valid, false);
  assert.deepEqual(result.values, {});
  assert.deepEqual(result.errors, {
    page: 'must be at least 1',
    size: 'must be a whole number',
    q: 'must have at most 10 characters',
    sort: 'must be one of: name, date',
    tags: 'item 2 must have at least 2 characters',
  });
});

test('blank input counts as missing unless configured otherwise', () => {
  const required = createValidator({ name: [rules.required()] });
  assert.deepEqual(required({ name: '   ' }).errors, { name: 'is required' });
  const keepBlank = createValidator({ name: [rules.required()] }, { emptyAsMissing: false, trimStrings: false });
  assert.deepEqual(keepBlank({ name: '   ' }).values, { name: '   ' });
});

test('type rules reject near misses', () => {
  const check = createValidator({
    n: [rules.toInt()],
    x: [rules.toNumber()],
    b: [rules.toBool()],
    d: [rules.toDate()],
  });
  assert.deepEqual(check({ n: '12', x: '1.5e2', b: 'off', d: '2024-02-29' }).values, {
    n: 12,
    x: 150,
    b: false,
    d: new Date(Date.UTC(2024, 1, 29)),
  });
  const bad = check({ n: '1.0', x: 'abc', b: 'maybe', d: '2023-02-29' });
  assert.deepEqual(Object.keys(bad.errors), ['n', 'x', 'b', 'd']);
});

test('cross-field checks run after fields pass', () => {
  const signup = createValidator(
    {
      password: [rules.required(), rules.minLength(8)],
      confirm: [rules.required(), rules.sameAs('password', 'does not match the password')],
      from: [rules.toDate()],
      to: [rules.toDate()],
    },
    { checks: [(values) => (values.to < values.from ? { to: 'must not be before from' } : null)] },
  );
  assert.deepEqual(
    signup({ password: 'correct horse', confirm: 'correct house', from: '2024-01-02', to: '2024-01-01' }).errors,
    { confirm: 'does not match the password' },
  );
  assert.deepEqual(
    signup({ password: 'correct horse', confirm: 'correct horse', from: '2024-01-02', to: '2024-01-01' }).errors,
    { to: 'must not be before from' },
  );
  const formLevel = createValidator({ a: [rules.optional()], b: [rules.optional()] }, {
    checks: [(values) => (values.a || values.b ? null : 'give a or b')],
  });
  assert.deepEqual(formLevel({}).errors, { _form: 'give a or b' });
});

test('programming errors in rules are not swallowed', () => {
  const broken = createValidator({ a: [() => {
    throw new TypeError('bug');
  }] });
  assert.throws(() => broken({ a: '1' }), TypeError);
  assert.throws(() => createValidator({ a: 'required' }), /array of functions/);
  assert.ok(new RuleFailure('x') instanceof Error);
});

test('repeated query keys become lists', () => {
  const check = createValidator({ id: [rules.toList(), rules.each(rules.toInt())] });
  assert.deepEqual(check(new URLSearchParams('id=1&id=2')).values, { id: [1, 2] });
});

test('fromSettings binds input handling', () => {
  const kit = fromSettings({ validation: { trimStrings: false } });
  const check = kit.createValidator({ s: [kit.rules.required()] });
  assert.deepEqual(check({ s: ' a ' }).values, { s: ' a ' });
  assert.equal(fromSettings({}).defaults.emptyAsMissing, true);
});
