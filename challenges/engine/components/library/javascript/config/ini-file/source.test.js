'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { IniConfig, parseIni, IniSyntaxError, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

const SAMPLE = [
  '; service settings',
  'name = billing',
  '',
  '[database]',
  'host = localhost   ; default',
  'port = 5432',
  'url = postgres://${host}:${port}/${main.name}',
  'password = "p;ss # word"',
  'motd = "line one\\nline two"',
  '',
  '[database.replica]',
  'host = replica.internal',
  'url = ${database.url}?replica=${host}',
  '',
  '[worker]',
  'enabled = yes',
  'queues = mail, reports,, ',
  'poll = 30s',
  'concurrency = 4',
].join('\n');

test('sections, comments and quoting', () => {
  const sections = parseIni(SAMPLE);
  assert.deepEqual(Object.keys(sections), ['main', 'database', 'database.replica', 'worker']);
  assert.equal(sections.database.host, 'localhost');
  assert.equal(sections.database.password, 'p;ss # word');
  assert.equal(sections.database.motd, 'line one\nline two');
});

test('interpolation within and across sections', () => {
  const config = new IniConfig(parseIni(SAMPLE));
  assert.equal(config.get('database', 'url'), 'postgres://localhost:5432/billing');
  assert.equal(config.get('database.replica', 'url'), 'postgres://localhost:5432/billing?replica=replica.internal');
  assert.equal(config.get('database', 'missing', 'fallback'), 'fallback');
});

test('typed accessors convert or explain', () => {
  const config = new IniConfig(parseIni(SAMPLE), { source: 'app.ini' });
  assert.equal(config.getBool('worker', 'enabled'), true);
  assert.deepEqual(config.getList('worker', 'queues'), ['mail', 'reports']);
  assert.equal(config.getDuration('worker', 'poll'), 30000);
  assert.equal(config.getInt('worker', 'concurrency'), 4);
  assert.equal(config.getInt('worker', 'absent', 9), 9);
  assert.throws(
    () => config.getInt('database', 'host'),
    /app\.ini: \[database\] host must be an integer, got "localhost"/,
  );
  assert.throws(() => config.getBool('main', 'name'), /yes or no/);
  assert.throws(() => config.getDuration('database', 'host'), /duration/);
});

test('bad references and cycles are reported', () => {
  const config = new IniConfig(parseIni('a = ${b}\nb = ${a}\nc = ${nope}'));
  assert.throws(() => config.get('main', 'a'), /circular reference/);
  assert.throws(() => config.get('main', 'c'), /undefined \$\{nope\}/);
});

test('syntax errors carry the line number', () => {
  assert.throws(
    () => parseIni('ok = 1\njust words', { source: 'x.ini' }),
    (err) => err instanceof IniSyntaxError && err.line === 2 && err.message.startsWith('x.ini:2:'),
  );
  assert.throws(() => parseIni('bad key = 1'), /invalid key/);
  assert.throws(() => parseIni('@include other.ini'), /not available/);
});

test('files with includes: later values win', () => {
  const dir = scratchDir('ini-');
  fs.mkdirSync(path.join(dir, 'conf.d'));
  fs.writeFileSync(path.join(dir, 'app.ini'), '[db]\nhost = prod\nport = 5432\n@include conf.d/local.ini\n');
  fs.writeFileSync(path.join(dir, 'conf.d', 'local.ini'), '[db]\nhost = localhost\n[extra]\nx = 1\n');
  const config = IniConfig.load(path.join(dir, 'app.ini'));
  assert.deepEqual(config.section('db'), { host: 'localhost', port: '5432' });
  assert.deepEqual(config.sectionNames(), ['main', 'db', 'extra']);
  fs.writeFileSync(path.join(dir, 'loop.ini'), '@include loop.ini\n');
  assert.throws(() => IniConfig.load(path.join(dir, 'loop.ini')), /nested too deeply/);
});

test('fromSettings reads a file or inline text', () => {
  const dir = scratchDir('ini-');
  const file = path.join(dir, 'svc.ini');
  fs.writeFileSync(file, 'port = 80\n');
  assert.equal(fromSettings({ config: { path: file, defaultSection: 'root' } }).getInt('root', 'port'), 80);
  assert.equal(fromSettings({ config: { text: 'a = 1' } }).get('main', 'a'), '1');
  assert.deepEqual(fromSettings({}).sectionNames(), ['main']);
});
