"""Running JavaScript under Node for the rewrite tests: snippets and ``node --test`` trees."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

NODE = shutil.which("node")
TIMEOUT_S = 120

# Prints one line per call: its JSON result, or the error it threw. The message of an
# engine TypeError is left out on purpose: rewrites may change it, never whether one is thrown.
HARNESS = """
const __show = (fn) => {
  try {
    const value = fn();
    return value === undefined ? 'undefined' : JSON.stringify(value);
  } catch (err) {
    return err instanceof TypeError ? 'throws TypeError' : `throws ${err.name}: ${err.message}`;
  }
};
"""

# A `node --test` reporter that writes one JSON line per finished test.
REPORTER = """
export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      const { file, name, nesting } = event.data;
      yield JSON.stringify({ file, name, nesting, passed: event.type === 'test:pass' }) + '\\n';
    }
  }
}
"""


def run_snippet(source: str, calls: list[str]) -> list[str]:
    """Evaluate ``source`` then each call expression; one printed outcome per call."""
    program = source + HARNESS + "".join(f"console.log(__show(() => {call}));\n" for call in calls)
    done = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def write_tree(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def suite_outcomes(root: Path, test_paths: list[str]) -> Counter:
    """Run ``node --test`` on ``test_paths`` of the tree at ``root``: a count per
    (file, nesting, name, passed)."""
    reporter = root / ".outcome_reporter.mjs"
    reporter.write_text(REPORTER, encoding="utf-8")
    done = subprocess.run([NODE, "--test", f"--test-reporter={reporter}", *test_paths], cwd=root,
                          capture_output=True, text=True, timeout=TIMEOUT_S)
    outcomes: Counter = Counter()
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            file = str(Path(record["file"]).resolve().relative_to(root.resolve())) if record["file"] else ""
            outcomes[(file, record["nesting"], record["name"], record["passed"])] += 1
    assert outcomes, f"no test reported under {root}: {done.stdout[-2000:]} {done.stderr[-2000:]}"
    return outcomes
