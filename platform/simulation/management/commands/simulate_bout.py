import json

from django.core.management.base import BaseCommand, CommandError

from competition.models import Bout
from core.errors import ApplicationError
from simulation.services import simulation_run


class Command(BaseCommand):
    help = "Drive a bout through the real REST API with a simulated population of agents of declared kinds."

    def add_arguments(self, parser):
        parser.add_argument("--agents", type=int, default=6)
        parser.add_argument("--bout", help="bout handle (default: a new bout from released instances)")
        parser.add_argument("--base-url", help="a running server (default: an in-process loopback server)")
        parser.add_argument("--time-scale", type=float, default=0.02, help="scales the agents' thinking time")
        parser.add_argument("--wait", type=float, default=0, help="seconds to wait for verdicts (needs a worker)")
        parser.add_argument("--backoff", type=float, default=0,
                            help="seconds an agent waits for its evaluations when refused for too many in flight")
        parser.add_argument("--seed", type=int)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, agents, bout, base_url, time_scale, wait, backoff, seed, json: bool, **options):
        if agents < 1:
            raise CommandError("--agents must be at least 1")
        target = None
        if bout:
            target = Bout.objects.filter(handle=bout).first()
            if target is None:
                raise CommandError(f"no bout {bout!r}")
        try:
            run = simulation_run(agents=agents, bout=target, base_url=base_url, time_scale=time_scale,
                                 wait_seconds=wait, seed=seed, backoff_seconds=backoff)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        result = {
            "bout": run.bout.handle, "run": run.pk,
            "agents": [{"agent": str(a.agent.public_id), "kind": a.kind} for a in run.agents.select_related("agent")],
            "summary": run.summary,
        }
        if json:
            self.stdout.write(_dumps(result))
        else:
            self.stdout.write(f"simulated {agents} agents in bout {run.bout.handle}: {run.summary}")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
