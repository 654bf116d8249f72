'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Logger, LEVELS, fromSettings } = require('./source');

function memoryStream() {
  const lines = [];
  return {
    lines,
    write(chunk) {
      lines.push(chunk);
    },
    records() {
      return lines.map((line) => JSON.parse(line));
    },
  };
}

function steppingClock(startMs, stepMs) {
  let now = startMs;
  return () => {
    const value = new Date(now);
    now += stepMs;
    return value;
  };
}

test('records below the threshold are dropped', () => {
  const stream = memoryStream();
  const log = new Logger({ stream, level: 'warn', clock: () => new Date(0) });
  assert.equal(log.info('ignored'), false);
  assert.equal(log.warn('kept'), true);
  assert.equal(stream.lines.length, 1);
  log.setLevel('debug');
  log.debug('now visible');
  assert.deepEqual(stream.records().map((r) => r.level), ['warn', 'debug']);
  assert.equal(log.level, 'debug');
  assert.throws(() => log.setLevel('loud'), RangeError);
});

test('each record is a single JSON line with time, level, logger and message', () => {
  const stream = memoryStream();
  const log = new Logger({ stream, name: 'api', clock: () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) });
  log.info('started', { port: 8080 });
  assert.ok(stream.lines[0].endsWith('\n'));
  assert.equal(stream.lines[0].trimEnd().includes('\n'), false);
  assert.deepEqual(stream.records()[0], {
    time: '2024-01-02T03:04:05.000Z',
    level: 'info',
    logger: 'api',
    msg: 'started',
    port: 8080,
  });
});

test('child loggers bind fields without touching the parent', () => {
  const stream = memoryStream();
  const log = new Logger({ stream, name: 'api', fields: { service: 'billing' } });
  const child = log.child({ requestId: 'r-1' }, 'http');
  child.info('hit', { status: 200 });
  log.info('plain');
  const [first, second] = stream.records();
  assert.equal(first.logger, 'api.http');
  assert.equal(first.requestId, 'r-1');
  assert.equal(first.service, 'billing');
  assert.equal(second.requestId, undefined);
});

test('sensitive keys are redacted at any depth, case-insensitively', () => {
  const stream = memoryStream();
  const log = new Logger({ stream, redact: ['password', 'Authorization'] });
  log.info('login', { user: 'ann', password: 'hunter2', headers: { authorization: 'Bearer x' } });
  const text = stream.lines[0];
  assert.equal(text.includes('hunter2'), false);
  assert.equal(text.includes('Bearer'), false);
  assert.equal(stream.records()[0].headers.authorization, '[redacted]');
});

test('errors, cycles and bigints are serialized safely', () => {
  const stream = memoryStream();
  const log = new Logger({ stream });
  const loop = { name: 'loop' };
  loop.self = loop;
  const err = Object.assign(new Error('boom'), { code: 'E_BOOM' });
  log.error('failed', err);
  log.info('odd', { loop, big: 10n });
  const [first, second] = stream.records();
  assert.equal(first.err.message, 'boom');
  assert.equal(first.err.code, 'E_BOOM');
  assert.equal(second.loop.self, '[circular]');
  assert.equal(second.big, '10');
});

test('timed logs the duration and rethrows failures', async () => {
  const stream = memoryStream();
  const log = new Logger({ stream, clock: steppingClock(1000, 25) });
  assert.equal(await log.timed('work', async () => 42), 42);
  await assert.rejects(
    log.timed('bad', () => {
      throw new Error('nope');
    }),
    /nope/,
  );
  const [ok, bad] = stream.records();
  assert.equal(ok.ms, 25);
  assert.equal(bad.level, 'error');
  assert.equal(bad.err.message, 'nope');
});

test('fromSettings applies level, name and redaction', () => {
  const stream = memoryStream();
  const log = fromSettings({ logging: { level: 'error', name: 'jobs' } }, stream);
  log.warn('hidden');
  log.error('shown', { token: 'abc' });
  assert.equal(stream.records().length, 1);
  assert.equal(stream.records()[0].logger, 'jobs');
  assert.equal(stream.records()[0].token, '[redacted]');
  assert.equal(LEVELS.error, 50);
});
