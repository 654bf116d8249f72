'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createAuditTrail, AuditIntegrityError, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function clockFrom(iso, stepMs = 1000) {
  let now = Date.parse(iso);
  return () => {
    const value = new Date(now);
    now += stepMs;
    return value;
  };
}

function tempFile() {
  return path.join(scratchDir('audit-'), 'audit.jsonl');
}

test('entries are numbered and chained', () => {
  const trail = createAuditTrail({ clock: clockFrom('2024-05-01T00:00:00Z') });
  const first = trail.record('ann', 'user.create', { id: 7 });
  const second = trail.record('bob', 'user.delete', { id: 7 });
  assert.equal(first.seq, 1);
  assert.equal(second.prev, first.hash);
  assert.equal(trail.head, second.hash);
  assert.equal(trail.size, 2);
  assert.deepEqual(trail.verify(), { ok: true, checked: 2 });
});

test('details are copied, so later mutation does not alter the record', () => {
  const trail = createAuditTrail();
  const details = { amount: 10 };
  const entry = trail.record('svc', 'charge', details);
  details.amount = 99;
  assert.equal(entry.details.amount, 10);
  assert.throws(() => trail.record('', 'x'), TypeError);
});

test('query filters by actor, action prefix, time window and limit', () => {
  const trail = createAuditTrail({ clock: clockFrom('2024-05-01T00:00:00Z', 60000) });
  trail.record('ann', 'invoice.create');
  trail.record('bob', 'invoice.void');
  trail.record('ann', 'user.login');
  trail.record('ann', 'invoice.void');
  assert.equal(trail.query({ actor: 'ann' }).length, 3);
  assert.deepEqual(trail.query({ action: 'invoice.*' }).map((e) => e.seq), [1, 2, 4]);
  assert.deepEqual(trail.query({ since: new Date('2024-05-01T00:01:00Z'), until: new Date('2024-05-01T00:03:00Z') })
    .map((e) => e.seq), [2, 3]);
  assert.deepEqual(trail.query({ actor: 'ann', limit: 1 }).map((e) => e.seq), [4]);
});

test('a file-backed trail survives reopening and keeps the chain', () => {
  const file = tempFile();
  const first = createAuditTrail({ path: file });
  first.record('ann', 'a');
  first.record('ann', 'b');
  const reopened = createAuditTrail({ path: file });
  assert.equal(reopened.size, 2);
  const next = reopened.record('bob', 'c');
  assert.equal(next.seq, 3);
  assert.deepEqual(reopened.verify(), { ok: true, checked: 3 });
});

test('editing a line is detected and refuses to reopen', () => {
  const file = tempFile();
  const trail = createAuditTrail({ path: file });
  trail.record('ann', 'refund', { amount: 5 });
  trail.record('ann', 'refund', { amount: 6 });
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[0] = lines[0].replace('"amount":5', '"amount":500');
  fs.writeFileSync(file, lines.join('\n'));
  assert.deepEqual(trail.verify(), { ok: false, checked: 0, seq: 1, reason: 'content changed' });
  assert.throws(() => createAuditTrail({ path: file }), (err) => err instanceof AuditIntegrityError && err.seq === 1);
});

test('removing a line breaks the sequence', () => {
  const file = tempFile();
  const trail = createAuditTrail({ path: file });
  for (const action of ['a', 'b', 'c']) trail.record('ann', action);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.splice(1, 1);
  fs.writeFileSync(file, lines.join('\n'));
  assert.equal(trail.verify().reason, 'sequence gap');
  fs.writeFileSync(file, lines.slice(1).join('\n'));
  assert.deepEqual(trail.verify(), { ok: false, checked: 0, seq: 1, reason: 'sequence gap' });
});

test('memory is bounded and listeners see new entries', () => {
  const trail = createAuditTrail({ maxInMemory: 2 });
  const seen = [];
  const stop = trail.onRecord((entry) => seen.push(entry.action));
  trail.record('x', 'one');
  trail.record('x', 'two');
  stop();
  trail.record('x', 'three');
  assert.deepEqual(seen, ['one', 'two']);
  assert.deepEqual(trail.query().map((e) => e.action), ['two', 'three']);
  assert.equal(trail.size, 3);
  assert.deepEqual(trail.verify(), { ok: true, checked: 2 });
});

test('fromSettings honours path and size', () => {
  const file = tempFile();
  const trail = fromSettings({ logging: { path: file, maxInMemory: 5 } });
  trail.record('ann', 'x');
  assert.ok(fs.readFileSync(file, 'utf8').includes('"action":"x"'));
  assert.equal(fromSettings({}).size, 0);
});
