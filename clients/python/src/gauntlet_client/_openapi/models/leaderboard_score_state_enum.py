from enum import StrEnum


class LeaderboardScoreStateEnum(StrEnum):
    FINAL = "final"
    INVALIDATED = "invalidated"
    PROVISIONAL = "provisional"
    UNDER_REVIEW = "under_review"

    def __str__(self) -> str:
        return str(self.value)
