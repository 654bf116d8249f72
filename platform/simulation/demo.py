"""Demo data: a small simulated bout, so leaderboards and reports have something to show."""

from __future__ import annotations

from simulation.models import SimulationRun
from simulation.services import simulation_run


def seed(*, stdout) -> dict:
    if SimulationRun.objects.filter(bout__state="active").exists():
        return {"bout": None}
    run = simulation_run(agents=6, time_scale=0.01)
    stdout.write(f"  simulated bout {run.bout.handle}: {run.summary['submissions']} submissions "
                 "(the worker evaluates them once it starts)")
    return {"bout": run.bout.handle}
