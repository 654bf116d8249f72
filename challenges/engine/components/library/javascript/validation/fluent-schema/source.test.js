'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { v, ValidationError, fromSettings } = require('./source');

const User = v.object({
  name: v.string().trim().min(1).max(20),
  email: v.string().email(),
  age: v.number().int().min(0).optional(),
  tags: v.array(v.string().min(2)).max(3).default([]),
  role: v.enum(['admin', 'member']),
  address: v.object({ city: v.string(), zip: v.string().pattern(/^\d{5}$/, 'must be five digits') }).nullable(),
});

test('valid input is cleaned and defaults applied', () => {
  const user = User.parse({ name: '  Ann ', email: 'ann@example.com', role: 'admin', address: null, extra: 1 });
  assert.deepEqual(user, { name: 'Ann', email: 'ann@example.com', tags: [], role: 'admin', address: null });
});

test('every issue is reported with its path', () => {
  const result = User.check({
    name: '   ',
    email: 'nope',
    age: 3.5,
    tags: ['ok', 'x', 5],
    role: 'owner',
    address: { zip: '12' },
  });
  assert.equal(result.ok, false);
  assert.deepEqual(result.issues, [
    { path: 'name', message: 'must be at least 1 characters' },
    { path: 'email', message: 'must be an email address' },
    { path: 'age', message: 'must be an integer' },
    { path: 'tags[1]', message: 'must be at least 2 characters' },
    { path: 'tags[2]', message: 'expected a string' },
    { path: 'role', message: 'expected one of "admin", "member"' },
    { path: 'address.city', message: 'is required' },
    { path: 'address.zip', message: 'must be five digits' },
  ]);
});

test('parse throws a ValidationError carrying the issues', () => {
  assert.throws(
    () => User.parse('not an object'),
    (err) =>
      err instanceof ValidationError &&
      err.issues[0].message === 'expected an object' &&
      err.message === '(root): expected an object',
  );
});

test('schemas are immutable: refinements return new schemas', () => {
  const base = v.number();
  const small = base.max(10);
  assert.equal(base.check(50).ok, true);
  assert.equal(small.check(50).ok, false);
  assert.equal(v.number().check(NaN).ok, false);
});

test('unknown keys: stripped, kept, or rejected', () => {
  const Point = v.object({ x: v.number() });
  assert.deepEqual(Point.parse({ x: 1, y: 2 }), { x: 1 });
  assert.deepEqual(Point.parse({ x: 1, y: 2 }, { stripUnknown: false }), { x: 1, y: 2 });
  assert.deepEqual(Point.strict().check({ x: 1, y: 2 }).issues, [{ path: 'y', message: 'is not allowed' }]);
});

test('defaults are copied, transforms and literals work', () => {
  const S = v.object({ list: v.array(v.number()).default([1]) });
  const a = S.parse({});
  a.list.push(2);
  assert.deepEqual(S.parse({}).list, [1]);
  const Upper = v.string().transform((s) => s.toUpperCase()).refine((s) => s.startsWith('A'), 'must start with A');
  assert.equal(Upper.parse('abc'), 'ABC');
  assert.equal(Upper.check('xyz').ok, false);
  assert.equal(v.literal('v1').check('v2').issues[0].message, 'expected "v1"');
  assert.equal(v.boolean().parse(false), false);
});

test('maxErrors caps the report', () => {
  const Many = v.array(v.number());
  assert.equal(Many.check(['a', 'b', 'c', 'd'], { maxErrors: 2 }).issues.length, 2);
});

test('fromSettings binds options', () => {
  const kit = fromSettings({ validation: { stripUnknown: false, maxErrors: 1 } });
  const S = kit.object({ a: kit.number(), b: kit.number() });
  assert.deepEqual(kit.parse(S, { a: 1, b: 2, c: 3 }), { a: 1, b: 2, c: 3 });
  assert.equal(kit.check(S, {}).issues.length, 1);
  assert.equal(fromSettings({}).options.maxErrors, 50);
});
