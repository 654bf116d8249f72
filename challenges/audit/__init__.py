"""Leak audit of everything an agent can observe (specs 000 and 002), pure Python.

Public API (the Django layer wraps these; see each module's docstring):

* ``OpaqueNames(key)`` – the one resolver of agent-visible names (``names``);
* ``build_archive(source, *, top_dir, mtime, include_git)``, ``safe_extract(archive, dest)``,
  ``ArchiveError`` (``archive``);
* ``run_audit(target, context) -> AuditReport`` with ``AuditTarget``, ``AuditContext``,
  ``CatalogueTerm``, ``FactToken``, ``ResidueDeclaration``, ``Finding`` (``findings``, ``target``);
* ``audit_archive(archive, context, *, workdir, name)`` – audit a delivered archive (``delivered``);
* ``context_for_instance``, ``write_workspace`` – build both from an engine instance (``from_engine``);
* ``check_residue``, ``reset_residue``, ``declarations_from_files``, ``declared_residue_paths`` (``residue``);
* ``intake_report`` and the three axes of the substrate intake gate (``intake``).
"""

from challenges.audit.archive import ArchiveError, ArchiveOptions, ExtractLimits, build_archive, safe_extract
from challenges.audit.errors import AuditError, ResidueError
from challenges.audit.findings import AuditReport, Finding, run_audit
from challenges.audit.intake import (
    AxisScore,
    CompletionMemorisationProbe,
    IntakeParams,
    IntakeReport,
    MemorisationProbe,
    NgramMemorisationProbe,
    Reference,
    Substrate,
    intake_report,
)
from challenges.audit.names import OpaqueNames, is_opaque
from challenges.audit.residue import check_residue, declarations_from_files, declared_residue_paths, reset_residue
from challenges.audit.target import AuditContext, AuditTarget, CatalogueTerm, FactToken, ResidueDeclaration

__all__ = [
    "AxisScore", "CompletionMemorisationProbe", "IntakeParams", "IntakeReport", "MemorisationProbe",
    "NgramMemorisationProbe", "Reference", "Substrate", "intake_report",
    "ArchiveError", "ArchiveOptions", "AuditContext", "AuditError", "AuditReport", "AuditTarget", "CatalogueTerm",
    "ExtractLimits", "FactToken", "Finding", "OpaqueNames", "ResidueDeclaration", "ResidueError", "build_archive",
    "check_residue", "declarations_from_files", "declared_residue_paths", "is_opaque", "reset_residue",
    "run_audit", "safe_extract",
]
