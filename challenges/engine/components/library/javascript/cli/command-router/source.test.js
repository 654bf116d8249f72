'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { CommandRouter, UsageError, fromSettings } = require('./source');

function sink() {
  const chunks = [];
  return { write: (text) => chunks.push(text), text: () => chunks.join('') };
}

function makeCli() {
  const out = sink();
  const err = sink();
  const calls = [];
  const cli = new CommandRouter({ program: 'shop', version: '2.1.0', out, err });
  cli.command('db migrate', {
    summary: 'Apply pending migrations',
    options: {
      target: { type: 'string', alias: 't', help: 'migration to stop at' },
      'dry-run': { type: 'boolean', alias: 'n' },
      verbose: { type: 'boolean', alias: 'v' },
      step: { type: 'number', default: 1 },
    },
    args: ['database?'],
    run: (ctx) => {
      calls.push(ctx);
      return 0;
    },
  });
  cli.command('import', {
    summary: 'Import files',
    options: { tag: { type: 'string', multiple: true }, format: { type: 'string', required: true } },
    args: ['files...'],
    run: (ctx) => {
      calls.push(ctx);
      if (ctx.args.includes('broken.csv')) throw new Error('cannot parse broken.csv');
    },
  });
  return { cli, out, err, calls };
}

test('nested commands receive parsed options and arguments', async () => {
  const { cli, calls } = makeCli();
  assert.equal(await cli.run(['db', 'migrate', '--target=0042', '-nv', '--step', '3', 'reporting']), 0);
  assert.deepEqual(calls[0].options, { target: '0042', 'dry-run': true, verbose: true, step: 3 });
  assert.deepEqual(calls[0].args, ['reporting']);
});

test('defaults, negation, repeated options and the -- separator', async () => {
  const { cli, calls } = makeCli();
  await cli.run(['db', 'migrate', '--no-dry-run', '-t', 'head']);
  assert.deepEqual(calls[0].options, { 'dry-run': false, target: 'head', step: 1 });
  await cli.run(['import', '--format', 'csv', '--tag', 'a', '--tag=b', 'x.csv', '--', '--odd-name.csv']);
  assert.deepEqual(calls[1].options, { format: 'csv', tag: ['a', 'b'] });
  assert.deepEqual(calls[1].args, ['x.csv', '--odd-name.csv']);
});

test('usage errors exit with 2 and explain the problem', async () => {
  const cases = [
    [['db', 'migrate', '--bogus'], 'unknown option --bogus'],
    [['db', 'migrate', '--step', 'many'], '--step expects a number, got "many"'],
    [['db', 'migrate', '--target'], '--target needs a value'],
    [['db', 'migrate', 'a', 'b'], 'unexpected argument "b"'],
    [['db', 'migrate', '--verbose=yes'], '--verbose does not take a value'],
    [['import', 'x.csv'], '--format is required'],
    [['import', '--format', 'csv'], 'missing argument <files...>'],
    [['db', 'migrate', '-x'], 'unknown option -x'],
  ];
  for (const [argv, message] of cases) {
    const { cli, err, calls } = makeCli();
    assert.equal(await cli.run(argv), 2, argv.join(' '));
    assert.ok(err.text().includes(message), `${err.text()} should mention ${message}`);
    assert.equal(calls.length, 0);
  }
});

test('unknown commands print the command list', async () => {
  const { cli, err } = makeCli();
  assert.equal(await cli.run(['deploy']), 2);
  assert.match(err.text(), /unknown command "deploy"/);
  assert.match(err.text(), /db migrate {2}Apply pending migrations/);
});

test('failures in commands exit with 1', async () => {
  const { cli, err } = makeCli();
  assert.equal(await cli.run(['import', '--format', 'csv', 'broken.csv']), 1);
  assert.equal(err.text(), 'shop import: cannot parse broken.csv\n');
});

test('help and version', async () => {
  const { cli, out } = makeCli();
  assert.equal(await cli.run(['db', 'migrate', '--help']), 0);
  const help = out.text();
  assert.match(help, /^Usage: shop db migrate \[database\] \[options\]/);
  assert.match(help, /-t, --target <string> +migration to stop at/);
  assert.match(help, /--step <number> +default: 1/);
  await cli.run(['--version']);
  assert.ok(out.text().endsWith('shop 2.1.0\n'));
  await cli.run([]);
  assert.match(out.text(), /Commands:\n {2}db migrate/);
});

test('registration is checked', () => {
  const { cli } = makeCli();
  assert.throws(() => cli.command('db  migrate', { run() {} }), /already registered/);
  assert.throws(() => cli.command('x', {}), TypeError);
  assert.ok(new UsageError('x') instanceof Error);
});

test('fromSettings names the program', async () => {
  const cli = fromSettings({ cli: { program: 'tool', version: '9.9.9' } });
  const out = sink();
  cli.out = out;
  await cli.run(['--version']);
  assert.equal(out.text(), 'tool 9.9.9\n');
  assert.equal(fromSettings({}).program, 'app');
});
