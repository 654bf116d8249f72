"""Benchmark of the solution-analysis core: parse + normalise + all pairs + convergence.

``python -m bench.analysis`` runs two workloads, every size in a fresh process,
and prints one JSON object as the last line:

* ``real/<language>/<n>`` – real-sized programs nobody here wrote: ``n`` source
  files of 100–600 lines from the Python standard library (Python) and from
  npm's bundled modules (JavaScript), 40 % of them disguised copies of 10 of
  the others (Python: renamed locals, dead and live padding, inverted
  branches, loops rewritten, a helper extracted – :mod:`bench.analysis_corpus`;
  JavaScript: line comments stripped, declared names renamed, padding appended);
* ``synthetic/<n>`` – the generated programs below (about 1,000 nodes each).

Workload (seeded, so every run measures the same thing): a bout where 40 % of
the solutions are disguised copies of 10 leaked originals (renamed, reformatted,
commented, ``for`` ↔ ``while``, 2 % of literals changed) and the rest are written independently (random
programs from the same generator). ``seconds`` is wall time from source text to
convergence score (``cpu_seconds`` beside it: the work is single-threaded, so on
a machine shared with other jobs CPU time is what an idle machine's wall time
would be); ``peak_mb`` is the process's peak resident set size (it
includes the interpreter and grammars, reported separately as ``baseline_mb``).
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time

SIZES = (50, 200, 500)
COPY_SHARE = 0.4
ORIGINALS = 10
EDIT_RATE = 0.02  # share of literals a copier changes


class _Program:
    """A random program as nested statement tuples, printable under a disguise."""

    def __init__(self, rng: random.Random, target_nodes: int) -> None:
        self.rng = rng
        self.functions = []
        budget = target_nodes
        index = 0
        while budget > 0:
            body, cost = self._block(depth=0, size=rng.randint(4, 8))
            params = [f"p{k}" for k in range(rng.randint(1, 3))]
            self.functions.append((f"f{index}", params, body))
            budget -= cost + 4
            index += 1

    def _expr(self, depth: int) -> tuple[object, int]:
        rng = self.rng
        if depth > 2 or rng.random() < 0.35:
            if rng.random() < 0.5:
                return ("name", f"x{rng.randint(0, 5)}"), 1
            return ("num", rng.randint(0, 20)), 1
        kind = rng.random()
        if kind < 0.6:
            left, a = self._expr(depth + 1)
            right, b = self._expr(depth + 1)
            return ("bin", rng.choice("+-*%"), left, right), a + b + 1
        arg, a = self._expr(depth + 1)
        return ("call", rng.choice(["abs", "min", "max", "len", "str"]), arg), a + 3

    def _cond(self) -> tuple[object, int]:
        left, a = self._expr(2)
        right, b = self._expr(2)
        return ("cmp", self.rng.choice(["<", ">", "==", "!="]), left, right), a + b + 1

    def _block(self, depth: int, size: int) -> tuple[list[object], int]:
        rng = self.rng
        out: list[object] = []
        cost = 0
        for _ in range(size):
            roll = rng.random()
            if depth < 2 and roll < 0.2:
                cond, a = self._cond()
                then, b = self._block(depth + 1, rng.randint(1, 3))
                other, c = self._block(depth + 1, rng.randint(1, 3))
                out.append(("if", cond, then, other))
                cost += a + b + c + 3
            elif depth < 2 and roll < 0.35:
                body, b = self._block(depth + 1, rng.randint(2, 4))
                out.append(("for", f"x{rng.randint(0, 5)}", rng.randint(2, 9), body))
                cost += b + 8
            else:
                value, a = self._expr(0)
                out.append(("assign", f"x{rng.randint(0, 5)}", value))
                cost += a + 2
        out.append(("return", ("name", "x0")))
        return out, cost + 2

    def render(self, rng: random.Random | None = None) -> str:
        """Source text; with ``rng``, a disguised copy (names, layout, comments, loops)."""
        names: dict[str, str] = {}

        def name(n: str) -> str:
            if rng is None:
                return n
            if n not in names:
                names[n] = f"{rng.choice(['val', 'tmp', 'acc', 'item', 'cur'])}_{len(names)}_{rng.randint(0, 99)}"
            return names[n]

        def expr(e: object) -> str:
            tag = e[0]  # type: ignore[index]
            if tag == "name":
                return name(e[1])  # type: ignore[index]
            if tag == "num":
                if rng is not None and rng.random() < EDIT_RATE:
                    return str(rng.randint(21, 40))  # the copier's own small edits
                return str(e[1])  # type: ignore[index]
            if tag == "bin":
                sep = " " if rng is None or rng.random() < 0.7 else ""
                return f"({expr(e[2])}{sep}{e[1]}{sep}{expr(e[3])})"  # type: ignore[index]
            if tag == "call":
                return f"{e[1]}({expr(e[2])})"  # type: ignore[index]
            return f"{expr(e[2])} {e[1]} {expr(e[3])}"  # type: ignore[index]

        lines: list[str] = []

        def block(stmts: list[object], indent: int) -> None:
            pad = "    " * indent
            for s in stmts:
                tag = s[0]  # type: ignore[index]
                if rng is not None and rng.random() < 0.1:
                    lines.append(f"{pad}# step {rng.randint(0, 999)}")
                if tag == "assign":
                    lines.append(f"{pad}{name(s[1])} = {expr(s[2])}")  # type: ignore[index]
                elif tag == "return":
                    lines.append(f"{pad}return {expr(s[1])}")  # type: ignore[index]
                elif tag == "if":
                    lines.append(f"{pad}if {expr(s[1])}:")  # type: ignore[index]
                    block(s[2], indent + 1)  # type: ignore[index]
                    lines.append(f"{pad}else:")
                    block(s[3], indent + 1)  # type: ignore[index]
                elif tag == "for":
                    var = name(s[1])  # type: ignore[index]
                    if rng is not None and rng.random() < 0.5:
                        lines.append(f"{pad}{var} = 0")
                        lines.append(f"{pad}while {var} < {s[2]}:")  # type: ignore[index]
                        block(s[3][:-1], indent + 1)  # type: ignore[index]
                        lines.append(f"{pad}    {var} += 1")
                    else:
                        lines.append(f"{pad}for {var} in range({s[2]}):")  # type: ignore[index]
                        block(s[3][:-1], indent + 1)  # type: ignore[index]
                        lines.append(f"{pad}    pass")

        for fname, params, body in self.functions:
            lines.append(f"def {name(fname)}({', '.join(name(p) for p in params)}):")
            # every variable is bound in the function, as in real code
            for k in range(6):
                lines.append(f"    {name(f'x{k}')} = {name(params[k % len(params)])}")
            block(body, 1)
            lines.append("")
        return "\n".join(lines) + "\n"


def workload(count: int, seed: int = 7, target_nodes: int = 860) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    originals = [_Program(rng, target_nodes) for _ in range(ORIGINALS)]
    copies = int(count * COPY_SHARE)
    out: list[tuple[str, str]] = []
    for k in range(count):
        if k < copies:
            out.append((f"s{k}", originals[k % ORIGINALS].render(random.Random(seed * 1000 + k))))
        else:
            out.append((f"s{k}", _Program(rng, target_nodes).render()))
    return out


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run_one(count: int) -> dict[str, float | int]:
    from detection.analysis import analyse_solutions

    sources = workload(count)
    baseline = _peak_mb()
    start, cpu_start = time.perf_counter(), time.process_time()
    report = analyse_solutions(sources, "python", tier=3)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    sizes = [s.size for s in report.solutions]
    methods: dict[str, int] = {}
    for pair in report.pairs:
        methods[pair.method] = methods.get(pair.method, 0) + 1
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "peak_mb": round(_peak_mb(), 1),
        "baseline_mb": round(baseline, 1),
        "solutions": len(report.solutions),
        "mean_nodes": round(sum(sizes) / max(len(sizes), 1)),
        "pairs": len(report.pairs),
        "convergence": report.convergence.score,
        "band": report.convergence.band,
        "uncertain_pairs": report.convergence.uncertain_pairs["weak"],
        **{f"pairs_{k}": v for k, v in sorted(methods.items())},
    }


def real_workload(language: str, count: int, seed: int = 11) -> list[tuple[str, str]]:
    import re
    import sysconfig
    from pathlib import Path

    rng = random.Random(seed)
    if language == "python":
        root, suffix = Path(sysconfig.get_paths()["stdlib"]), ".py"
    else:
        root, suffix = Path("/usr/lib/node_modules/npm/node_modules"), ".js"
    files = []
    for path in sorted(root.rglob(f"*{suffix}")):
        if "test" in path.parts or "tests" in path.parts:
            continue
        try:
            text = path.read_text("utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if 100 <= text.count("\n") <= 600:
            files.append(text)
    rng.shuffle(files)
    copies = int(count * COPY_SHARE)
    originals = files[:ORIGINALS]
    out = [(f"s{k}", text) for k, text in enumerate(files[ORIGINALS:ORIGINALS + count - copies])]
    for k in range(copies):
        text = originals[k % ORIGINALS]
        if language == "python":
            text = _disguise_module(text, rng)
        else:
            text = re.sub(r"(?m)^\s*//[^\n]*$", "", text)
            for name in sorted(set(re.findall(r"\b(?:const|let|var) (\w+)", text))):
                text = re.sub(rf"\b{name}\b", f"{name}_{k}", text)
            text += f"\nconst padding{k} = [{k}, {k + 1}];\nfunction unusedHelper{k}(x) {{ return x * {k}; }}\n"
        out.append((f"c{k}", text))
    return out


def _disguise_module(text: str, rng: random.Random) -> str:
    import ast

    from bench.analysis_corpus import disguise

    tree = ast.parse(text)
    parts = []
    for node in tree.body:
        source = ast.get_source_segment(text, node) or ""
        if isinstance(node, ast.FunctionDef) and rng.random() < 0.7:
            try:
                source = disguise(source, rng)[0]
            except (SyntaxError, ValueError, RecursionError):
                pass
        parts.append(source)
    rng.shuffle(parts) if rng.random() < 0.3 else None
    return "\n\n".join(parts) + "\n"


def run_real(language: str, count: int) -> dict[str, float | int]:
    from detection.analysis import analyse_solutions

    sources = real_workload(language, count)
    lines = [s.count("\n") for _, s in sources]
    baseline = _peak_mb()
    start, cpu_start = time.perf_counter(), time.process_time()
    report = analyse_solutions(sources, language, tier=3)
    seconds = time.perf_counter() - start
    sizes = [s.size for s in report.solutions]
    copy_pairs = [p for p in report.pairs if p.a.startswith("c") and p.b.startswith("c")
                  and int(p.a[1:]) % ORIGINALS == int(p.b[1:]) % ORIGINALS]
    return {
        "seconds": round(seconds, 3), "cpu_seconds": round(time.process_time() - cpu_start, 3),
        "peak_mb": round(_peak_mb(), 1), "baseline_mb": round(baseline, 1),
        "solutions": len(report.solutions), "errors": len(report.errors),
        "mean_lines": round(sum(lines) / len(lines)), "mean_nodes": round(sum(sizes) / max(len(sizes), 1)),
        "pairs": len(report.pairs), "convergence": report.convergence.score, "band": report.convergence.band,
        "copy_pairs_below_0_15": round(sum(p.upper < 0.15 for p in copy_pairs) / max(len(copy_pairs), 1), 3),
    }


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--size":
        print(json.dumps(run_one(int(sys.argv[2]))))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--real":
        print(json.dumps(run_real(sys.argv[2], int(sys.argv[3]))))
        return
    results: dict[str, object] = {}
    runs = [(f"real/{lang}/{n}", ["--real", lang, str(n)]) for lang in ("python", "javascript") for n in (50, 500)]
    runs += [(f"synthetic/{n}", ["--size", str(n)]) for n in SIZES]
    for name, args in runs:
        proc = subprocess.run([sys.executable, "-m", "bench.analysis", *args],
                              capture_output=True, text=True, check=True)
        results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"{name}: {results[name]}", flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
