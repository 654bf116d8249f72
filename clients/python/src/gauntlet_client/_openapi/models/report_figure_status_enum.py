from enum import StrEnum


class ReportFigureStatusEnum(StrEnum):
    NOT_REPORTED = "not_reported"
    NO_ATTEMPTS = "no_attempts"
    NO_SOLVES = "no_solves"
    OK = "ok"
    PARTIAL = "partial"
    ZERO_COST = "zero_cost"

    def __str__(self) -> str:
        return str(self.value)
