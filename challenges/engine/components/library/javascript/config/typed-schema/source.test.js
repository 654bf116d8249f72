'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { defineSettings, SettingsError, fromSettings } = require('./source');

const schema = defineSettings(
  {
    port: { type: 'int', default: 8080, min: 1, max: 65535 },
    debug: { type: 'bool', default: false },
    databaseUrl: { type: 'url', required: true, secret: true },
    allowedHosts: { type: 'list', default: [] },
    requestTimeout: { type: 'duration', default: '30s' },
    logLevel: { type: 'enum', choices: ['debug', 'info', 'warn'], default: 'info' },
  },
  { prefix: 'svc' },
);

test('environment names derive from field names and the prefix', () => {
  const names = schema.describe().map((row) => row.env);
  assert.deepEqual(names, [
    'SVC_PORT',
    'SVC_DEBUG',
    'SVC_DATABASE_URL',
    'SVC_ALLOWED_HOSTS',
    'SVC_REQUEST_TIMEOUT',
    'SVC_LOG_LEVEL',
  ]);
});

test('values are parsed into their declared types, defaults fill gaps', () => {
  const settings = schema.load({
    SVC_PORT: '9000',
    SVC_DEBUG: 'yes',
    SVC_DATABASE_URL: 'postgres://db.internal:5432/app',
    SVC_ALLOWED_HOSTS: 'a.example, b.example,,',
  });
  assert.equal(settings.port, 9000);
  assert.equal(settings.debug, true);
  assert.equal(settings.databaseUrl, 'postgres://db.internal:5432/app');
  assert.deepEqual(settings.allowedHosts, ['a.example', 'b.example']);
  assert.equal(settings.requestTimeout, 30000);
  assert.equal(settings.logLevel, 'info');
  assert.ok(Object.isFrozen(settings));
});

test('all problems are reported together and secrets are not echoed', () => {
  let error;
  try {
    schema.load({ SVC_PORT: '70000', SVC_DEBUG: 'maybe', SVC_LOG_LEVEL: 'loud', SVC_REQUEST_TIMEOUT: 'soon' });
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof SettingsError);
  assert.equal(error.problems.length, 5);
  assert.match(error.message, /SVC_PORT="70000": must be <= 65535/);
  assert.match(error.message, /SVC_DATABASE_URL is required/);
  assert.match(error.message, /expected one of debug, info, warn/);

  assert.throws(
    () => schema.load({ SVC_DATABASE_URL: 'not a url with password hunter2' }),
    (err) => err.problems[0].includes('<hidden>') && !err.message.includes('hunter2'),
  );
});

test('durations accept units', () => {
  const timing = defineSettings({ wait: { type: 'duration', default: 0 } });
  assert.equal(timing.load({ WAIT: '250ms' }).wait, 250);
  assert.equal(timing.load({ WAIT: '1.5s' }).wait, 1500);
  assert.equal(timing.load({ WAIT: '2h' }).wait, 7200000);
  assert.equal(timing.load({ WAIT: '40' }).wait, 40);
});

test('unknown prefixed variables can be rejected', () => {
  const strict = defineSettings({ port: { type: 'int', default: 1 } }, { prefix: 'app', allowUnknown: false });
  assert.throws(() => strict.load({ APP_PROT: '80' }), /APP_PROT is not a known setting/);
  assert.equal(strict.load({ HOME: '/root' }).port, 1);
});

test('bad declarations fail fast', () => {
  assert.throws(() => defineSettings({ x: { type: 'date' } }), TypeError);
  assert.throws(() => defineSettings({ x: { type: 'enum', choices: [] } }), /choices/);
});

test('describe masks secrets when given loaded values', () => {
  const loaded = schema.load({ SVC_DATABASE_URL: 'https://u:p@db.example/' });
  const row = schema.describe(loaded).find((r) => r.name === 'databaseUrl');
  assert.equal(row.value, '********');
  assert.equal(schema.describe(loaded).find((r) => r.name === 'port').value, 8080);
});

test('fromSettings builds the schema from the config section', () => {
  const built = fromSettings({ config: { envPrefix: 'X', fields: { size: { type: 'int', default: 3 } } } });
  assert.deepEqual(built.fields, ['size']);
  assert.equal(built.load({ X_SIZE: '4' }).size, 4);
  assert.deepEqual(fromSettings({}).fields, []);
});
