"""Benchmark of the provenance index: build, save, load and query over real public code.

``python -m bench.provenance [--site-packages]`` indexes the whole Python
standard library (every ``.py`` file, its tests included, its
``site-packages`` not; with ``--site-packages`` also the project's installed
packages) as "public code", then queries 200 functions
taken from it under light renaming (names of locals changed, comments
reworded) and 200 independent snippets (random programs of
``bench.analysis``'s generator, about 150 nodes each), and reports build time, fingerprints,
index size on disk, peak memory, query CPU time (median and p99), the share of
pasted functions found *with their own source file and a line range inside
the function*, and the share of independent snippets wrongly matched. The
last line of output is one JSON object.
"""

from __future__ import annotations

import json
import random
import resource
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from bench.analysis import _Program
from detection.analysis.provenance import ProvenanceIndex


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _functions(root: Path, rng: random.Random, count: int) -> list[tuple[str, str, int, int]]:
    import ast

    files = sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts and "test" not in p.parts)
    rng.shuffle(files)
    out = []
    for path in files:
        try:
            text = path.read_text("utf-8")
            tree = ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.end_lineno
                 and 12 <= n.end_lineno - n.lineno <= 120]
        if funcs:
            f = rng.choice(funcs)
            lines = text.splitlines()[f.lineno - 1:f.end_lineno]
            out.append((path.relative_to(root).as_posix(), "\n".join(lines) + "\n", f.lineno, f.end_lineno))
        if len(out) == count:
            break
    return out


def _rename(source: str, rng: random.Random) -> str:
    import ast
    import textwrap

    code = textwrap.dedent(source)
    names = sorted({n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Store)})
    for name in names:
        if len(name) > 2:
            code = code.replace(name, f"{name}_{rng.randint(0, 9)}")
    return code.replace("# ", "# note: ")


def main() -> None:
    site = "--site-packages" in sys.argv
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    rng = random.Random(5)
    baseline = _peak_mb()
    index = ProvenanceIndex()
    start, cpu_start = time.perf_counter(), time.process_time()
    files = index.add_directory(stdlib, prefix="stdlib/", skip=("__pycache__", "site-packages"))
    if site:
        files += index.add_directory(Path(sysconfig.get_paths()["purelib"]), prefix="site-packages/")
    index.fingerprint_count  # noqa: B018  (builds the sorted arrays)
    build_seconds = time.perf_counter() - start
    build_cpu_seconds = time.process_time() - cpu_start
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "public.npz"
        start = time.perf_counter()
        index.save(path)
        save_seconds = time.perf_counter() - start
        size_mb = path.stat().st_size / 1e6
        start = time.perf_counter()
        ProvenanceIndex.load(path)
        load_seconds = time.perf_counter() - start
    pasted = _functions(stdlib, rng, 200)
    timings: list[float] = []  # CPU time per query (the machine may be shared)
    found = located = 0
    for rel, source, first, last in pasted:
        snippet = _rename(source, rng)
        t0 = time.process_time()
        matches = index.query(snippet, "python")
        timings.append(time.process_time() - t0)
        hit = next((m for m in matches if m.source == f"stdlib/{rel}"), None)
        if hit is not None:
            found += 1
            lo, hi = hit.source_lines
            located += first <= lo <= hi <= last
    false_hits = 0
    for k in range(200):
        snippet = _Program(random.Random(1000 + k), 150).render()
        t0 = time.process_time()
        false_hits += bool(index.query(snippet, "python"))
        timings.append(time.process_time() - t0)
    timings.sort()
    result = {
        "files": files, "fingerprints": index.fingerprint_count, "build_seconds": round(build_seconds, 1),
        "build_cpu_seconds": round(build_cpu_seconds, 1),
        "save_seconds": round(save_seconds, 2), "load_seconds": round(load_seconds, 2),
        "index_mb_on_disk": round(size_mb, 1), "peak_mb": round(_peak_mb(), 1),
        "baseline_mb": round(baseline, 1),
        "query_ms_median": round(1000 * timings[len(timings) // 2], 1),
        "query_ms_p99": round(1000 * timings[int(len(timings) * 0.99) - 1], 1),
        "pasted": len(pasted), "pasted_found_share": round(found / len(pasted), 3),
        "pasted_located_share": round(located / len(pasted), 3),
        "independent": 200, "independent_matched_share": round(false_hits / 200, 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
