'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Config, ConfigError, loadConfig, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function tempJson(content) {
  const dir = scratchDir('cfg-');
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

test('layers apply in order: defaults, file, env, overrides', () => {
  const file = tempJson({ db: { host: 'file-host', port: 5432 }, name: 'from-file' });
  const config = loadConfig({
    defaults: { db: { host: 'localhost', pool: 4 }, name: 'default', debug: false },
    file,
    env: { APP_DB__HOST: 'env-host', APP_DEBUG: 'true', OTHER_NAME: 'ignored' },
    overrides: { name: 'cli' },
  });
  assert.equal(config.get('db.host'), 'env-host');
  assert.equal(config.get('db.port'), 5432);
  assert.equal(config.get('db.pool'), 4);
  assert.equal(config.get('debug'), true);
  assert.equal(config.get('name'), 'cli');
});

test('environment values are decoded as JSON when possible', () => {
  const config = loadConfig({ env: { APP_LIMIT: '25', APP_TAGS: '["a","b"]', APP_MODE: 'fast' } });
  assert.equal(config.get('limit'), 25);
  assert.deepEqual(config.get('tags'), ['a', 'b']);
  assert.equal(config.get('mode'), 'fast');
});

test('missing file is ignored, malformed file is an error', () => {
  assert.deepEqual(loadConfig({ file: '/nonexistent/config.json', env: {} }).toJSON(), {});
  const bad = tempJson('{not json');
  assert.throws(() => loadConfig({ file: bad, env: {} }), ConfigError);
  const list = tempJson([1, 2]);
  assert.throws(() => loadConfig({ file: list, env: {} }), /JSON object/);
});

test('typed getters coerce and reject', () => {
  const config = new Config({ port: '8080', workers: 3, verbose: 'off', ratio: 0.5 });
  assert.equal(config.getInt('port'), 8080);
  assert.equal(config.getInt('workers'), 3);
  assert.equal(config.getInt('missing', 7), 7);
  assert.throws(() => config.getInt('ratio'), ConfigError);
  assert.equal(config.getBool('verbose'), false);
  assert.throws(() => config.getBool('port'), /boolean/);
});

test('require, has and section', () => {
  const config = new Config({ cache: { ttl: 30, backend: { kind: 'memory' } } });
  assert.equal(config.has('cache.ttl'), true);
  assert.equal(config.has('cache.size'), false);
  assert.throws(() => config.require('cache.size'), (err) => err.key === 'cache.size');
  const cache = config.section('cache');
  assert.equal(cache.get('backend.kind'), 'memory');
  assert.throws(() => config.section('cache.ttl'), ConfigError);
});

test('the tree is frozen but toJSON returns a mutable copy', () => {
  const config = new Config({ a: { b: 1 } });
  assert.throws(() => {
    config.tree.a.b = 2;
  }, TypeError);
  const copy = config.toJSON();
  copy.a.b = 2;
  assert.equal(config.get('a.b'), 1);
});

test('fromSettings reads its own section', () => {
  const config = fromSettings(
    { config: { envPrefix: 'SVC', defaults: { port: 1 } } },
    { SVC_PORT: '2', APP_PORT: '3' },
  );
  assert.equal(config.get('port'), 2);
  assert.ok(fromSettings({}) instanceof Config);
});
