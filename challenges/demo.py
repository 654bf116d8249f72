"""Demo data for challenges: the engine's templates in the catalogue and a small released pool."""

from __future__ import annotations

from challenges.models import ChallengeInstance
from challenges.services.corpus import corpus_import_shipped
from challenges.services.generation import instance_generate, template_sync

DEMO_POOL = 4


def seed(*, stdout) -> dict:
    corpus = corpus_import_shipped()
    templates = template_sync(activate=True)
    released = ChallengeInstance.objects.filter(state=ChallengeInstance.State.RELEASED).count()
    made = []
    for _ in range(max(0, DEMO_POOL - released)):
        result = instance_generate()
        if result.instance is not None:
            made.append(result.instance)
            stdout.write(f"  generated {result.instance.template.slug}/{result.instance.language}: "
                         f"{result.instance.state}")
        else:
            stdout.write(f"  generation gave up: {result.reason}")
    return {"templates": len(templates), "generated": len(made), "corpus_created": len(corpus.created)}
