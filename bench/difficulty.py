"""Difficulty benchmark: what generated instances measure, per tier.

Run: ``python -m bench.difficulty [--per N] [--seed S]``.
Draws ``N`` instances of every registered template in every language it supports through
``challenges.engine.api`` (draw + generate; the release gates are not run, so every hidden
test file counts as a place the symptom shows and visible failures are not measured), takes
each instance's difficulty profile (``challenges.engine.difficulty``) and prints, per tier, the
median source lines, source files, causal distance and grep rank, with issue 12's floor for
the tier. The last line of output is one JSON object:
{"per": N, "instances": ..., "errors": ..., "tiers": {"<tier>": {"instances", "median": {...},
 "mean": {...}, "unreachable", "below_floor"}}, "seconds": ...}
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from challenges.engine import api, registry
from challenges.engine.difficulty import DifficultyFloor, profile_instance, shortfalls, summarise

# The defaults of the ``difficulty.min_*`` settings (challenges/difficulty_config.py), repeated
# so the benchmark runs without Django: lines, files, causal distance.
FLOORS = {1: DifficultyFloor(100, 3, 0), 2: DifficultyFloor(500, 8, 1), 3: DifficultyFloor(1200, 15, 1),
          4: DifficultyFloor(2500, 25, 2), 5: DifficultyFloor(5000, 40, 3)}


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=3, help="instances per template and language")
    parser.add_argument("--seed", type=int, default=None, help="seed the draws (default: the CSPRNG)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed) if args.seed is not None else None

    combos = [(slug, lang) for slug, cls in sorted(registry().items()) for lang in cls.spec.languages]
    if not combos:
        raise SystemExit("no templates registered")
    started = time.perf_counter()
    by_tier: dict[int, list[dict]] = {}
    errors = 0
    for slug, lang in combos:
        for _ in range(args.per):
            try:
                instance = api.generate(api.draw(slug, lang, rng))
            except Exception as exc:  # one broken draw is reported, not fatal to the measurement
                errors += 1
                print(f"  {slug}/{lang}: generation error {exc}", file=sys.stderr)
                continue
            profile = profile_instance(instance)
            record = profile.to_dict()
            floor = FLOORS.get(instance.tier, FLOORS[5])
            record["check"] = {"shortfalls": shortfalls(profile, floor, instance.tier)}
            by_tier.setdefault(instance.tier, []).append(record)
            print(f"{slug:<24} {lang:<10} tier {instance.tier}  {record['source_lines']:>5} lines "
                  f"{record['source_files']:>3} files  distance {record['causal_distance']}  "
                  f"grep rank {record['grep_rank']}/{record['source_files']}")

    tiers = {str(tier): summarise(records) for tier, records in sorted(by_tier.items())}
    print()
    print(f"{'tier':>4}  {'n':>3}  {'lines':>7}  {'files':>5}  {'distance':>8}  {'grep rank':>9}  "
          f"{'below floor':>11}  floor (lines/files/distance)")
    for tier, summary in tiers.items():
        median = summary["median"]
        floor = FLOORS.get(int(tier), FLOORS[5])

        def fmt(value, width):
            return f"{'-' if value is None else f'{value:g}':>{width}}"

        print(f"{tier:>4}  {summary['instances']:>3}  {fmt(median['source_lines'], 7)}  "
              f"{fmt(median['source_files'], 5)}  {fmt(median['causal_distance'], 8)}  "
              f"{fmt(median['grep_rank'], 9)}  {summary['below_floor']:>11}  "
              f"{floor.min_source_lines}/{floor.min_source_files}/{floor.min_causal_distance}")
    result = {"per": args.per, "instances": sum(len(r) for r in by_tier.values()), "errors": errors,
              "tiers": tiers, "seconds": round(time.perf_counter() - started, 2)}
    print(json.dumps(result, sort_keys=True))
    return result


if __name__ == "__main__":
    main()
