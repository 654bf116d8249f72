"""Generation benchmark: draw + generate, and released instances (generate + every gate).

Run: ``python -m bench.generation [--instances N] [--generate-only M]``.
Round-robins over every registered template and language. A draw whose instance
fails a gate is redrawn (up to ``--attempts`` times), as the pipeline does; the
released time of an instance includes those regenerations. The last line of
output is one JSON object:
{"released_p50_s", "released_p95_s", "generation_only_p50_s", "regeneration_rate", "instances", ...}
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from challenges.engine import draw, generate, registry, validate


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=None,
                        help="released instances to produce (default: 24, or one per template and language)")
    parser.add_argument("--generate-only", type=int, default=40, help="generate-only samples")
    parser.add_argument("--attempts", type=int, default=5, help="draws per released instance")
    parser.add_argument("--unsafe", action="store_true", help="run gates without bubblewrap (development only)")
    args = parser.parse_args(argv)

    combos = [(slug, lang) for slug, cls in registry().items() for lang in cls.spec.languages]
    if not combos:
        raise SystemExit("no templates registered")
    if args.instances is None:
        args.instances = max(24, len(combos))

    gen_times: list[float] = []
    for i in range(args.generate_only):
        slug, lang = combos[i % len(combos)]
        started = time.perf_counter()
        generate(draw(slug, lang))
        gen_times.append(time.perf_counter() - started)

    released: list[float] = []
    draws = failures = 0
    per_template: dict[str, list[float]] = {}
    for i in range(args.instances):
        slug, lang = combos[i % len(combos)]
        started = time.perf_counter()
        for _attempt in range(args.attempts):
            draws += 1
            try:
                report = validate(generate(draw(slug, lang)), allow_unsafe=args.unsafe)
            except Exception as exc:  # a generation error is a regeneration, like a failed gate
                print(f"  {slug}/{lang}: generation error {exc}", file=sys.stderr)
                failures += 1
                continue
            if report.passed:
                elapsed = time.perf_counter() - started
                released.append(elapsed)
                per_template.setdefault(f"{slug}/{lang}", []).append(round(elapsed, 2))
                print(f"{slug:<24} {lang:<10} released in {elapsed:6.2f}s ({report.runs} runs)")
                break
            failures += 1
            print(f"{slug:<24} {lang:<10} redraw: {'; '.join(report.failures)[:200]}")
        else:
            print(f"{slug:<24} {lang:<10} gave up after {args.attempts} draws")

    result = {
        "released_p50_s": round(statistics.median(released), 3) if released else None,
        "released_p95_s": round(_quantile(released, 0.95), 3) if released else None,
        "generation_only_p50_s": round(statistics.median(gen_times), 4),
        "generation_only_p95_s": round(_quantile(gen_times, 0.95), 4),
        "regeneration_rate": round(failures / draws, 4) if draws else 0.0,
        "instances": len(released),
        "draws": draws,
        "templates": len(registry()),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
