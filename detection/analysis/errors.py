"""Domain errors of the analysis core.

Every error carries a stable machine ``code`` and names the offending ``field``
so a shell (management command, API, task) can report it without parsing text.
Parse failures of individual solutions are *not* errors: they are returned as
:class:`detection.analysis.parsing.ParseFailure` values so one bad solution never
stops a batch.
"""

from __future__ import annotations


class AnalysisError(Exception):
    """Bad input to the analysis core."""

    code = "analysis_error"

    def __init__(self, message: str, *, field: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "extra": {"field": self.field}}


class UnknownLanguageError(AnalysisError):
    code = "analysis_unknown_language"


class InvalidParameterError(AnalysisError):
    code = "analysis_invalid_parameter"


class PatchError(AnalysisError):
    code = "analysis_patch_invalid"
