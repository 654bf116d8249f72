"""Code-dedup benchmark: one lookup against a 10,000-instance window (target <= 50 ms).

Run: ``python -m bench.code_dedup [--window 10000] [--lookups 300] [--bases 3]``.

Realistic signatures: ``--bases`` instances per template and language are generated
through the engine and signed (``code_signature``); the window is filled with
variants of them, each keeping a drawn share of its base's fingerprints and replacing
the rest with fresh ones. The share follows today's generator (``--keep 0.80:0.98``:
siblings of one template share 80-98 % of their structure) unless told otherwise, so
every lookup meets the few hundred same-template LSH candidates a real window holds
and computes exact scores for all of them. Wall and CPU time are both reported: on a shared machine the wall-clock tail measures
the neighbours. Lookups are new variants not in the window; ``--recall-checks`` of them are also
scored by brute force over the whole window to check the LSH step loses nothing.

The last line of output is one JSON object:
{"window", "lookups", "lookup_p50_ms", "lookup_p99_ms", "lookup_max_ms", "lookup_cpu_p50_ms",
 "lookup_cpu_p99_ms", "load_average", "candidates_p50", "top1_recall",
 "index_mb", "build_peak_mb", "signature_p50_ms", "fingerprints_p50", ...}
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import tracemalloc
from datetime import UTC, datetime, timedelta

import numpy as np

from challenges.engine import draw, generate, registry
from challenges.novelty.code import CodeIndex, CodeSignature, code_signature, compare, minhash


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _variant(base: CodeSignature, keep: float, rng: np.random.Generator) -> CodeSignature:
    hashes = base.hashes.copy()
    change = rng.random(len(hashes)) >= keep
    hashes[change] = rng.integers(0, 2**32, size=int(change.sum()), dtype=np.uint32)
    unique = np.unique(hashes)
    return CodeSignature(files=base.files, tokens=base.tokens, hashes=hashes, file=base.file, start=base.start,
                         end=base.end, unique=unique, minhash=minhash(unique, len(base.minhash)), k=base.k,
                         w=base.w, bands=base.bands)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=int, default=10_000)
    parser.add_argument("--lookups", type=int, default=300)
    parser.add_argument("--bases", type=int, default=3, help="generated instances per template and language")
    parser.add_argument("--keep", default="0.80:0.98", help="share of a base's fingerprints a variant keeps (lo:hi)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--recall-checks", type=int, default=20,
                        help="lookups also answered by brute force over the whole window, to measure LSH recall")
    args = parser.parse_args(argv)
    lo, hi = (float(x) for x in args.keep.split(":"))
    rng = np.random.default_rng(args.seed)

    bases: list[CodeSignature] = []
    sign_ms: list[float] = []
    for slug, cls in sorted(registry().items()):
        for language in cls.spec.languages:
            for _ in range(args.bases):
                generated = generate(draw(slug, language))
                started = time.perf_counter()
                bases.append(code_signature(generated.files))
                sign_ms.append((time.perf_counter() - started) * 1000)
    print(f"{len(bases)} generated base signatures; signing p50 {statistics.median(sign_ms):.1f} ms")

    now = datetime(2026, 12, 1, tzinfo=UTC)
    variants = [_variant(bases[i % len(bases)], float(rng.uniform(lo, hi)), rng) for i in range(args.window)]
    tracemalloc.start()
    started = time.perf_counter()
    index = CodeIndex()
    for key, signature in enumerate(variants):
        index.add(key, signature, now - timedelta(minutes=key))
    build_s = time.perf_counter() - started
    _, build_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"window of {len(index)} built in {build_s:.2f} s, index {index.nbytes / 2**20:.1f} MiB")

    times: list[float] = []
    cpu_times: list[float] = []
    candidates: list[int] = []
    top_scores: list[float] = []
    for i in range(args.lookups):
        query = _variant(bases[int(rng.integers(len(bases)))], float(rng.uniform(lo, hi)), rng)
        started, cpu = time.perf_counter(), time.process_time()
        found = index.nearest(query, k=5)
        times.append((time.perf_counter() - started) * 1000)
        cpu_times.append((time.process_time() - cpu) * 1000)
        if i < 50:
            candidates.append(len(index.candidates(query)))
        top_scores.append(found[0].score if found else 0.0)

    # Recall: does the LSH lookup return the same best match as exact scoring of all rows?
    agree = 0
    for _ in range(args.recall_checks):
        query = _variant(bases[int(rng.integers(len(bases)))], float(rng.uniform(lo, hi)), rng)
        best = max((compare(query, sig, key) for key, sig in enumerate(variants)), key=lambda m: (m.score, -m.key))
        found = index.nearest(query, k=1)
        agree += bool(found) and found[0].key == best.key and abs(found[0].score - best.score) < 1e-12
    del variants

    result = {
        "window": len(index),
        "lookups": len(times),
        "lookup_p50_ms": round(statistics.median(times), 2),
        "lookup_p99_ms": round(_quantile(times, 0.99), 2),
        "lookup_max_ms": round(max(times), 2),
        "lookup_cpu_p50_ms": round(statistics.median(cpu_times), 2),
        "lookup_cpu_p99_ms": round(_quantile(cpu_times, 0.99), 2),
        "load_average": round(os.getloadavg()[0], 1),
        "target_ms": 50,
        "candidates_p50": int(statistics.median(candidates)),
        "top_score_p50": round(statistics.median(top_scores), 3),
        "top1_recall": round(agree / args.recall_checks, 3) if args.recall_checks else None,
        "index_mb": round(index.nbytes / 2**20, 1),
        "build_peak_mb": round(build_peak / 2**20, 1),
        "build_s": round(build_s, 2),
        "signature_p50_ms": round(statistics.median(sign_ms), 1),
        "fingerprints_p50": int(statistics.median(len(b) for b in bases)),
        "keep": [lo, hi],
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
