'use strict';

/**
 * Point-in-time snapshots of application state.
 *
 * `save(state)` writes `<name>-<UTC timestamp>.json.gz` into a directory. Each
 * snapshot carries a SHA-256 of its JSON so `restore` can tell a damaged file
 * from a good one. Retention keeps the `keepLast` most recent snapshots plus
 * the newest snapshot of each of the last `keepDaily` days, and removes the rest.
 *
 * All I/O is promise-based; files are written under a temporary name and
 * renamed into place, so a crash never leaves a truncated snapshot behind.
 */

const fsp = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const { promisify } = require('node:util');

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** A snapshot file is missing, unreadable or fails its checksum. */
class SnapshotError extends Error {
  /**
   * @param {string} message
   * @param {string} [file]
   */
  constructor(message, file) {
    super(file ? `${message}: ${path.basename(file)}` : message);
    this.name = 'SnapshotError';
    this.file = file;
  }
}

function stamp(date) {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}

function parseStamp(text) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7])) : null;
}

/**
 * Create an archive of snapshots.
 * @param {object} [options]
 * @param {string} [options.directory]
 * @param {string} [options.name] file name prefix
 * @param {number} [options.keepLast]
 * @param {number} [options.keepDaily]
 * @param {function(): Date} [options.clock]
 * @returns {object} archive with save, list, load, restore, prune
 */
function createSnapshotArchive(options = {}) {
  const directory = path.resolve(options.directory ?? 'snapshots');
  const name = options.name ?? 'state';
  const keepLast = options.keepLast ?? 10;
  const keepDaily = options.keepDaily ?? 7;
  const clock = options.clock ?? (() => new Date());
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new RangeError(`invalid snapshot name: ${name}`);
  const pattern = new RegExp(`^${name.replace(/\./g, '\\.')}-(\\d{8}T\\d{9}Z)\\.json\\.gz$`);

  /**
   * Snapshots on disk, newest first.
   * @returns {Promise<{file: string, takenAt: Date}[]>}
   */
  async function list() {
    let names;
    try {
      names = await fsp.readdir(directory);
    } catch (err) {
      if (err.code === 'ENOENT') return [];
      throw err;
    }
    return names
      .map((entry) => ({ entry, match: pattern.exec(entry) }))
      .filter(({ match }) => match && parseStamp(match[1]))
      .map(({ entry, match }) => ({ file: path.join(directory, entry), takenAt: parseStamp(match[1]) }))
      .sort((a, b) => b.takenAt - a.takenAt);
  }

  /**
   * Write a snapshot of `state` (anything JSON can represent), then apply retention.
   * @param {*} state
   * @returns {Promise<{file: string, takenAt: Date, bytes: number, removed: string[]}>}
   */
  async function save(state) {
    const takenAt = clock();
    const json = JSON.stringify(state);
    const sha256 = crypto.createHash('sha256').update(json).digest('hex');
    const envelope = JSON.stringify({ takenAt: takenAt.toISOString(), sha256, state: json });
    const packed = await gzip(envelope);
    await fsp.mkdir(directory, { recursive: true });
    const file = path.join(directory, `${name}-${stamp(takenAt)}.json.gz`);
    const temp = `${file}.${process.pid}.tmp`;
    await fsp.writeFile(temp, packed);
    await fsp.rename(temp, file);
    const removed = await prune();
    return { file, takenAt, bytes: packed.length, removed };
  }

  /**
   * Read and verify one snapshot file.
   * @param {string} file
   * @returns {Promise<{state: *, takenAt: Date}>}
   */
  async function load(file) {
    let envelope;
    try {
      envelope = JSON.parse((await gunzip(await fsp.readFile(file))).toString());
    } catch (err) {
      if (err.code === 'ENOENT') throw new SnapshotError('snapshot not found', file);
      throw new SnapshotError(`unreadable snapshot (${err.message})`, file);
    }
    const digest = crypto.createHash('sha256').update(envelope.state ?? '').digest('hex');
    if (digest !== envelope.sha256) throw new SnapshotError('checksum mismatch', file);
    return { state: JSON.parse(envelope.state), takenAt: new Date(envelope.takenAt) };
  }

  /**
   * The newest snapshot that is intact; damaged ones are skipped and reported.
   * @returns {Promise<{state: *, takenAt: Date, file: string, skipped: string[]}|null>}
   */
  async function restore() {
    const skipped = [];
    for (const { file } of await list()) {
      try {
        return { ...(await load(file)), file, skipped };
      } catch (err) {
        if (!(err instanceof SnapshotError)) throw err;
        skipped.push(path.basename(file));
      }
    }
    return null;
  }

  /**
   * Remove snapshots outside the retention policy.
   * @returns {Promise<string[]>} base names of removed files
   */
  async function prune() {
    const snapshots = await list();
    const keep = new Set(snapshots.slice(0, keepLast).map((s) => s.file));
    const days = new Set();
    for (const snapshot of snapshots) {
      const day = snapshot.takenAt.toISOString().slice(0, 10);
      if (days.has(day)) continue;
      if (days.size >= keepDaily) break;
      days.add(day);
      keep.add(snapshot.file);
    }
    const removed = [];
    for (const { file } of snapshots) {
      if (keep.has(file)) continue;
      await fsp.rm(file, { force: true });
      removed.push(path.basename(file));
    }
    return removed;
  }

  return Object.freeze({ save, list, load, restore, prune, directory, name });
}

/**
 * Archive configured from `settings.archive`. Nothing is written until `save`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.archive ?? {};
  return createSnapshotArchive({
    directory: own.directory ?? 'snapshots',
    name: own.name ?? 'state',
    keepLast: own.keepLast ?? 10,
    keepDaily: own.keepDaily ?? 7,
  });
}

module.exports = { createSnapshotArchive, SnapshotError, fromSettings };
