// Batch syntax check with node's own parser, equivalent to `node --check` per source.
// stdin: {"module": bool, "sources": [string]}; stdout: [null | "error message", ...].
// CommonJS sources are compiled with the same wrapper parameters the CJS loader uses (so a
// top-level `return` is accepted); ES modules are parsed as SourceTextModule. Nothing runs.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const request = JSON.parse(readFileSync(0, 'utf8'));
const params = ['exports', 'require', 'module', '__filename', '__dirname'];

function check(source) {
  const text = source.startsWith('#!') ? '//' + source.slice(2) : source;
  try {
    if (request.module) {
      new vm.SourceTextModule(text);
    } else {
      vm.compileFunction(text, params);
    }
    return null;
  } catch (error) {
    return String(error && error.message ? error.message : error);
  }
}

process.stdout.write(JSON.stringify(request.sources.map(check)));
