"""``manage.py analyze_solutions``: ad-hoc solution analysis for staff.

Thin shell over :mod:`detection.analysis`: reads the solutions (each PATH is a
file, or a directory whose source files together form one solution, each file
parsed on its own), calls :func:`~detection.analysis.analyse_files` and
:func:`~detection.analysis.analyse_prepared`, and prints every pair's
similarity (with its containment and structural parts, and the tree edit
distance of the pairs closer than the weakest band), the convergence score
with the band that decided it, canonical matches and parse errors. With
``--json`` the only (and so the last) line is one JSON object.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from detection.analysis import (
    AnalysedSolution,
    AnalysisError,
    AnalysisParams,
    AnalysisReport,
    DistanceParams,
    ParseFailure,
    analyse_files,
    analyse_prepared,
    language_names,
    read_canonical_library,
    read_solution_files,
)


class Command(BaseCommand):
    help = "Pairwise AST distances, convergence score and canonical matches of solutions (spec 003 Strategy 4)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help="a solution: a file or a directory")
        parser.add_argument("--language", required=True, choices=language_names())
        parser.add_argument("--tier", type=int, choices=[1, 2, 3, 4, 5], help="complexity tier of the challenge")
        parser.add_argument("--canonical", metavar="DIR",
                            help="canonical solutions: one sub-directory per bug type")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: object, **options: object) -> None:
        language = str(options["language"])
        paths = [str(p) for p in options["paths"]]  # type: ignore[attr-defined]
        params = AnalysisParams(distance=DistanceParams(tree_edit_evidence=True))
        try:
            if len(set(paths)) != len(paths):
                raise CommandError("each PATH may be given once")
            analysed: list[AnalysedSolution] = []
            errors: list[ParseFailure] = []
            for path in paths:
                result = analyse_files(path, read_solution_files(path, language), language, params)
                if isinstance(result, ParseFailure):
                    errors.append(result)
                else:
                    analysed.append(result)
            canonical = read_canonical_library(str(options["canonical"]), language) if options["canonical"] else []
            report = analyse_prepared(analysed, language, tier=options["tier"], canonical=canonical,  # type: ignore[arg-type]
                                      params=params, errors=errors)
        except AnalysisError as error:
            raise CommandError(f"{error.code}: {error.message}") from error
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict(), sort_keys=True))
            return
        self._print(report)

    def _print(self, report: AnalysisReport) -> None:
        out = self.stdout.write
        out(f"{len(report.solutions)} solutions analysed ({report.language}), {len(report.errors)} errors")
        for s in report.solutions:
            out(f"  {s.name}: {s.size} nodes, normal form {s.prepared.digest}")
        out("pairs, most alike first (similarity = 1 - distance):")
        for p in sorted(report.pairs, key=lambda pair: pair.lower):
            parts = ""
            if p.containment is not None and p.structural is not None:
                parts = f" (containment {p.containment.value:.4f}, structure {p.structural:.4f})"
            if p.ted_lower is not None and p.ted_upper is not None:
                ted = f"{p.ted_lower:.4f}" if p.ted_lower == p.ted_upper else f"{p.ted_lower:.4f}..{p.ted_upper:.4f}"
                parts += f", tree edit distance {ted}"
            out(f"  {p.a} ~ {p.b}: similarity {p.similarity:.4f}{parts}")
        c = report.convergence
        verdict = "INVESTIGATE" if c.investigate else "below the investigation threshold"
        out(f"convergence: {c.score:.2f} (band {c.band}: raw {c.raw_score:.2f}, "
            f"tier {c.tier if c.tier is not None else 'unknown'} adjustment {c.adjustment:+.2f}) - {verdict}")
        out("  share of pairs below: " + ", ".join(f"{name} {share:.0%}" for name, share in c.fractions.items()))
        out("canonical matches:" if report.canonical_matches else "canonical matches: none")
        for m in report.canonical_matches:
            value = f"{m.lower:.4f}" if m.lower == m.upper else f"{m.lower:.4f}..{m.upper:.4f}"
            out(f"  {m.solution} ~ {m.canonical} [{m.bug_type}]: {m.level} (distance {value})")
        for e in report.errors:
            out(f"error: {e.solution}: {e.message}")
