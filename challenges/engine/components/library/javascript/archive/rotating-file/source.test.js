'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { RotatingFile, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function tempFile() {
  return path.join(scratchDir('rot-'), 'logs', 'app.log');
}

test('writes append until the size limit, then rotate', () => {
  const file = tempFile();
  const out = new RotatingFile(file, { maxBytes: 20, keep: 3, compress: false });
  out.writeLine('0123456789');
  out.writeLine('abcdefgh');
  assert.equal(out.rotations, 0);
  out.writeLine('next');
  assert.equal(out.rotations, 1);
  assert.equal(fs.readFileSync(`${file}.1`, 'utf8'), '0123456789\nabcdefgh\n');
  assert.equal(fs.readFileSync(file, 'utf8'), 'next\n');
  out.close();
});

test('only `keep` generations are kept, newest first', () => {
  const file = tempFile();
  const out = new RotatingFile(file, { maxBytes: 5, keep: 2, compress: false });
  for (const word of ['aaaa', 'bbbb', 'cccc', 'dddd']) out.writeLine(word);
  assert.deepEqual(out.files().map((f) => path.basename(f)), ['app.log', 'app.log.1', 'app.log.2']);
  assert.equal(fs.readFileSync(`${file}.1`, 'utf8'), 'cccc\n');
  assert.equal(fs.readFileSync(`${file}.2`, 'utf8'), 'bbbb\n');
  assert.equal(out.readAll(), 'bbbb\ncccc\ndddd\n');
  out.close();
});

test('rotated generations are gzipped', () => {
  const file = tempFile();
  const out = new RotatingFile(file, { maxBytes: 900, keep: 2, compress: true });
  const line = 'GET /api/orders 200 12ms';
  for (let i = 0; i < 40; i += 1) out.writeLine(line);
  assert.equal(out.rotations, 1);
  const packed = fs.readFileSync(`${file}.1.gz`);
  const text = zlib.gunzipSync(packed).toString();
  assert.equal(text.split('\n').filter(Boolean).length, 36);
  assert.ok(packed.length < text.length / 5);
  assert.equal(out.readAll().split('\n').filter(Boolean).length, 40);
  assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['app.log', 'app.log.1.gz']);
  out.close();
});

test('reopening continues the existing file and its size', () => {
  const file = tempFile();
  const first = new RotatingFile(file, { maxBytes: 12, compress: false });
  first.write('12345678');
  first.close();
  const second = new RotatingFile(file, { maxBytes: 12, compress: false });
  second.write('abcdef');
  assert.equal(second.rotations, 1);
  assert.equal(fs.readFileSync(`${file}.1`, 'utf8'), '12345678');
  second.close();
});

test('an oversized single write still lands in one file', () => {
  const file = tempFile();
  const out = new RotatingFile(file, { maxBytes: 4, compress: false });
  out.write('much longer than four bytes');
  assert.equal(out.rotations, 0);
  assert.equal(fs.readFileSync(file, 'utf8'), 'much longer than four bytes');
  out.close();
});

test('keep 0 discards rotated content; options are validated', () => {
  const file = tempFile();
  const out = new RotatingFile(file, { maxBytes: 4, keep: 0 });
  out.write('aaa');
  out.write('bbb');
  assert.deepEqual(out.files(), [path.resolve(file)]);
  assert.equal(out.readAll(), 'bbb');
  out.close();
  assert.throws(() => new RotatingFile(file, { maxBytes: 0 }), RangeError);
  assert.throws(() => new RotatingFile(file, { keep: 1.5 }), RangeError);
});

test('fromSettings opens lazily at the configured path', () => {
  const file = tempFile();
  const out = fromSettings({ archive: { path: file, maxBytes: 100, compress: false } });
  assert.equal(fs.existsSync(file), false);
  out.writeLine('hello');
  assert.equal(fs.readFileSync(file, 'utf8'), 'hello\n');
  out.close();
  assert.equal(fromSettings({}).keep, 5);
});
