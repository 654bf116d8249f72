from challenges.models.calibration import CalibrationResult, CalibrationRun, TierProposal
from challenges.models.catalogue import ChallengeTemplate, Lexicon
from challenges.models.instances import ChallengeInstance, ContributorName, GenerationAttempt, GenerationRun
from challenges.models.novelty import (
    CorpusEntry,
    FingerprintReview,
    HallOfFameEntry,
    InstanceCodeSignature,
    RotationCalendar,
)

__all__ = ["ChallengeTemplate", "Lexicon", "ChallengeInstance", "ContributorName", "GenerationAttempt",
           "GenerationRun", "CorpusEntry", "FingerprintReview", "HallOfFameEntry", "InstanceCodeSignature",
           "RotationCalendar", "CalibrationRun", "CalibrationResult", "TierProposal"]
