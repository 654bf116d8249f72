from enum import StrEnum


class ReportCostStatusEnum(StrEnum):
    NOT_REPORTED = "not_reported"
    PARTIAL = "partial"
    REPORTED = "reported"

    def __str__(self) -> str:
        return str(self.value)
