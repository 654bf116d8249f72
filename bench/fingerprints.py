"""Benchmark of the fingerprint window index: query latency and memory per fingerprint.

Run from the repository root::

    python -m bench.fingerprints [--sizes 10000,100000,1000000] [--queries 200]

For each size it builds a window of random but realistically distributed
fingerprints, adds them to a :class:`~challenges.novelty.index.FingerprintIndex`
and times ``nearest(candidate, k=5)`` for fresh candidates drawn from the same
distribution. Memory is the deep size of the index's object graph (every object
reachable from it, each counted once with ``sys.getsizeof``; numpy arrays count
their whole allocated capacity, so growth slack is included), divided by the
window size.

The distribution mimics procedural generation: a few hundred templates, each with
its own bug type, solution approach, candidate architectures, bug locations,
stack combinations and concept pool; the domain comes from a pool of lexicons,
red herrings from a shared catalogue, and the tier varies around the template's.

The last line of output is JSON:
``{"sizes": {"10000": {"p50_ms": ..., "p99_ms": ..., "bytes_per_fingerprint": ...}, ...}}``.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from challenges.novelty.fingerprint import Fingerprint
from challenges.novelty.index import FingerprintIndex

SEED = 20261130
TEMPLATES = 400
LEXICONS = 80
K = 5

_WORDS = (
    "off by one loop bound index cursor page token cache stale lock race retry timeout "
    "overflow underflow null missing check order sort merge window limit rate queue heap "
    "stack buffer read write commit rollback session auth scope encoding parse format "
    "round precision clock timezone expiry counter batch stream event handler state"
).split()
_TECH = (
    "python go rust java kotlin typescript javascript ruby csharp cpp django fastapi flask "
    "spring express rails gin actix postgres mysql sqlite redis kafka rabbitmq grpc graphql "
    "react vue celery airflow spark docker kubernetes nginx elasticsearch mongodb s3 lambda "
    "terraform"
).split()
_ARCHITECTURES = [
    f"arch-{name}"
    for name in (
        "event-driven-microservice monolith layered-mvc cqrs serverless-functions batch-pipeline "
        "stream-processor plugin-host actor-system hexagonal rest-gateway cli-tool library "
        "worker-pool pub-sub-bus saga-orchestrator etl-job state-machine cache-aside "
        "sidecar-proxy job-scheduler websocket-server graphql-server mobile-backend"
    ).split()
]
_HERRINGS = [f"herring-{i}" for i in range(20)]
_CONCEPTS = [f"concept-{i}" for i in range(300)]
_LOCATIONS = [f"location-{i}" for i in range(200)]


@dataclass(frozen=True)
class _Template:
    bug_type: str
    solution: str
    architectures: tuple[str, ...]
    locations: tuple[str, ...]
    stacks: tuple[tuple[str, ...], ...]
    concepts: tuple[str, ...]
    tier: int


def _phrase(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))


def _templates(rng: random.Random) -> list[_Template]:
    return [
        _Template(
            bug_type=_phrase(rng, 2, 5),
            solution=_phrase(rng, 2, 4),
            architectures=tuple(rng.sample(_ARCHITECTURES, 3)),
            locations=tuple(rng.sample(_LOCATIONS, 4)),
            stacks=tuple(tuple(rng.sample(_TECH, rng.randint(2, 4))) for _ in range(6)),
            concepts=tuple(rng.sample(_CONCEPTS, 8)),
            tier=rng.randint(1, 5),
        )
        for _ in range(TEMPLATES)
    ]


def _fingerprint(rng: random.Random, templates: list[_Template], lexicons: list[str]) -> Fingerprint:
    t = rng.choice(templates)
    return Fingerprint(
        bug_type=t.bug_type,
        bug_location=rng.choice(t.locations),
        architecture=rng.choice(t.architectures),
        domain=rng.choice(lexicons),
        tech_stack=rng.choice(t.stacks),
        solution_approach=t.solution,
        complexity_tier=min(5, max(1, t.tier + rng.choice((-1, 0, 0, 1)))),
        red_herring_types=rng.sample(_HERRINGS, rng.randint(0, 3)),
        key_concepts=rng.sample(t.concepts, rng.randint(3, 5)),
    )


def deep_sizeof(root: object) -> int:
    """Bytes of every object reachable from ``root`` (types, modules and functions excluded)."""
    skip = (type, type(sys), type(deep_sizeof))
    seen: set[int] = set()
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def run_size(size: int, queries: int, rng: random.Random, templates: list[_Template]) -> dict[str, float]:
    lexicons = [f"lexicon {i} domain" for i in range(LEXICONS)]
    start = datetime(2026, 9, 1, tzinfo=UTC)
    index = FingerprintIndex()
    batch = 50_000
    for first in range(0, size, batch):
        items = [
            (key, _fingerprint(rng, templates, lexicons), start + timedelta(seconds=key))
            for key in range(first, min(size, first + batch))
        ]
        index.add_many(items)
        del items
    gc.collect()
    held = deep_sizeof(index)

    candidates = [_fingerprint(rng, templates, lexicons) for _ in range(queries)]
    index.nearest(candidates[0], K)  # warm-up
    timings = []
    for candidate in candidates:
        began = time.perf_counter()
        index.nearest(candidate, K)
        timings.append((time.perf_counter() - began) * 1000.0)
    timings.sort()
    p99_at = min(len(timings) - 1, max(0, round(0.99 * len(timings)) - 1))
    return {
        "p50_ms": round(statistics.median(timings), 3),
        "p99_ms": round(timings[p99_at], 3),
        "bytes_per_fingerprint": round(held / size, 1),
        "array_bytes_per_fingerprint": round(index.nbytes / size, 1),
        "distinct_values": index.distinct_values(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(SEED)
    templates = _templates(rng)
    results: dict[str, dict[str, float]] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        began = time.perf_counter()
        detail = run_size(size, args.queries, rng, templates)
        print(f"size {size}: {detail} ({time.perf_counter() - began:.1f}s)", flush=True)
        results[str(size)] = {k: detail[k] for k in ("p50_ms", "p99_ms", "bytes_per_fingerprint")}
    print(json.dumps({"sizes": results}))


if __name__ == "__main__":
    main()
