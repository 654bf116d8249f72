'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { SwitchBoard, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function switchFile(content) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switch-'));
  scratch.push(dir);
  const file = path.join(dir, 'switches.json');
  fs.writeFileSync(file, JSON.stringify(content));
  return file;
}

function touchLater(file, content, secondsAhead) {
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  const later = new Date(Date.now() + secondsAhead * 1000);
  fs.utimesSync(file, later, later);
}

test('values come from the file, with object and boolean forms', () => {
  const file = switchFile({ maintenance: false, 'new-mailer': { on: true, note: 'migration' } });
  const board = new SwitchBoard({ path: file, env: {} });
  assert.equal(board.isOn('maintenance'), false);
  assert.equal(board.isOn('new-mailer'), true);
  assert.deepEqual(board.explain('unknown'), { on: false, source: 'missing' });
});

test('environment overrides the file; defaults fill gaps', () => {
  const file = switchFile({ 'new-mailer': true });
  const board = new SwitchBoard({
    path: file,
    env: { SWITCH_NEW_MAILER: 'off', SWITCH_UPLOADS: 'maybe' },
    defaults: { uploads: true },
  });
  assert.deepEqual(board.explain('new-mailer'), { on: false, source: 'env' });
  assert.deepEqual(board.explain('uploads'), { on: true, source: 'default' });
  assert.deepEqual(
    board.list().map((s) => `${s.name}:${s.on}:${s.source}`),
    ['new-mailer:false:env', 'uploads:true:default'],
  );
});

test('changes to the file are picked up after the check interval', () => {
  let now = 0;
  const file = switchFile({ maintenance: false });
  const board = new SwitchBoard({ path: file, env: {}, checkEveryMs: 1000, now: () => now });
  touchLater(file, { maintenance: true }, 5);
  now = 500;
  assert.equal(board.isOn('maintenance'), false);
  now = 1000;
  assert.equal(board.isOn('maintenance'), true);
});

test('a malformed file keeps the last good state and reports why', () => {
  const file = switchFile({ maintenance: true });
  const board = new SwitchBoard({ path: file, env: {}, checkEveryMs: 0 });
  touchLater(file, '{ not json', 5);
  assert.equal(board.isOn('maintenance'), true);
  assert.match(board.lastError, /switches\.json: /);
  touchLater(file, { maintenance: 'yes' }, 10);
  assert.equal(board.isOn('maintenance'), true);
  assert.match(board.lastError, /must be true\/false/);
  touchLater(file, { maintenance: false }, 15);
  assert.equal(board.isOn('maintenance'), false);
  assert.equal(board.lastError, null);
});

test('expired switches are listed', () => {
  const file = switchFile({
    old: { on: true, expires: '2024-01-01', note: 'remove me' },
    current: { on: true, expires: '2030-01-01' },
    plain: true,
  });
  const board = new SwitchBoard({ path: file, env: {}, now: () => Date.parse('2024-06-01T00:00:00Z') });
  assert.deepEqual(board.expired().map((s) => [s.name, s.note]), [['old', 'remove me']]);
});

test('a missing file is not fatal', () => {
  const board = new SwitchBoard({ path: '/nonexistent/switches.json', env: { SWITCH_X: '1' } });
  assert.equal(board.isOn('x'), true);
  assert.match(board.lastError, /does not exist/);
});

test('fromSettings reads path and prefix', () => {
  const file = switchFile({ beta: true });
  const board = fromSettings({ flags: { path: file, envPrefix: 'OPS' } }, { OPS_BETA: 'no' });
  assert.deepEqual(board.explain('beta'), { on: false, source: 'env' });
  assert.equal(fromSettings({}, {}).isOn('anything'), false);
});
