"""Solution analysis (spec 003 Strategy 4, spec 001 §1): pure Python over tree-sitter.

Public API (see each module's docstring for its contract):

* :func:`analyse_solutions` / :func:`analyse_prepared` – a batch: parse,
  normalise, all pairs, convergence, canonical matches → :class:`AnalysisReport`;
* :func:`analyse_patches` – the same over submitted patches, comparing only the
  functions each patch changes (post-bout convergence);
* :func:`analyse_source` / :func:`analyse_files` / :func:`analyse_tree` – one
  solution (text, several files, or a lowered tree) → normal form;
* :func:`parse_source`, :func:`normalise` – the two halves of that;
* :func:`compare`, :func:`all_pairs` – distance brackets between prepared trees;
  :func:`tree_edit_distance` – exact Zhang–Shasha;
* :func:`convergence`, :func:`convergence_from_distances` – the spec's score;
* :func:`canonical_matches` – strong/moderate matches against canonical solutions;
  :func:`match_patch` – a patch's changed functions against the canonical-fix
  library (:func:`load_library`, ``data/canonical_fixes.jsonl``);
* :func:`pair_similarity` – one pair's similarity (containment + structure);
* :class:`ProvenanceIndex` – the local winnowing index of public code;
* :func:`normal_form_diff` – what differs between two solutions once normalised;
* :func:`ngram_overlap`, :func:`patch_overlap` – token n-gram overlap;
* :func:`apply_patch`, :func:`changed_functions` – the unit a patch changes;
* :func:`read_solution`, :func:`read_solution_files`, :func:`read_canonical_library`,
  :func:`read_workspace` – disk input.
"""

from .analyse import (
    AnalysedSolution,
    AnalysisParams,
    AnalysisReport,
    analyse_files,
    analyse_patches,
    analyse_prepared,
    analyse_solutions,
    analyse_source,
    analyse_tree,
    normal_form_diff,
)
from .canonical import CanonicalMatch, CanonicalParams, canonical_matches, match_level
from .canonical_fixes import (
    CanonicalFix,
    CanonicalLibraryError,
    FixMatch,
    PatchCanonicalReport,
    load_library,
    match_patch,
)
from .convergence import (
    Band,
    ConvergenceParams,
    ConvergenceResult,
    convergence,
    convergence_from_distances,
    tier_adjustment,
)
from .distance import DistanceParams, PairDistance, all_pairs, compare, pair_similarity, structural_similarity
from .errors import AnalysisError, InvalidParameterError, PatchError, UnknownLanguageError
from .fingerprints import Containment, FingerprintParams, Fingerprints, containment, fingerprint_tree, winnow
from .languages import language_names
from .ngrams import OverlapParams, OverlapReport, ngram_overlap, patch_overlap
from .normalise import NormaliseOptions, normalise
from .parsing import ParseFailure, parse_source
from .patches import AppliedPatch, ChangedUnit, apply_patch, changed_functions, read_workspace
from .prepared import PreparedTree, prepare
from .provenance import ProvenanceIndex, ProvenanceMatch, ProvenanceParams
from .sources import CanonicalSolution, read_canonical_library, read_solution, read_solution_files
from .ted import tree_edit_distance

__all__ = [
    "AnalysedSolution", "AnalysisError", "AnalysisParams", "AnalysisReport", "AppliedPatch", "Band",
    "CanonicalMatch", "CanonicalParams", "CanonicalSolution", "ChangedUnit", "ConvergenceParams",
    "ConvergenceResult", "DistanceParams", "InvalidParameterError", "NormaliseOptions", "OverlapParams",
    "OverlapReport", "PairDistance", "ParseFailure", "PatchError", "PreparedTree", "UnknownLanguageError",
    "Containment", "FingerprintParams", "Fingerprints", "containment", "fingerprint_tree", "pair_similarity",
    "structural_similarity", "winnow",
    "CanonicalFix", "CanonicalLibraryError", "FixMatch", "PatchCanonicalReport", "ProvenanceIndex", "ProvenanceMatch",
    "ProvenanceParams", "load_library", "match_patch",
    "all_pairs", "analyse_files", "analyse_patches", "analyse_prepared", "analyse_solutions", "analyse_source", "analyse_tree", "apply_patch",
    "canonical_matches", "changed_functions", "compare", "convergence", "convergence_from_distances",
    "language_names", "match_level", "ngram_overlap", "normal_form_diff", "normalise", "parse_source", "patch_overlap",
    "prepare", "read_canonical_library", "read_solution", "read_solution_files", "read_workspace", "tier_adjustment",
    "tree_edit_distance",
]
