"""Labelled pairs built from code nobody here wrote, and the measures on them.

``python -m bench.analysis_corpus [--split tuned|heldout|all] [--limit N]`` scores
three sets of pairs with every scorer of :mod:`bench.analysis_eval` and prints
one JSON object as the last line.

* ``handwritten`` – ``tests/unit/analysis/corpus`` (six languages; copies under
  rename, reformat, comments, reorder, dead code, loop and branch rewrites,
  wrappers; independent solutions of the same task). Split ``tuned``; its
  ``heldout/`` groups (functions split and merged, AI-style rewrites, written
  after the parameters were fixed) are split ``heldout``.
* ``vendored`` – real copies in the wild: the same module vendored by two
  packages at different versions (``pip/_vendor/packaging/version.py`` vs
  ``packaging/version.py``, ``setuptools/_vendor/…``), text differing, are
  positives; two different modules of one package (same authors, same style,
  similar size) are negatives. Nobody tuned anything on them: split ``heldout``.
* ``disguised`` – functions of the Python standard library (20–150 lines) and
  disguised copies of them: renamed names, dead padding (unused imports,
  constants, assignments, comments), live padding (logging and checks an
  AI-style rewrite adds), branch inversion, ``for`` → ``while``, a helper
  extracted from the body, statements of the module reordered, in 2–4
  combinations. Negatives: two different functions with the same name from
  different modules (``__init__``, ``parse``, ``close``…: the same job done
  independently), sizes within a factor of 2. Modules are split by a hash of
  their name: ``tuned`` and ``heldout`` never share a module.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import sys
import sysconfig
import textwrap
import time
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from bench.analysis_eval import Pair, evaluate

STDLIB = Path(sysconfig.get_paths()["stdlib"])
SITE = Path(sysconfig.get_paths()["purelib"])
CORPUS = Path(__file__).resolve().parent.parent / "tests" / "unit" / "analysis" / "corpus"
SUFFIX_LANGUAGE = {".py": "python", ".js": "javascript", ".ts": "typescript", ".go": "go", ".java": "java",
                   ".rs": "rust"}


def split_of(name: str) -> str:
    return "heldout" if int(hashlib.sha1(name.encode()).hexdigest(), 16) % 3 == 0 else "tuned"


# -- handwritten -----------------------------------------------------------------------------

def handwritten_pairs(directory: Path = CORPUS) -> list[Pair]:
    out: list[Pair] = []
    for path in sorted(directory.glob("*.txt")):
        language = SUFFIX_LANGUAGE[Path(path.name[:-4]).suffix]
        sections: list[tuple[str, list[str]]] = []
        for line in path.read_text().splitlines():
            if line.startswith("@@@@ "):
                sections.append((line[5:].split()[0], []))
            elif sections:
                sections[-1][1].append(line)
        for (ra, la), (rb, lb) in combinations(sections, 2):
            positive = "independent" not in (ra, rb)
            out.append(Pair("\n".join(la) + "\n", "\n".join(lb) + "\n", language, positive,
                            "copy" if positive else "independent"))
    return out


# -- vendored copies ---------------------------------------------------------------------------

VENDORED = ["packaging", "idna", "tomli", "pyparsing", "urllib3", "requests", "more_itertools", "certifi"]
VENDOR_ROOTS = ["", "pip/_vendor/", "setuptools/_vendor/", "pkg_resources/_vendor/"]


def _lines_ok(text: str, low: int = 30, high: int = 900) -> bool:
    return low <= text.count("\n") <= high


def vendored_pairs(rng: random.Random) -> list[Pair]:
    out: list[Pair] = []
    for package in VENDORED:
        copies: dict[str, dict[str, str]] = {}
        for root in VENDOR_ROOTS:
            base = SITE / f"{root}{package}"
            if base.is_dir():
                files = {p.relative_to(base).as_posix(): p.read_text("utf-8", "replace")
                         for p in sorted(base.rglob("*.py"))}
                copies[root or "site"] = {k: v for k, v in files.items() if _lines_ok(v)}
        roots = sorted(copies)
        for ra, rb in combinations(roots, 2):
            for module in sorted(set(copies[ra]) & set(copies[rb])):
                if copies[ra][module] != copies[rb][module]:
                    out.append(Pair(copies[ra][module], copies[rb][module], "python", True, "vendored_copy"))
        if roots:
            files = copies[roots[0]]
            names = sorted(files)
            for a, b in combinations(names, 2):
                la, lb = files[a].count("\n"), files[b].count("\n")
                if max(la, lb) <= 2 * min(la, lb):
                    out.append(Pair(files[a], files[b], "python", False, "same_package_module"))
    positives = [p for p in out if p.positive]
    negatives = [p for p in out if not p.positive]
    rng.shuffle(negatives)
    return positives + negatives[: max(len(positives) * 2, 40)]


# -- disguised standard-library functions --------------------------------------------------------

class _Renamer(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.names:
            node.id = self.names[node.id]
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        if node.arg in self.names:
            node.arg = self.names[node.arg]
        return node


WORDS = ["value", "item", "result", "data", "temp", "current", "entry", "buffer", "state", "node", "key",
         "count", "index", "record", "payload", "token", "element", "chunk", "part", "output"]


def _local_names(func: ast.FunctionDef) -> list[str]:
    names = {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    names.discard("self")
    return sorted(names)


def d_rename(func: ast.FunctionDef, rng: random.Random) -> ast.FunctionDef:
    names = {n: f"{rng.choice(WORDS)}_{i}" for i, n in enumerate(_local_names(func))}
    func = _Renamer(names).visit(func)
    func.name = f"{func.name}_{rng.choice(WORDS)}" if not func.name.startswith("__") else func.name
    return func


def d_live_padding(func: ast.FunctionDef, rng: random.Random) -> ast.FunctionDef:
    stmts = [
        "logger.debug('entering step')",
        "if self_check is not None:\n    self_check()",
        "_trace.append(len(_trace))",
        "metrics['calls'] = metrics.get('calls', 0) + 1",
    ]
    body = list(func.body)
    for _ in range(rng.randint(1, 3)):
        body.insert(rng.randint(0, len(body)), ast.parse(rng.choice(stmts)).body[0])
    func.body = body
    return func


def d_dead_locals(func: ast.FunctionDef, rng: random.Random) -> ast.FunctionDef:
    body = list(func.body)
    for k in range(rng.randint(1, 3)):
        body.insert(rng.randint(0, len(body)), ast.parse(f"unused_{k} = {rng.randint(0, 999)}").body[0])
    func.body = body
    return func


class _Invert(ast.NodeTransformer):
    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        if node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)):
            return ast.If(test=ast.UnaryOp(op=ast.Not(), operand=node.test), body=node.orelse, orelse=node.body)
        return node


def d_invert_if(func: ast.FunctionDef, rng: random.Random) -> ast.FunctionDef:
    return _Invert().visit(func)


class _ForToWhile(ast.NodeTransformer):
    def visit_For(self, node: ast.For) -> ast.AST | list[ast.AST]:
        self.generic_visit(node)
        it = node.iter
        if (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and len(it.args) == 1 and isinstance(node.target, ast.Name) and not node.orelse
                and not any(isinstance(n, ast.Continue) for n in ast.walk(node))):
            var = node.target.id
            init = ast.parse(f"{var} = 0").body[0]
            cond = ast.Compare(left=ast.Name(var, ast.Load()), ops=[ast.Lt()], comparators=[it.args[0]])
            step = ast.parse(f"{var} += 1").body[0]
            return [init, ast.While(test=cond, body=node.body + [step], orelse=[])]
        return node


def d_for_while(func: ast.FunctionDef, rng: random.Random) -> ast.FunctionDef:
    return _ForToWhile().visit(func)


def d_extract_helper(func: ast.FunctionDef, rng: random.Random) -> ast.FunctionDef | list[ast.stmt]:
    """Move the body of the first branch or loop into a helper that takes every name it reads."""
    for node in ast.walk(func):
        if isinstance(node, (ast.If, ast.For, ast.While)) and len(node.body) >= 2:
            stored = {n.id for s in node.body for n in ast.walk(s) if isinstance(n, ast.Name)
                      and isinstance(n.ctx, ast.Store)}
            if stored or any(isinstance(n, (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom))
                             for s in node.body for n in ast.walk(s)):
                continue
            read = sorted({n.id for s in node.body for n in ast.walk(s) if isinstance(n, ast.Name)})
            helper_name = f"_{func.name.strip('_')}_step"
            helper = ast.parse(f"def {helper_name}({', '.join(read)}):\n    pass").body[0]
            helper.body = node.body  # type: ignore[attr-defined]
            node.body = [ast.Expr(ast.parse(f"{helper_name}({', '.join(read)})").body[0].value)]  # type: ignore[attr-defined]
            return [helper, func]  # type: ignore[list-item]
    return func


DISGUISES = {"rename": d_rename, "live_padding": d_live_padding, "dead_locals": d_dead_locals,
             "invert_if": d_invert_if, "for_while": d_for_while, "extract_helper": d_extract_helper}


def disguise(source: str, rng: random.Random) -> tuple[str, list[str]]:
    tree = ast.parse(source)
    func = tree.body[0]
    chosen = rng.sample(sorted(DISGUISES), rng.randint(2, 4))
    stmts: list[ast.stmt] = [func]  # type: ignore[list-item]
    for name in chosen:
        target = stmts[-1]
        result = DISGUISES[name](target, rng)  # type: ignore[arg-type]
        stmts = stmts[:-1] + (result if isinstance(result, list) else [result])
    if len(stmts) > 1 and rng.random() < 0.5:
        stmts.reverse()  # the helper after the function that calls it
    module = ast.Module(body=stmts, type_ignores=[])
    text = ast.unparse(ast.fix_missing_locations(module))
    if rng.random() < 0.7:
        pad = ["import os", "import sys", "from typing import Any", f"MAX_ITEMS = {rng.randint(10, 999)}",
               "# helper utilities", "DEBUG = False"]
        text = "\n".join(rng.sample(pad, rng.randint(2, 5))) + "\n\n" + text
        chosen.append("dead_padding")
    return text + "\n", chosen


def _functions(path: Path) -> list[tuple[str, str]]:
    try:
        text = path.read_text("utf-8")
        tree = ast.parse(text)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return []
    lines = text.splitlines()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.end_lineno is not None:
            length = node.end_lineno - node.lineno + 1
            if 20 <= length <= 150 and not node.decorator_list:
                source = textwrap.dedent("\n".join(lines[node.lineno - 1:node.end_lineno])) + "\n"
                try:
                    ast.parse(source)
                except SyntaxError:
                    continue
                out.append((node.name, source))
    return out


def disguised_pairs(rng: random.Random, split: str, limit: int) -> list[Pair]:
    modules = sorted(p for p in STDLIB.glob("*.py") if split in ("all", split_of(p.stem)))
    by_name: dict[str, list[tuple[str, str]]] = defaultdict(list)
    originals: list[tuple[str, str]] = []
    for path in modules:
        for name, source in _functions(path):
            by_name[name].append((path.stem, source))
            originals.append((path.stem, source))
    rng.shuffle(originals)
    out: list[Pair] = []
    for _, source in originals[:limit]:
        try:
            copy, applied = disguise(source, rng)
        except (SyntaxError, RecursionError, ValueError):
            continue
        out.append(Pair(source, copy, "python", True, "+".join(sorted(applied))))
    negatives: list[Pair] = []
    for name, items in sorted(by_name.items()):
        for (ma, sa), (mb, sb) in combinations(items, 2):
            la, lb = sa.count("\n"), sb.count("\n")
            if ma != mb and max(la, lb) <= 2 * min(la, lb) and sa != sb:
                negatives.append(Pair(sa, sb, "python", False, f"same_name:{name}"))
    rng.shuffle(negatives)
    return out + negatives[: 2 * len(out)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=["tuned", "heldout", "all"], default="all")
    parser.add_argument("--limit", type=int, default=150, help="disguised originals per split")
    parser.add_argument("--no-copydetect", action="store_true")
    parser.add_argument("--no-ted", action="store_true")
    args = parser.parse_args()
    scorers = ["similarity", "containment", "structural"] + ([] if args.no_ted else ["tree_edit"]) \
        + ([] if args.no_copydetect else ["copydetect"])
    sys.setrecursionlimit(20_000)
    results: dict[str, object] = {}
    sets: list[tuple[str, list[Pair]]] = []
    if args.split in ("tuned", "all"):
        sets.append(("handwritten/tuned", handwritten_pairs()))
        sets.append(("disguised/tuned", disguised_pairs(random.Random(1), "tuned", args.limit)))
    if args.split in ("heldout", "all"):
        sets.append(("handwritten/heldout", handwritten_pairs(CORPUS / "heldout")))
        sets.append(("disguised/heldout", disguised_pairs(random.Random(2), "heldout", args.limit)))
        sets.append(("vendored/heldout", vendored_pairs(random.Random(3))))
    for name, pairs in sets:
        start = time.perf_counter()
        results[name] = evaluate(pairs, scorers)
        results[name]["seconds"] = round(time.perf_counter() - start, 1)  # type: ignore[index]
        print(name, json.dumps(results[name]), flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
