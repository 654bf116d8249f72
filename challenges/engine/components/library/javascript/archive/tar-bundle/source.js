'use strict';

/**
 * ustar archives, the tar dialect every `tar` binary reads.
 *
 * `packTar(entries)` builds an archive from `{ name, data, mode?, mtime? }`
 * entries; `unpackTar(buffer)` returns them again, verifying header checksums.
 * With `gzip`, the archive is compressed and decompression is detected on
 * read from the magic bytes. `packDirectory` / `extractTo` bridge to the
 * filesystem; extraction refuses absolute paths and `..` so an archive cannot
 * write outside its target directory.
 *
 * A fixed `mtime` (0 by default) makes archives byte-for-byte reproducible.
 */

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const BLOCK = 512;

/** An archive cannot be written or read as valid ustar. */
class TarError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'TarError';
  }
}

function writeString(header, offset, length, value) {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new TarError(`"${value}" does not fit in ${length} bytes`);
  bytes.copy(header, offset);
}

function writeOctal(header, offset, length, value) {
  const text = value.toString(8).padStart(length - 1, '0');
  if (text.length > length - 1) throw new TarError(`value ${value} is too large for a tar header`);
  header.write(`${text}\0`, offset, 'ascii');
}

function readString(header, offset, length) {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(header, offset, length) {
  const text = readString(header, offset, length).trim();
  return text ? parseInt(text, 8) : 0;
}

function checksum(header) {
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : header[i];
  return sum;
}

/** Split a long path into the ustar prefix (155 bytes) and name (100 bytes). */
function splitName(name) {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let i = name.length - 1; i > 0; i -= 1) {
    if (name[i] !== '/') continue;
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return [prefix, rest];
  }
  throw new TarError(`path too long for ustar: ${name}`);
}

function header(entry, mtime) {
  const block = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(entry.name);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, entry.mode ?? 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, entry.data.length);
  writeOctal(block, 136, 12, Math.floor((entry.mtime ?? mtime) / 1000));
  block.write('0', 156, 'ascii');
  block.write('ustar\u000000', 257, 'binary');
  writeString(block, 345, 155, prefix);
  block.write(`${checksum(block).toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/**
 * Build an archive.
 * @param {{name: string, data: Buffer|string, mode?: number, mtime?: number}[]} entries
 * @param {{gzip?: boolean, mtime?: number}} [options] `mtime` in ms, used for entries without one
 * @returns {Buffer}
 */
function packTar(entries, options = {}) {
  const mtime = options.mtime ?? 0;
  const parts = [];
  const seen = new Set();
  for (const entry of entries) {
    const name = entry.name.replace(/\\/g, '/');
    if (!name || name.endsWith('/')) throw new TarError(`invalid file name: "${entry.name}"`);
    if (seen.has(name)) throw new TarError(`duplicate entry: ${name}`);
    seen.add(name);
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(String(entry.data));
    parts.push(header({ ...entry, name, data }, mtime), data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  const tar = Buffer.concat(parts);
  return options.gzip ? zlib.gzipSync(tar, { level: 9 }) : tar;
}

/**
 * Read an archive (plain or gzipped). Only regular files are returned.
 * @param {Buffer} buffer
 * @returns {{name: string, data: Buffer, mode: number, mtime: number}[]}
 */
function unpackTar(buffer) {
  const tar = buffer[0] === 0x1f && buffer[1] === 0x8b ? zlib.gunzipSync(buffer) : buffer;
  const entries = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const block = tar.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const stored = readOctal(block, 148, 8);
    if (stored !== checksum(block)) throw new TarError(`bad header checksum at offset ${offset}`);
    const size = readOctal(block, 124, 12);
    const type = String.fromCharCode(block[156] || 48);
    const prefix = readString(block, 345, 155);
    const name = prefix ? `${prefix}/${readString(block, 0, 100)}` : readString(block, 0, 100);
    const start = offset + BLOCK;
    if (start + size > tar.length) throw new TarError(`truncated archive in ${name}`);
    if (type === '0') {
      entries.push({
        name,
        data: Buffer.from(tar.subarray(start, start + size)),
        mode: readOctal(block, 100, 8),
        mtime: readOctal(block, 136, 12) * 1000,
      });
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

/**
 * Archive every file under `dir`, with paths relative to it, sorted for reproducibility.
 * @param {string} dir
 * @param {{gzip?: boolean, mtime?: number}} [options]
 * @returns {Buffer}
 */
function packDirectory(dir, options = {}) {
  const root = path.resolve(dir);
  const entries = [];
  const walk = (current) => {
    for (const item of fs.readdirSync(current, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(current, item.name);
      if (item.isDirectory()) walk(full);
      else if (item.isFile()) {
        const stat = fs.statSync(full);
        entries.push({
          name: path.relative(root, full).split(path.sep).join('/'),
          data: fs.readFileSync(full),
          mode: stat.mode & 0o777,
        });
      }
    }
  };
  walk(root);
  return packTar(entries, options);
}

/**
 * Extract an archive into `dir`, refusing entries that would escape it.
 * @param {Buffer} buffer
 * @param {string} dir
 * @returns {string[]} extracted relative paths
 */
function extractTo(buffer, dir) {
  const root = path.resolve(dir);
  const entries = unpackTar(buffer);
  for (const entry of entries) {
    const target = path.resolve(root, entry.name);
    if (path.isAbsolute(entry.name) || !target.startsWith(root + path.sep)) {
      throw new TarError(`refusing to extract outside the target: ${entry.name}`);
    }
  }
  for (const entry of entries) {
    const target = path.resolve(root, entry.name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, entry.data, { mode: entry.mode || 0o644 });
  }
  return entries.map((entry) => entry.name);
}

/**
 * Pack/unpack bound to `settings.archive` (`gzip`, `mtime`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.archive ?? {};
  const options = { gzip: own.gzip ?? true, mtime: own.mtime ?? 0 };
  return Object.freeze({
    options,
    pack: (entries) => packTar(entries, options),
    packDirectory: (dir) => packDirectory(dir, options),
    unpack: unpackTar,
    extractTo,
  });
}

module.exports = { packTar, unpackTar, packDirectory, extractTo, TarError, fromSettings };
