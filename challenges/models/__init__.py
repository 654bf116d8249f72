from challenges.models.catalogue import ChallengeTemplate, Lexicon
from challenges.models.instances import ChallengeInstance, GenerationAttempt, GenerationRun

__all__ = ["ChallengeTemplate", "Lexicon", "ChallengeInstance", "GenerationAttempt", "GenerationRun"]
