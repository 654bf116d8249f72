'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { createSnapshotArchive, SnapshotError, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function tempDir() {
  return path.join(scratchDir('snap-'), 'snapshots');
}

function steppingClock(startIso, stepMs) {
  let now = Date.parse(startIso);
  return () => {
    const value = new Date(now);
    now += stepMs;
    return value;
  };
}

test('save writes a compressed, timestamped file that loads back', async () => {
  const directory = tempDir();
  const archive = createSnapshotArchive({ directory, clock: () => new Date('2024-03-01T10:20:30.456Z') });
  const state = { orders: [{ id: 1, total: 9.5 }], version: 3 };
  const saved = await archive.save(state);
  assert.equal(path.basename(saved.file), 'state-20240301T102030456Z.json.gz');
  assert.ok(saved.bytes > 0);
  const loaded = await archive.load(saved.file);
  assert.deepEqual(loaded.state, state);
  assert.equal(loaded.takenAt.toISOString(), '2024-03-01T10:20:30.456Z');
  assert.deepEqual(fs.readdirSync(directory), ['state-20240301T102030456Z.json.gz']);
});

test('list is newest first and ignores unrelated files', async () => {
  const directory = tempDir();
  const archive = createSnapshotArchive({ directory, clock: steppingClock('2024-01-01T00:00:00Z', 60_000) });
  await archive.save({ n: 1 });
  await archive.save({ n: 2 });
  fs.writeFileSync(path.join(directory, 'notes.txt'), 'x');
  fs.writeFileSync(path.join(directory, 'other-20240101T000000000Z.json.gz'), 'x');
  const listed = await archive.list();
  assert.deepEqual(
    listed.map((s) => s.takenAt.toISOString()),
    ['2024-01-01T00:01:00.000Z', '2024-01-01T00:00:00.000Z'],
  );
  assert.deepEqual(await createSnapshotArchive({ directory: path.join(directory, 'missing') }).list(), []);
});

test('restore returns the newest intact snapshot and reports damaged ones', async () => {
  const directory = tempDir();
  const archive = createSnapshotArchive({ directory, clock: steppingClock('2024-01-01T00:00:00Z', 1000) });
  await archive.save({ n: 1 });
  const second = await archive.save({ n: 2 });
  const third = await archive.save({ n: 3 });
  fs.writeFileSync(third.file, 'not gzip');
  const envelope = JSON.parse(zlib.gunzipSync(fs.readFileSync(second.file)).toString());
  envelope.state = JSON.stringify({ n: 200 });
  fs.writeFileSync(second.file, zlib.gzipSync(JSON.stringify(envelope)));
  const restored = await archive.restore();
  assert.deepEqual(restored.state, { n: 1 });
  assert.deepEqual(restored.skipped, [path.basename(third.file), path.basename(second.file)]);
  await assert.rejects(archive.load(second.file), /checksum mismatch/);
  await assert.rejects(archive.load(path.join(directory, 'nope.json.gz')), SnapshotError);
});

test('restore with no snapshots returns null', async () => {
  assert.equal(await createSnapshotArchive({ directory: tempDir() }).restore(), null);
});

test('retention keeps the latest ones plus one per recent day', async () => {
  const directory = tempDir();
  const archive = createSnapshotArchive({
    directory,
    keepLast: 2,
    keepDaily: 3,
    clock: steppingClock('2024-05-01T06:00:00Z', 8 * 3_600_000),
  });
  let removed = [];
  for (let i = 0; i < 12; i += 1) removed = removed.concat((await archive.save({ i })).removed);
  const kept = (await archive.list()).map((s) => s.takenAt.toISOString());
  assert.deepEqual(kept, [
    '2024-05-04T22:00:00.000Z',
    '2024-05-04T14:00:00.000Z',
    '2024-05-03T22:00:00.000Z',
    '2024-05-02T22:00:00.000Z',
  ]);
  assert.equal(removed.length, 8);
});

test('names are validated; fromSettings configures directory and name', async () => {
  assert.throws(() => createSnapshotArchive({ name: '../evil' }), RangeError);
  const directory = tempDir();
  const archive = fromSettings({ archive: { directory, name: 'cart', keepLast: 1, keepDaily: 0 } });
  await archive.save({ a: 1 });
  await new Promise((resolve) => {
    setTimeout(resolve, 2);
  });
  await archive.save({ a: 2 });
  const files = fs.readdirSync(directory);
  assert.equal(files.length, 1);
  assert.match(files[0], /^cart-\d{8}T\d{9}Z\.json\.gz$/);
  assert.equal(fromSettings({}).name, 'state');
});
