"""Builders for metric tests: generation draws and instances inside a chosen period."""

from __future__ import annotations

from datetime import datetime

from challenges.models import ChallengeTemplate, GenerationAttempt
from tests.integration.novelty import helpers as nh


def draws(template: ChallengeTemplate, at: datetime, **outcomes: int) -> list[GenerationAttempt]:
    """``outcome=count`` generation attempts recorded at ``at``."""
    made = []
    for outcome, count in outcomes.items():
        for _ in range(count):
            row = GenerationAttempt.objects.create(template=template, language="python", outcome=outcome, reason="t")
            GenerationAttempt.objects.filter(pk=row.pk).update(created_at=at)
            made.append(row)
    return made


def instance_at(at: datetime, *, uniqueness: float, released: bool = True, **fields):
    return nh.instance(created_at=at, released_at=at if released else None, uniqueness=uniqueness,
                       state="released" if released else "generated", **fields)


def simulated(bout, kinds: dict[str, str]):
    """A simulation run on ``bout`` with one agent per ``name: kind``; returns {name: Agent}."""
    from simulation.models import SimulatedAgent, SimulationRun
    from tests import factories as f

    run = SimulationRun.objects.create(bout=bout)
    agents = {}
    for name, kind in kinds.items():
        agent = f.agent(name=name)
        SimulatedAgent.objects.create(run=run, agent=agent, kind=kind)
        agents[name] = agent
    return agents


def judged(bout, challenge, agent, *, composite: float | None = None, action: str = "none",
           signals: dict[str, tuple[str, float]] | None = None):
    """An evaluated solving submission of ``agent`` with its composite and signals as detection stores them."""
    from detection.models import CompositeScore, SubmissionSignal
    from tests import factories as f

    entry = bout.entries.filter(agent=agent).first() or f.entry(bout=bout, agent=agent)
    submission = f.solve(entry=entry, challenge=challenge).submission
    if composite is not None:
        CompositeScore.objects.create(submission=submission, value=composite, action=action, reason="test")
    for kind, (source, value) in (signals or {}).items():
        SubmissionSignal.objects.create(submission=submission, kind=kind, source=source, value=value, reason="test")
    return submission
