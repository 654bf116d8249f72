'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createTaskRunner, suggest, fromSettings } = require('./source');

function setup(env = {}) {
  const out = [];
  const errors = [];
  const seen = [];
  const runner = createTaskRunner(
    {
      'cache:clear': { describe: 'Drop cached pages', run: () => seen.push('cleared') },
      'users:export': {
        describe: 'Export users as CSV',
        options: {
          since: { type: 'string', env: 'EXPORT_SINCE' },
          limit: { type: 'string', default: '1000' },
          'dry-run': { type: 'boolean', short: 'n' },
          format: { type: 'string', required: true },
        },
        run: ({ values, positionals, print }) => {
          seen.push({ values, positionals });
          print(`exported ${values.limit}`);
          return values['dry-run'] ? 3 : undefined;
        },
      },
      'jobs:retry': {
        run: () => {
          throw new Error('queue unreachable');
        },
      },
    },
    { program: 'app', envPrefix: 'APP', env, print: (l) => out.push(l), printError: (l) => errors.push(l) },
  );
  return { runner, out, errors, seen };
}

test('flags come from argv, then environment, then defaults', async () => {
  const { runner, seen, out } = setup({ EXPORT_SINCE: '2024-01-01', APP_FORMAT: 'csv' });
  assert.equal(await runner.main(['users:export', '--limit', '5', 'extra']), 0);
  assert.deepEqual(seen[0], { values: { limit: '5', since: '2024-01-01', format: 'csv' }, positionals: ['extra'] });
  assert.deepEqual(out, ['exported 5']);
  await runner.main(['users:export', '--since=2023-06-01', '--format', 'json']);
  assert.deepEqual(seen[1].values, { since: '2023-06-01', format: 'json', limit: '1000' });
});

test('boolean flags from the environment and numeric results as exit codes', async () => {
  const { runner, seen } = setup({ APP_DRY_RUN: 'yes', APP_FORMAT: 'csv' });
  assert.equal(await runner.main(['users:export']), 3);
  assert.equal(seen[0].values['dry-run'], true);
  const plain = setup({ APP_FORMAT: 'csv' });
  assert.equal(await plain.runner.main(['users:export', '-n']), 3);
});

test('misuse exits with 2', async () => {
  const { runner, errors, seen } = setup();
  assert.equal(await runner.main(['users:export', '--format', 'csv', '--colour']), 2);
  assert.match(errors[0], /^app users:export: Unknown option '--colour'/);
  assert.equal(await runner.main(['users:export']), 2);
  assert.equal(errors[1], 'app users:export: --format is required');
  assert.equal(seen.length, 0);
});

test('unknown tasks suggest close names', async () => {
  const { runner, errors } = setup();
  assert.equal(await runner.main(['cache:claer']), 2);
  assert.equal(errors[0], 'app: no task named "cache:claer". Did you mean: cache:clear?');
  assert.equal(await runner.main(['zzz']), 2);
  assert.equal(errors[1], 'app: no task named "zzz"');
  assert.equal(await runner.main(['constructor']), 2);
});

test('task failures exit with 1', async () => {
  const { runner, errors } = setup();
  assert.equal(await runner.main(['jobs:retry']), 1);
  assert.deepEqual(errors, ['app jobs:retry: queue unreachable']);
});

test('listing and per-task help', async () => {
  const { runner, out } = setup();
  await runner.main([]);
  assert.equal(
    out[0],
    [
      'Usage: app <task> [options]',
      '',
      'Tasks:',
      '  cache:clear   Drop cached pages',
      '  jobs:retry',
      '  users:export  Export users as CSV',
    ].join('\n'),
  );
  await runner.main(['users:export', '--help']);
  assert.match(out[1], /--since \(env EXPORT_SINCE\)/);
  assert.match(out[1], /--limit \(env APP_LIMIT\) \[default: 1000\]/);
  assert.match(out[1], /--dry-run\n/);
});

test('suggest ranks prefixes and near misses', () => {
  const names = ['migrate', 'migrate:status', 'seed', 'serve'];
  assert.deepEqual(suggest('migrat', names), ['migrate', 'migrate:status']);
  assert.deepEqual(suggest('sevre', names), ['serve']);
  assert.deepEqual(suggest('deploy', names), []);
});

test('fromSettings names the program and prefix', async () => {
  const runner = fromSettings({ cli: { program: 'ops' } }, { ping: { run: () => 0 } });
  assert.deepEqual(runner.names, ['ping']);
  assert.equal(await runner.main(['ping']), 0);
  assert.throws(() => fromSettings({}, { bad: {} }), /needs a run function/);
});
