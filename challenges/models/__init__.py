from challenges.models.catalogue import ChallengeTemplate, Lexicon
from challenges.models.instances import ChallengeInstance, ContributorName, GenerationAttempt, GenerationRun
from challenges.models.novelty import CorpusEntry, FingerprintReview, HallOfFameEntry, RotationCalendar

__all__ = ["ChallengeTemplate", "Lexicon", "ChallengeInstance", "ContributorName", "GenerationAttempt",
           "GenerationRun", "CorpusEntry", "FingerprintReview", "HallOfFameEntry", "RotationCalendar"]
