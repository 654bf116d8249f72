'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { PassThrough } = require('node:stream');
const { Shell, splitArgs, fromSettings } = require('./source');

function session() {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk) => {
    text += chunk.toString();
  });
  const shell = new Shell({ input, output, prompt: '$ ' });
  return { shell, input, output: () => text };
}

test('words are split with quotes and escapes', () => {
  assert.deepEqual(splitArgs('  grant  ann   admin '), ['grant', 'ann', 'admin']);
  assert.deepEqual(splitArgs(`note 'it''s' "say \\"hi\\"" a\\ b ''`), ['note', 'its', 'say "hi"', 'a b', '']);
  assert.deepEqual(splitArgs(''), []);
  assert.throws(() => splitArgs('echo "open'), /unterminated double quote/);
});

test('commands receive their arguments and can print', async () => {
  const { shell } = session();
  const calls = [];
  shell.define('grant', 'Grant a role', (args, out) => {
    calls.push(args);
    out(`granted ${args[1]} to ${args[0]}`);
  });
  const lines = [];
  shell.print = (text) => lines.push(text);
  assert.equal(await shell.execute('grant "Ann Lee" admin'), true);
  assert.deepEqual(calls, [['Ann Lee', 'admin']]);
  assert.deepEqual(lines, ['granted admin to Ann Lee']);
  assert.equal(await shell.execute('exit'), false);
});

test('errors and unknown commands are reported without stopping', async () => {
  const { shell } = session();
  const lines = [];
  shell.print = (text) => lines.push(text);
  shell.define('stats', 'Show statistics', () => {
    throw new Error('queue unavailable');
  });
  await shell.execute('stats');
  await shell.execute('stast');
  await shell.execute('echo "oops');
  assert.deepEqual(lines, [
    'error: queue unavailable',
    'unknown command: stast (try: stats)',
    'error: unterminated double quote',
  ]);
});

test('help and history', async () => {
  const { shell } = session();
  const lines = [];
  shell.print = (text) => lines.push(text);
  shell.define('flush', 'Flush caches', () => {});
  await shell.execute('flush');
  await shell.execute('   ');
  await shell.execute('help');
  await shell.execute('history');
  assert.deepEqual(lines, [
    '  flush    Flush caches',
    '  history  Show recent commands',
    '  exit     Leave the shell',
    '   1  flush',
    '   2  help',
  ]);
});

test('completion lists matching command names', () => {
  const { shell } = session();
  shell.define('users:list', 'List users', () => {});
  shell.define('users:ban', 'Ban a user', () => {});
  assert.deepEqual(shell.complete('us')[0], ['users:ban', 'users:list']);
  assert.deepEqual(shell.complete('h')[0], ['help', 'history']);
  assert.deepEqual(shell.complete('users:list x')[0], []);
  assert.throws(() => shell.define('help', '', () => {}), /already defined/);
  assert.throws(() => shell.define('Bad Name', '', () => {}), /invalid command name/);
});

test('an interactive session runs lines in order until exit', async () => {
  const { shell, input, output } = session();
  shell.define('slow', 'Wait a little', async (args, out) => {
    await new Promise((resolve) => {
      setTimeout(resolve, 10);
    });
    out(`slow ${args[0]}`);
  });
  shell.define('fast', 'Answer at once', (args, out) => out(`fast ${args[0]}`));
  const done = shell.start();
  input.write('slow 1\nfast 2\nexit\nfast 3\n');
  await done;
  const text = output();
  assert.ok(text.startsWith('$ '));
  assert.ok(text.indexOf('slow 1') < text.indexOf('fast 2'));
  assert.equal(text.includes('fast 3'), false);
});

test('the session ends when input ends', async () => {
  const { shell, input } = session();
  const done = shell.start();
  input.end('help\n');
  await done;
  assert.deepEqual(shell.history, ['help']);
});

test('fromSettings applies prompt and history size', () => {
  const shell = fromSettings({ cli: { prompt: 'ops> ', historySize: 2 } });
  assert.equal(shell.prompt, 'ops> ');
  assert.equal(shell.historySize, 2);
  assert.equal(fromSettings({}).prompt, '> ');
});
