'use strict';

/**
 * Maintenance tasks behind one executable: `app <task> [--option value] [args]`.
 *
 *   const runner = createTaskRunner({
 *     'cache:clear': { describe: 'Drop cached pages', run: async () => {...} },
 *     'users:export': {
 *       describe: 'Export users as CSV',
 *       options: { since: { type: 'string', env: 'EXPORT_SINCE' }, limit: { type: 'string', default: '1000' } },
 *       run: async ({ values, positionals, print }) => {...},
 *     },
 *   }, { program: 'app', envPrefix: 'APP' });
 *   process.exitCode = await runner.main(process.argv.slice(2));
 *
 * Parsing is delegated to `util.parseArgs` (strict mode). An option that is not
 * on the command line falls back to an environment variable (its `env` name,
 * or PREFIX_OPTION_NAME), then to its default — the order people expect from
 * twelve-factor tools. Mistyped task names get a "did you mean" hint.
 */

const { parseArgs } = require('node:util');

/** Levenshtein distance, two-row dynamic programming. */
function distance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * Closest candidates to `input`, best first, within a distance that scales with length.
 * @param {string} input
 * @param {string[]} candidates
 * @param {number} [limit]
 * @returns {string[]}
 */
function suggest(input, candidates, limit = 3) {
  const threshold = Math.max(2, Math.floor(input.length / 3));
  return candidates
    .map((name) => ({ name, score: name.startsWith(input) ? 0 : distance(input, name) }))
    .filter((c) => c.score <= threshold)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((c) => c.name);
}

function envName(prefix, option) {
  const body = option.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
  return prefix ? `${prefix.toUpperCase()}_${body}` : body;
}

/**
 * Build a task runner.
 * @param {Record<string, {describe?: string, options?: object, allowPositionals?: boolean,
 *   run: function({values: object, positionals: string[], print: function(string): void}): *}>} tasks
 * @param {object} [config]
 * @param {string} [config.program]
 * @param {string} [config.envPrefix]
 * @param {Record<string, string|undefined>} [config.env]
 * @param {function(string): void} [config.print] standard output, one line per call
 * @param {function(string): void} [config.printError]
 * @returns {{main: function(string[]): Promise<number>, list: function(): string, names: string[]}}
 */
function createTaskRunner(tasks, config = {}) {
  const program = config.program ?? 'app';
  const envPrefix = config.envPrefix ?? 'APP';
  const env = config.env ?? process.env;
  const print = config.print ?? ((line) => process.stdout.write(`${line}\n`));
  const printError = config.printError ?? ((line) => process.stderr.write(`${line}\n`));
  const names = Object.keys(tasks).sort();
  for (const name of names) {
    if (typeof tasks[name].run !== 'function') throw new TypeError(`task ${name} needs a run function`);
  }

  /** Listing of tasks with descriptions. */
  function list() {
    const width = Math.max(0, ...names.map((n) => n.length));
    const rows = names.map((n) => `  ${n.padEnd(width)}  ${tasks[n].describe ?? ''}`.trimEnd());
    return [`Usage: ${program} <task> [options]`, '', 'Tasks:', ...rows].join('\n');
  }

  function usage(name) {
    const task = tasks[name];
    const lines = [`Usage: ${program} ${name} [options]`];
    if (task.describe) lines.push('', task.describe);
    const options = Object.entries(task.options ?? {});
    if (options.length) {
      lines.push('', 'Options:');
      for (const [option, spec] of options) {
        const source = spec.type === 'boolean' ? '' : ` (env ${spec.env ?? envName(envPrefix, option)})`;
        const fallback = spec.default !== undefined ? ` [default: ${spec.default}]` : '';
        lines.push(`  --${option}${source}${fallback}`);
      }
    }
    return lines.join('\n');
  }

  function resolveValues(task, argv) {
    const specs = task.options ?? {};
    const parserOptions = {};
    for (const [option, spec] of Object.entries(specs)) {
      parserOptions[option] = { type: spec.type ?? 'string', multiple: spec.multiple ?? false };
      if (spec.short) parserOptions[option].short = spec.short;
    }
    const { values, positionals } = parseArgs({
      args: argv,
      options: parserOptions,
      allowPositionals: task.allowPositionals ?? true,
      strict: true,
    });
    const resolved = { ...values };
    for (const [option, spec] of Object.entries(specs)) {
      if (resolved[option] !== undefined) continue;
      const fromEnv = env[spec.env ?? envName(envPrefix, option)];
      if (fromEnv !== undefined && fromEnv !== '') {
        const truthy = ['1', 'true', 'yes', 'on'].includes(fromEnv.toLowerCase());
        resolved[option] = spec.type === 'boolean' ? truthy : fromEnv;
      } else if (spec.default !== undefined) {
        resolved[option] = spec.default;
      } else if (spec.required) {
        throw Object.assign(new Error(`--${option} is required`), { code: 'ERR_TASK_OPTION_REQUIRED' });
      }
    }
    return { values: resolved, positionals };
  }

  /**
   * Run the task named by argv[0].
   * @param {string[]} argv
   * @returns {Promise<number>} 0 on success (or the task's numeric result), 1 on failure, 2 on misuse
   */
  async function main(argv) {
    const [name, ...rest] = argv;
    if (!name || name === '--help' || name === '-h') {
      print(list());
      return 0;
    }
    const task = Object.hasOwn(tasks, name) ? tasks[name] : null;
    if (!task) {
      const hints = suggest(name, names);
      printError(`${program}: no task named "${name}"${hints.length ? `. Did you mean: ${hints.join(', ')}?` : ''}`);
      return 2;
    }
    if (rest.includes('--help')) {
      print(usage(name));
      return 0;
    }
    let parsed;
    try {
      parsed = resolveValues(task, rest);
    } catch (error) {
      if (!String(error.code).startsWith('ERR_PARSE_ARGS') && error.code !== 'ERR_TASK_OPTION_REQUIRED') throw error;
      printError(`${program} ${name}: ${error.message}`);
      return 2;
    }
    try {
      const result = await task.run({ ...parsed, print });
      return typeof result === 'number' ? result : 0;
    } catch (error) {
      printError(`${program} ${name}: ${error.message}`);
      return 1;
    }
  }

  return Object.freeze({ main, list, names });
}

/**
 * An empty runner named by `settings.cli`; pass tasks as the second argument.
 * @param {object} settings
 * @param {object} [tasks]
 */
function fromSettings(settings, tasks = {}) {
  const own = settings.cli ?? {};
  return createTaskRunner(tasks, { program: own.program ?? 'app', envPrefix: own.envPrefix ?? 'APP' });
}

module.exports = { createTaskRunner, suggest, fromSettings };
