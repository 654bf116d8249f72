"""Diversity benchmark: how alike are instances of one template, and of different templates?

Run: ``python -m bench.diversity [--per 8] [--languages python,javascript] [--seed N]``.

Draws ``--per`` instances of every template and language through
``challenges.engine.api`` and compares the **non-test source** of every pair with its
identifiers, strings and numbers erased, by two measures:

* ``jaccard7`` - Jaccard of the sets of token 7-grams (tokens from the project's
  name-stripping lexer, ``challenges.audit.codetokens``; 7-grams do not cross files);
* ``dedup`` - the code-dedup score (``challenges.novelty.code``: tree-sitter structure,
  winnowed shingles, ``max(Jaccard, containment)``), the number the pipeline bands.

For each template and language it prints the mean and max over its pairs ("within"),
and per language the same over pairs of *different* templates ("across"). It also
replays each template's draws in order through the code thresholds (0.50 reject, 0.35
review by default): the share of instances that code dedup would reject or flag
against their earlier siblings if it were enforced, and the share of different-template
pairs whose code score reaches the review band (shared boilerplate).

Targets (issue 11): within-template mean <= 0.35, max <= 0.50, in every language.
The last line of output is one JSON object:
{"languages": {lang: {"within_mean", "within_max", "across_mean", "across_max",
  "dedup_within_mean", "dedup_within_max", "dedup_across_mean", "dedup_across_max",
  "across_pairs_in_flag_band", "would_reject_share", "would_flag_share"}}, "templates": {...},
  "per": N, ...}
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections.abc import Iterable

from challenges.audit.codetokens import code_tokens, language_of
from challenges.engine import api as engine
from challenges.engine import registry
from challenges.novelty.code import code_signature, compare, source_files

N = 7


def gram_set(files: dict[str, str]) -> frozenset[tuple[str, ...]]:
    grams: set[tuple[str, ...]] = set()
    for path, text in source_files(files).items():
        tokens = code_tokens(text, language_of(path) or "python", strip_names=True)
        grams.update(tuple(tokens[i : i + N]) for i in range(len(tokens) - N + 1))
    return frozenset(grams)


def jaccard(a: frozenset, b: frozenset) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def _summary(values: Iterable[float]) -> tuple[float, float]:
    values = list(values)
    return (round(statistics.fmean(values), 3), round(max(values), 3)) if values else (0.0, 0.0)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=8, help="instances per template and language (at least 2)")
    parser.add_argument("--languages", default="", help="comma-separated languages (default: all)")
    parser.add_argument("--seed", type=int, default=None, help="seed the draws (default: a CSPRNG, as in production)")
    parser.add_argument("--reject", type=float, default=0.50, help="code reject threshold to replay")
    parser.add_argument("--flag", type=float, default=0.35, help="code review threshold to replay")
    args = parser.parse_args(argv)
    if args.per < 2:
        raise SystemExit("--per must be at least 2")
    wanted = {lang for lang in args.languages.split(",") if lang}
    rng = random.Random(args.seed) if args.seed is not None else None

    started = time.perf_counter()
    drawn: dict[tuple[str, str], list[tuple[frozenset, object]]] = {}
    for slug, cls in sorted(registry().items()):
        for language in cls.spec.languages:
            if wanted and language not in wanted:
                continue
            group = []
            for _ in range(args.per):
                files = engine.generate(engine.draw(slug, language, rng)).files
                group.append((gram_set(files), code_signature(files)))
            drawn[(slug, language)] = group
    draw_s = time.perf_counter() - started

    templates: dict[str, dict[str, object]] = {}
    languages: dict[str, dict[str, object]] = {}
    for language in sorted({lang for _, lang in drawn}):
        keys = [key for key in drawn if key[1] == language]
        within_j, within_d = [], []
        rejected = flagged = later = 0
        for key in keys:
            group = drawn[key]
            pairs = list(itertools.combinations(range(len(group)), 2))
            j = [jaccard(group[a][0], group[b][0]) for a, b in pairs]
            d = [compare(group[b][1], group[a][1]).score for a, b in pairs]
            within_j += j
            within_d += d
            # Replay in draw order: each instance against the siblings drawn before it.
            for index in range(1, len(group)):
                best = max(compare(group[index][1], group[earlier][1]).score for earlier in range(index))
                later += 1
                rejected += best > args.reject
                flagged += args.flag <= best <= args.reject
            jm, jx = _summary(j)
            dm, dx = _summary(d)
            templates[f"{key[0]}/{language}"] = {"within_mean": jm, "within_max": jx, "dedup_mean": dm,
                                                 "dedup_max": dx}
            print(f"{key[0]:<24} {language:<10} within 7-gram mean {jm:.3f} max {jx:.3f} | "
                  f"dedup mean {dm:.3f} max {dx:.3f}")
        across_j, across_d = [], []
        for first, second in itertools.combinations(keys, 2):
            for a in drawn[first]:
                for b in drawn[second]:
                    across_j.append(jaccard(a[0], b[0]))
                    across_d.append(max(compare(a[1], b[1]).score, compare(b[1], a[1]).score))
        wm, wx = _summary(within_j)
        am, ax = _summary(across_j)
        dwm, dwx = _summary(within_d)
        dam, dax = _summary(across_d)
        languages[language] = {
            "within_mean": wm, "within_max": wx, "across_mean": am, "across_max": ax,
            "dedup_within_mean": dwm, "dedup_within_max": dwx, "dedup_across_mean": dam, "dedup_across_max": dax,
            "across_pairs_in_flag_band": round(sum(v >= args.flag for v in across_d) / len(across_d), 4)
            if across_d else 0.0,
            "would_reject_share": round(rejected / later, 3) if later else 0.0,
            "would_flag_share": round(flagged / later, 3) if later else 0.0,
            "templates": len(keys), "within_pairs": len(within_j), "across_pairs": len(across_j),
        }
        print(f"{language}: within mean {wm:.3f} max {wx:.3f}, across mean {am:.3f} max {ax:.3f} (7-gram); "
              f"dedup within {dwm:.3f}/{dwx:.3f}, across {dam:.3f}/{dax:.3f}; if enforced "
              f"{rejected}/{later} later siblings rejected, {flagged}/{later} flagged")

    result = {
        "languages": languages,
        "templates": templates,
        "per": args.per,
        "targets": {"within_mean": 0.35, "within_max": 0.50},
        "meets_targets": all(v["within_mean"] <= 0.35 and v["within_max"] <= 0.50 for v in languages.values()),
        "thresholds": {"reject": args.reject, "flag": args.flag},
        "draw_s": round(draw_s, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
