'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { packTar, unpackTar, packDirectory, extractTo, TarError, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

test('entries round-trip with data, mode and mtime', () => {
  const archive = packTar([
    { name: 'README.md', data: '# Notes\n' },
    { name: 'bin/run.sh', data: Buffer.from('#!/bin/sh\necho hi\n'), mode: 0o755, mtime: 1_700_000_000_000 },
    { name: 'empty.txt', data: '' },
  ]);
  assert.equal(archive.length % 512, 0);
  const entries = unpackTar(archive);
  assert.deepEqual(entries.map((e) => [e.name, e.data.toString(), e.mode, e.mtime]), [
    ['README.md', '# Notes\n', 0o644, 0],
    ['bin/run.sh', '#!/bin/sh\necho hi\n', 0o755, 1_700_000_000_000],
    ['empty.txt', '', 0o644, 0],
  ]);
});

test('long paths use the ustar prefix field', () => {
  const name = `${'deep/'.repeat(30)}file-with-a-reasonably-long-name.json`;
  const [entry] = unpackTar(packTar([{ name, data: '{}' }]));
  assert.equal(entry.name, name);
  assert.throws(() => packTar([{ name: 'x'.repeat(120), data: '' }]), /too long/);
});

test('gzip is applied on request and detected on read; output is reproducible', () => {
  const entries = [{ name: 'log.txt', data: 'line\n'.repeat(500) }];
  const plain = packTar(entries);
  const packed = packTar(entries, { gzip: true });
  assert.ok(packed.length < plain.length / 10);
  assert.deepEqual(unpackTar(packed).map((e) => e.data.length), [2500]);
  assert.deepEqual(packTar(entries, { gzip: true }), packed);
});

test('corruption and bad input are reported', () => {
  const archive = packTar([{ name: 'a.txt', data: 'hello' }]);
  const damaged = Buffer.from(archive);
  damaged[0] = 'b'.charCodeAt(0);
  assert.throws(() => unpackTar(damaged), /bad header checksum/);
  assert.throws(() => unpackTar(archive.subarray(0, 512)), /truncated/);
  assert.throws(() => packTar([{ name: 'a', data: '' }, { name: 'a', data: '' }]), /duplicate entry/);
  assert.throws(() => packTar([{ name: 'dir/', data: '' }]), TarError);
});

test('the system tar can read what we write', () => {
  const dir = scratchDir('tar-');
  fs.writeFileSync(path.join(dir, 'out.tar.gz'), packTar([{ name: 'x/y.txt', data: 'from node\n' }], { gzip: true }));
  const listed = spawnSync('tar', ['-xzOf', 'out.tar.gz', 'x/y.txt'], { cwd: dir });
  assert.equal(listed.status, 0, listed.stderr.toString());
  assert.equal(listed.stdout.toString(), 'from node\n');
});

test('directories pack and extract', () => {
  const source = scratchDir('tar-');
  fs.mkdirSync(path.join(source, 'data', 'nested'), { recursive: true });
  fs.writeFileSync(path.join(source, 'data', 'a.json'), '{"a":1}');
  fs.writeFileSync(path.join(source, 'data', 'nested', 'b.txt'), 'b');
  const archive = packDirectory(source, { gzip: true });
  const target = scratchDir('tar-');
  assert.deepEqual(extractTo(archive, target), ['data/a.json', 'data/nested/b.txt']);
  assert.equal(fs.readFileSync(path.join(target, 'data', 'nested', 'b.txt'), 'utf8'), 'b');
});

test('extraction refuses to leave the target directory', () => {
  const target = scratchDir('tar-');
  const evil = packTar([{ name: 'ok.txt', data: 'fine' }, { name: '../escape.txt', data: 'bad' }]);
  assert.throws(() => extractTo(evil, target), /outside the target/);
  assert.deepEqual(fs.readdirSync(target), []);
});

test('fromSettings binds gzip and mtime', () => {
  const bundle = fromSettings({ archive: { gzip: false, mtime: 86_400_000 } });
  const archive = bundle.pack([{ name: 'a', data: 'x' }]);
  assert.notEqual(archive[0], 0x1f);
  assert.equal(bundle.unpack(archive)[0].mtime, 86_400_000);
  assert.equal(fromSettings({}).options.gzip, true);
});
