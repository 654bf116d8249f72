'use strict';

/**
 * A small command-line router.
 *
 *   const cli = new CommandRouter({ program: 'shop' });
 *   cli.command('db migrate', {
 *     summary: 'Apply pending migrations',
 *     options: { target: { type: 'string', alias: 't' }, 'dry-run': { type: 'boolean' } },
 *     args: ['database?'],
 *     run: async ({ options, args, out }) => { ... return 0; },
 *   });
 *   process.exitCode = await cli.run(process.argv.slice(2));
 *
 * Options: `--name value`, `--name=value`, `-t value`, `--flag`, `--no-flag`,
 * grouped short booleans (`-vq`), `--` ends option parsing. Numbers are
 * converted for `type: 'number'`, repeated options collect for `multiple`.
 * `--help` at any level prints generated help. Usage mistakes exit with 2.
 */

/** The command line is wrong (unknown option, missing argument); exits with 2. */
class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

function describeArg(arg) {
  if (arg.endsWith('...')) return `<${arg.slice(0, -3)}...>`;
  return arg.endsWith('?') ? `[${arg.slice(0, -1)}]` : `<${arg}>`;
}

/** Routes argv to registered commands. */
class CommandRouter {
  /**
   * @param {object} [options]
   * @param {string} [options.program] name shown in usage lines
   * @param {string} [options.version] printed by --version
   * @param {{write: function(string): *}} [options.out] standard output
   * @param {{write: function(string): *}} [options.err] error output
   */
  constructor(options = {}) {
    this.program = options.program ?? 'app';
    this.version = options.version ?? '0.1.0';
    this.out = options.out ?? process.stdout;
    this.err = options.err ?? process.stderr;
    this.commands = new Map();
  }

  /**
   * Register a command; `name` may contain spaces for nested commands.
   * @param {string} name
   * @param {{summary?: string, options?: Record<string, {type?: 'string'|'number'|'boolean',
   *   alias?: string, default?: *, multiple?: boolean, required?: boolean, help?: string}>,
   *   args?: string[], run: function(object): (number|void|Promise<number|void>)}} spec
   * @returns {this}
   */
  command(name, spec) {
    const key = name.trim().split(/\s+/).join(' ');
    if (this.commands.has(key)) throw new Error(`command already registered: ${key}`);
    if (typeof spec.run !== 'function') throw new TypeError(`command ${key} needs a run function`);
    const options = {};
    const aliases = {};
    for (const [optName, opt] of Object.entries(spec.options ?? {})) {
      options[optName] = { type: 'boolean', ...opt };
      if (opt.alias) aliases[opt.alias] = optName;
    }
    this.commands.set(key, {
      name: key,
      summary: spec.summary ?? '',
      options,
      aliases,
      args: spec.args ?? [],
      run: spec.run,
    });
    return this;
  }

  /** Longest registered command matching the leading words of argv. */
  resolve(argv) {
    for (let take = Math.min(argv.length, 4); take > 0; take -= 1) {
      const key = argv.slice(0, take).join(' ');
      if (this.commands.has(key)) return { command: this.commands.get(key), rest: argv.slice(take) };
    }
    return { command: null, rest: argv };
  }

  parse(command, argv) {
    const options = {};
    const positional = [];
    const set = (name, raw) => {
      const opt = command.options[name];
      if (!opt) throw new UsageError(`unknown option --${name}`);
      let value = raw;
      if (opt.type === 'number') {
        value = Number(raw);
        if (raw === '' || Number.isNaN(value)) throw new UsageError(`--${name} expects a number, got "${raw}"`);
      }
      if (opt.multiple) (options[name] ??= []).push(value);
      else options[name] = value;
    };
    for (let i = 0; i < argv.length; i += 1) {
      const token = argv[i];
      if (token === '--') {
        positional.push(...argv.slice(i + 1));
        break;
      }
      if (token.startsWith('--')) {
        const [rawName, inline] = token.slice(2).split(/=(.*)/s);
        if (rawName.startsWith('no-') && command.options[rawName.slice(3)]?.type === 'boolean') {
          options[rawName.slice(3)] = false;
        } else if (command.options[rawName]?.type === 'boolean') {
          if (inline !== undefined) throw new UsageError(`--${rawName} does not take a value`);
          options[rawName] = true;
        } else if (inline !== undefined) {
          set(rawName, inline);
        } else {
          if (!command.options[rawName]) throw new UsageError(`unknown option --${rawName}`);
          if (i + 1 >= argv.length) throw new UsageError(`--${rawName} needs a value`);
          set(rawName, argv[(i += 1)]);
        }
      } else if (token.startsWith('-') && token.length > 1) {
        const letters = [...token.slice(1)];
        letters.forEach((letter, index) => {
          const name = command.aliases[letter];
          if (!name) throw new UsageError(`unknown option -${letter}`);
          if (command.options[name].type === 'boolean') options[name] = true;
          else if (index === letters.length - 1 && i + 1 < argv.length) set(name, argv[(i += 1)]);
          else throw new UsageError(`-${letter} needs a value`);
        });
      } else {
        positional.push(token);
      }
    }
    for (const [name, opt] of Object.entries(command.options)) {
      if (options[name] === undefined && opt.default !== undefined) options[name] = opt.default;
      if (options[name] === undefined && opt.required) throw new UsageError(`--${name} is required`);
    }
    const required = command.args.filter((a) => !a.endsWith('?')).length;
    const variadic = command.args.some((a) => a.endsWith('...'));
    if (positional.length < required) {
      throw new UsageError(`missing argument ${describeArg(command.args[positional.length])}`);
    }
    if (!variadic && positional.length > command.args.length) {
      throw new UsageError(`unexpected argument "${positional[command.args.length]}"`);
    }
    return { options, args: positional };
  }

  /**
   * Help text for one command, or the command list.
   * @param {string} [name]
   * @returns {string}
   */
  help(name) {
    const command = name ? this.commands.get(name) : null;
    if (!command) {
      const names = [...this.commands.keys()].sort();
      const width = Math.max(0, ...names.map((n) => n.length));
      const lines = names.map((n) => `  ${n.padEnd(width)}  ${this.commands.get(n).summary}`.trimEnd());
      return `Usage: ${this.program} <command> [options]\n\nCommands:\n${lines.join('\n')}\n`;
    }
    const args = command.args.map(describeArg).join(' ');
    const lines = [`Usage: ${this.program} ${command.name}${args ? ` ${args}` : ''} [options]`];
    if (command.summary) lines.push('', command.summary);
    const optionLines = Object.entries(command.options).map(([optName, opt]) => {
      const short = opt.alias ? `-${opt.alias}, ` : '    ';
      const flag = `${short}--${optName}${opt.type === 'boolean' ? '' : ` <${opt.type}>`}`;
      const notes = [
        opt.help,
        opt.required ? 'required' : null,
        opt.default !== undefined ? `default: ${opt.default}` : null,
      ];
      return `  ${flag.padEnd(28)}${notes.filter(Boolean).join('; ')}`.trimEnd();
    });
    if (optionLines.length) lines.push('', 'Options:', ...optionLines);
    return `${lines.join('\n')}\n`;
  }

  /**
   * Run the command named by argv.
   * @param {string[]} argv arguments without the node binary and script path
   * @returns {Promise<number>} exit code: the command's, 0 for help, 1 on error, 2 on usage errors
   */
  async run(argv) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
      this.out.write(this.help(argv[0] === 'help' ? argv.slice(1).join(' ') : undefined));
      return 0;
    }
    if (argv[0] === '--version') {
      this.out.write(`${this.program} ${this.version}\n`);
      return 0;
    }
    const { command, rest } = this.resolve(argv);
    if (!command) {
      this.err.write(`${this.program}: unknown command "${argv[0]}"\n${this.help()}`);
      return 2;
    }
    if (rest.includes('--help') && !rest.slice(0, rest.indexOf('--help')).includes('--')) {
      this.out.write(this.help(command.name));
      return 0;
    }
    let parsed;
    try {
      parsed = this.parse(command, rest);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      this.err.write(`${this.program} ${command.name}: ${error.message}\n`);
      return 2;
    }
    try {
      const code = await command.run({ ...parsed, out: this.out, err: this.err });
      return typeof code === 'number' ? code : 0;
    } catch (error) {
      if (error instanceof UsageError) {
        this.err.write(`${this.program} ${command.name}: ${error.message}\n`);
        return 2;
      }
      this.err.write(`${this.program} ${command.name}: ${error.message}\n`);
      return 1;
    }
  }
}

/**
 * Router configured from `settings.cli` (`program`, `version`).
 * @param {object} settings
 * @returns {CommandRouter}
 */
function fromSettings(settings) {
  const own = settings.cli ?? {};
  return new CommandRouter({ program: own.program ?? 'app', version: own.version ?? '0.1.0' });
}

module.exports = { CommandRouter, UsageError, fromSettings };
