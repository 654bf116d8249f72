'use strict';

/**
 * A file that never grows without bound.
 *
 * Writes append to `path`. When the next write would take the file past
 * `maxBytes`, the file is rotated: `path.1` becomes `path.2`, and so on, the
 * current file becomes `path.1`, and generations beyond `keep` are deleted.
 * With `compress`, rotated generations are gzipped (`path.1.gz`), which for
 * text output usually saves 80-90 % of the space.
 *
 * Everything is synchronous, so a record is on disk (in the OS cache) when
 * `write` returns and the order of records is never in doubt.
 */

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** Size-rotated append-only file. */
class RotatingFile {
  /**
   * @param {string} file
   * @param {{maxBytes?: number, keep?: number, compress?: boolean}} [options]
   */
  constructor(file, options = {}) {
    this.file = path.resolve(file);
    this.maxBytes = options.maxBytes ?? 1048576;
    this.keep = options.keep ?? 5;
    this.compress = options.compress ?? true;
    if (!(this.maxBytes > 0)) throw new RangeError('maxBytes must be positive');
    if (!(Number.isInteger(this.keep) && this.keep >= 0)) throw new RangeError('keep must be a non-negative integer');
    this.fd = null;
    this.size = 0;
    this.rotations = 0;
  }

  open() {
    if (this.fd !== null) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    this.fd = fs.openSync(this.file, 'a');
    this.size = fs.fstatSync(this.fd).size;
  }

  /** Path of generation `n` (1 = most recent rotated file). */
  generation(n) {
    return `${this.file}.${n}${this.compress ? '.gz' : ''}`;
  }

  /**
   * Append text (a newline is not added).
   * @param {string|Buffer} data
   * @returns {number} bytes written
   */
  write(data) {
    const buffer = Buffer.isBuffer(data) ? data : Buffer.from(String(data));
    this.open();
    if (this.size > 0 && this.size + buffer.length > this.maxBytes) this.rotate();
    fs.writeSync(this.fd, buffer);
    this.size += buffer.length;
    return buffer.length;
  }

  /**
   * Append one line.
   * @param {string} line
   */
  writeLine(line) {
    return this.write(`${line}\n`);
  }

  /** Rotate now, whatever the size. */
  rotate() {
    this.open();
    fs.closeSync(this.fd);
    this.fd = null;
    if (this.keep === 0) {
      fs.rmSync(this.file, { force: true });
    } else {
      fs.rmSync(this.generation(this.keep), { force: true });
      for (let n = this.keep - 1; n >= 1; n -= 1) {
        if (fs.existsSync(this.generation(n))) fs.renameSync(this.generation(n), this.generation(n + 1));
      }
      if (this.compress) {
        const target = this.generation(1);
        fs.writeFileSync(`${target}.tmp`, zlib.gzipSync(fs.readFileSync(this.file)));
        fs.renameSync(`${target}.tmp`, target);
        fs.rmSync(this.file, { force: true });
      } else {
        fs.renameSync(this.file, this.generation(1));
      }
    }
    this.rotations += 1;
    this.open();
  }

  /**
   * Existing files, newest first: the live file, then generations 1..keep.
   * @returns {string[]}
   */
  files() {
    const out = fs.existsSync(this.file) ? [this.file] : [];
    for (let n = 1; n <= this.keep; n += 1) {
      if (fs.existsSync(this.generation(n))) out.push(this.generation(n));
    }
    return out;
  }

  /**
   * Content of the live file and all kept generations, oldest first, decompressed.
   * @returns {string}
   */
  readAll() {
    return this.files()
      .reverse()
      .map((file) => {
        const raw = fs.readFileSync(file);
        return file.endsWith('.gz') ? zlib.gunzipSync(raw).toString() : raw.toString();
      })
      .join('');
  }

  /** Close the file; the next write reopens it. */
  close() {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Writer configured from `settings.archive`. The file is opened on first write.
 * @param {object} settings
 * @returns {RotatingFile}
 */
function fromSettings(settings) {
  const own = settings.archive ?? {};
  return new RotatingFile(own.path ?? 'logs/app.log', {
    maxBytes: own.maxBytes ?? 1048576,
    keep: own.keep ?? 5,
    compress: own.compress ?? true,
  });
}

module.exports = { RotatingFile, fromSettings };
