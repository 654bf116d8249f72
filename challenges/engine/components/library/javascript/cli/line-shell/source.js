'use strict';

/**
 * A small interactive shell for operators: `node admin.js` opens a prompt
 * where registered commands run one line at a time.
 *
 *   const shell = new Shell({ input: process.stdin, output: process.stdout });
 *   shell.define('stats', 'Show queue statistics', async (args, out) => { out(...); });
 *   await shell.start();   // resolves when input ends or `exit` is typed
 *
 * Lines are split like a POSIX shell would for simple cases: whitespace
 * separates words, single quotes keep text literally, double quotes allow
 * `\"` and `\\` escapes. Built-ins: help, history, exit. Tab completion
 * completes command names. The streams are supplied, so the same shell runs
 * over a TTY, a socket or test streams.
 */

const readline = require('node:readline');

/**
 * Split a command line into words.
 * @param {string} line
 * @returns {string[]}
 */
function splitArgs(line) {
  const words = [];
  let word = '';
  let inWord = false;
  let quote = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[(i += 1)];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[(i += 1)];
      inWord = true;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new SyntaxError(`unterminated ${quote === '"' ? 'double' : 'single'} quote`);
  if (inWord) words.push(word);
  return words;
}

/** Interactive command shell. */
class Shell {
  /**
   * @param {object} [options]
   * @param {NodeJS.ReadableStream} [options.input]
   * @param {NodeJS.WritableStream} [options.output]
   * @param {string} [options.prompt]
   * @param {number} [options.historySize]
   */
  constructor(options = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.prompt = options.prompt ?? '> ';
    this.historySize = options.historySize ?? 100;
    this.commands = new Map();
    this.history = [];
    this.rl = null;
  }

  /**
   * Register a command.
   * @param {string} name
   * @param {string} help one-line description
   * @param {function(string[], function(string): void): (void|Promise<void>)} handler
   * @returns {this}
   */
  define(name, help, handler) {
    if (!/^[a-z][a-z0-9:-]*$/.test(name)) throw new Error(`invalid command name: ${name}`);
    if (['help', 'history', 'exit'].includes(name) || this.commands.has(name)) {
      throw new Error(`command ${name} is already defined`);
    }
    this.commands.set(name, { help, handler });
    return this;
  }

  print(text) {
    this.output.write(`${text}\n`);
  }

  /**
   * Command names starting with the first word of `line` (for tab completion).
   * @param {string} line
   * @returns {[string[], string]}
   */
  complete(line) {
    const names = ['exit', 'help', 'history', ...this.commands.keys()].sort();
    if (/\s/.test(line)) return [[], line];
    const hits = names.filter((name) => name.startsWith(line));
    return [hits, line];
  }

  /**
   * Run one line. Errors in commands are printed, not thrown.
   * @param {string} line
   * @returns {Promise<boolean>} false when the shell should exit
   */
  async execute(line) {
    let words;
    try {
      words = splitArgs(line);
    } catch (error) {
      this.print(`error: ${error.message}`);
      return true;
    }
    if (words.length === 0) return true;
    this.history.push(line.trim());
    if (this.history.length > this.historySize) this.history.shift();
    const [name, ...args] = words;
    if (name === 'exit') return false;
    if (name === 'help') {
      const width = Math.max(7, ...[...this.commands.keys()].map((n) => n.length));
      for (const [cmd, { help }] of [...this.commands].sort(([a], [b]) => a.localeCompare(b))) {
        this.print(`  ${cmd.padEnd(width)}  ${help}`);
      }
      this.print(`  ${'history'.padEnd(width)}  Show recent commands`);
      this.print(`  ${'exit'.padEnd(width)}  Leave the shell`);
      return true;
    }
    if (name === 'history') {
      this.history.slice(0, -1).forEach((entry, i) => this.print(`${String(i + 1).padStart(4)}  ${entry}`));
      return true;
    }
    const command = this.commands.get(name);
    if (!command) {
      const [hits] = this.complete(name.slice(0, 2));
      this.print(`unknown command: ${name}${hits.length ? ` (try: ${hits.join(', ')})` : ''}`);
      return true;
    }
    try {
      await command.handler(args, (text) => this.print(text));
    } catch (error) {
      this.print(`error: ${error.message}`);
    }
    return true;
  }

  /**
   * Read and run lines until input ends or `exit`.
   * @returns {Promise<void>}
   */
  start() {
    return new Promise((resolve) => {
      const terminal = Boolean(this.output.isTTY);
      this.rl = readline.createInterface({
        input: this.input,
        output: this.output,
        prompt: this.prompt,
        terminal,
        historySize: this.historySize,
        completer: (line) => this.complete(line),
      });
      let queue = Promise.resolve();
      let closed = false;
      this.rl.on('line', (line) => {
        queue = queue.then(async () => {
          if (closed) return;
          const keepGoing = await this.execute(line);
          if (!keepGoing) this.rl.close();
          else this.rl.prompt();
        });
      });
      this.rl.on('close', () => {
        closed = true;
        queue.then(() => resolve());
      });
      this.rl.prompt();
    });
  }
}

/**
 * Shell configured from `settings.cli` (`prompt`, `historySize`) on stdin/stdout.
 * @param {object} settings
 * @returns {Shell}
 */
function fromSettings(settings) {
  const own = settings.cli ?? {};
  return new Shell({ prompt: own.prompt ?? '> ', historySize: own.historySize ?? 100 });
}

module.exports = { Shell, splitArgs, fromSettings };
