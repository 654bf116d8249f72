'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { compileSchema, SchemaError, fromSettings } = require('./source');

const order = {
  type: 'object',
  required: ['id', 'items', 'placedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    placedAt: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    status: { enum: ['new', 'paid', 'shipped'] },
    items: { type: 'array', minItems: 1, items: { $ref: '#/$defs/line' } },
    note: { type: ['string', 'null'], maxLength: 5 },
  },
  $defs: {
    line: {
      type: 'object',
      required: ['sku', 'qty', 'price'],
      properties: {
        sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
        qty: { type: 'integer', minimum: 1 },
        price: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.01 },
      },
    },
  },
};

const good = {
  id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  placedAt: '2024-06-01T12:00:00Z',
  items: [{ sku: 'ABC-1', qty: 2, price: 9.99 }],
  note: null,
};

test('a valid document passes', () => {
  assert.deepEqual(compileSchema(order).validate(good), { valid: true, errors: [] });
});

test('errors point at the failing location with the keyword', () => {
  const { valid, errors } = compileSchema(order).validate({
    id: 'nope',
    placedAt: '2024-13-01T00:00:00Z',
    status: 'lost',
    items: [{ sku: 'abc-1', qty: 0, price: 1.234 }, { sku: 'XYZ-2', qty: 1.5 }],
    note: 'far too long',
    extra: 1,
  });
  assert.equal(valid, false);
  assert.deepEqual(errors.map((e) => `${e.path} ${e.keyword}`), [
    '/id format',
    '/placedAt format',
    '/status enum',
    '/items/0/sku pattern',
    '/items/0/qty minimum',
    '/items/0/price multipleOf',
    '/items/1/price required',
    '/items/1/qty type',
    '/note maxLength',
    '/extra additionalProperties',
  ]);
});

test('type rules: integers are numbers, arrays of types, null', () => {
  const v = compileSchema({ type: 'number' });
  assert.equal(v.validate(3).valid, true);
  assert.equal(compileSchema({ type: 'integer' }).validate(3.5).valid, false);
  assert.equal(compileSchema({ type: ['string', 'null'] }).validate(null).valid, true);
  assert.equal(compileSchema({ type: 'object' }).validate([]).valid, false);
  assert.equal(compileSchema({ const: { a: [1] } }).validate({ a: [1] }).valid, true);
});

test('combinators', () => {
  const idOrEmail = compileSchema({ anyOf: [{ type: 'integer' }, { type: 'string', format: 'email' }] });
  assert.equal(idOrEmail.validate(7).valid, true);
  assert.equal(idOrEmail.validate('x').errors[0].keyword, 'anyOf');
  const exactlyOne = compileSchema({ oneOf: [{ type: 'number', minimum: 0 }, { type: 'number', maximum: 10 }] });
  assert.equal(exactlyOne.validate(-5).valid, true);
  assert.match(exactlyOne.validate(5).errors[0].message, /matched 2/);
  assert.equal(compileSchema({ not: { type: 'null' } }).validate(null).valid, false);
  assert.equal(compileSchema({ allOf: [{ minimum: 1 }, { maximum: 3 }] }).validate(4).valid, false);
});

test('arrays: uniqueness and additionalProperties schemas', () => {
  assert.equal(compileSchema({ uniqueItems: true }).validate([{ a: 1 }, { a: 1 }]).valid, false);
  const map = compileSchema({ type: 'object', additionalProperties: { type: 'integer' } });
  assert.deepEqual(map.validate({ a: 1, b: 'x' }).errors.map((e) => e.path), ['/b']);
  assert.deepEqual(compileSchema(false).validate(1).errors[0].keyword, 'false');
});

test('first-error mode stops early; assert throws with all errors', () => {
  const quick = compileSchema(order, { allErrors: false });
  assert.equal(quick.validate({}).errors.length, 1);
  assert.throws(() => compileSchema(order).assert({ items: [] }), (err) => {
    assert.ok(err instanceof SchemaError);
    assert.equal(err.errors.length, 3);
    assert.match(err.message, /\/id is required/);
    return true;
  });
  assert.equal(compileSchema(order).assert(good), good);
});

test('bad references are schema errors; formats can be turned off', () => {
  assert.throws(() => compileSchema({ $ref: '#/$defs/missing' }).validate(1), /cannot resolve/);
  assert.equal(compileSchema({ format: 'email' }, { formats: false }).validate('nope').valid, true);
  assert.equal(compileSchema({ format: 'date' }).validate('2023-02-29').valid, false);
});

test('fromSettings binds options', () => {
  const kit = fromSettings({ validation: { allErrors: false } });
  assert.equal(kit.compile({ required: ['a', 'b'] }).validate({}).errors.length, 1);
  assert.equal(fromSettings({}).options.formats, true);
});
