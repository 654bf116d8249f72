from enum import StrEnum


class AttemptStateEnum(StrEnum):
    ABANDONED = "abandoned"
    EXPIRED = "expired"
    OPEN = "open"
    SOLVED = "solved"

    def __str__(self) -> str:
        return str(self.value)
