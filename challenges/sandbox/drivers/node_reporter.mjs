// node:test reporter: one JSON line per test on a private channel.
//
// Runs in the test-runner parent process; test files execute in child processes and cannot
// reach it. Stdin carries "<token> <fd>": the token is a per-run secret added to every record
// (so output printed by tests, or written by a child that inherited the fd, cannot pass as a
// verdict) and fd is where records go. Records: {"id", "verdict", "reason"} for each leaf test,
// {"id": file, "verdict": "error"} when a whole file fails to load or crashes, and a final
// {"done": true}. Suites get no verdict of their own; a failing hook fails their tests.
import { readFileSync, writeSync } from 'node:fs';
import { relative } from 'node:path';

const [token, fdText] = readFileSync(0, 'utf8').trim().split(/\s+/);
const resultFd = Number(fdText);
const REASON_LIMIT = 4000;

function emit(record) {
  record.token = token;
  writeSync(resultFd, JSON.stringify(record) + '\n');
}

function rel(file) {
  return file ? relative(process.cwd(), file) : '';
}

function reasonOf(data) {
  const error = data.details && data.details.error;
  if (!error) return '';
  const cause = error.cause !== undefined ? error.cause : error;
  const text = cause && cause.stack ? String(cause.stack) : String(cause);
  return text.length > REASON_LIMIT ? text.slice(0, REASON_LIMIT) + '\n[...]' : text;
}

// Like unittest: a failed assertion is "failed", anything else thrown or a hook/timeout is "error".
function isAssertionFailure(data) {
  const error = data.details && data.details.error;
  if (!error || error.failureType !== 'testCodeFailure') return false;
  const cause = error.cause;
  if (!cause) return false;
  if (cause.code === 'ERR_ASSERTION' || cause.name === 'AssertionError') return true;
  return /^AssertionError\b/.test(String(cause.stack || cause));
}

export default async function* gauntletReporter(source) {
  const stacks = new Map();
  const stderrByFile = new Map();
  for await (const event of source) {
    const data = event.data || {};
    const file = rel(data.file);
    if (event.type === 'test:stderr' || event.type === 'test:stdout') {
      const seen = stderrByFile.get(file) || '';
      if (seen.length < REASON_LIMIT) stderrByFile.set(file, seen + (data.message || ''));
      continue;
    }
    if (event.type === 'test:start') {
      const stack = stacks.get(file) || [];
      stack.length = data.nesting;
      stack[data.nesting] = data.name;
      stacks.set(file, stack);
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (data.details && data.details.type === 'suite') continue;
    if (data.nesting === 0 && data.file && data.name === data.file) {
      // The file itself as a test: it only fails when the file could not run to the end.
      if (event.type === 'test:fail') {
        const output = (stderrByFile.get(file) || '').slice(-REASON_LIMIT);
        emit({ id: file, verdict: 'error', reason: output || reasonOf(data) });
      }
      continue;
    }
    const stack = (stacks.get(file) || []).slice(0, data.nesting);
    const id = `${file}::${[...stack, data.name].join(' > ')}`;
    let verdict = event.type === 'test:pass' ? 'passed' : 'failed';
    if (data.skip !== undefined || data.todo !== undefined) verdict = 'skipped';
    if (verdict === 'failed' && !isAssertionFailure(data)) verdict = 'error';
    emit({ id, verdict, reason: reasonOf(data) });
  }
  emit({ done: true, tampered: [] });
  yield '';
}
