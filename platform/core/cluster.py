"""The task-queue cluster's sentinel, hardened against a process killed outright.

django-q2's sentinel replaces a dead worker, pusher or monitor and carries on with the
same in-memory queues. But a process killed outright (SIGKILL, the OOM killer) can die
holding one of those queues' process-shared locks, which nothing ever releases: an idle
worker holds the task queue's read lock for as long as it waits for work, the monitor
holds the result queue's. Every process that reads that queue then blocks forever, and
the cluster looks alive while it does nothing (``bench.faults`` found this: one idle
worker killed, and no task ran again until the cluster was restarted).

So after a sudden death this sentinel restarts all of its processes on fresh queues.
The tasks the old queues held are lost with them, as in any crash; for evaluations the
database still says what remains to be done, and the reaper queues it again. Deaths the
sentinel caused or expected (a worker past its timeout, a recycled worker) are handled
as django-q2 handles them.
"""

from __future__ import annotations

from django_q import cluster as q_cluster
from django_q.conf import Conf, logger
from django_q.queues import Queue

# Values of a worker's timer (django_q.worker): its task timed out / it recycled itself.
TIMED_OUT, RECYCLED = 0, -2


class HardenedSentinel(q_cluster.Sentinel):
    def reincarnate(self, process) -> None:
        if process is not self.monitor and process is not self.pusher and process not in self.pool:
            return  # a process of a generation already replaced
        if process in self.pool and process.timer.value in (TIMED_OUT, RECYCLED):
            super().reincarnate(process)
            return
        logger.critical("%s died suddenly: restarting every cluster process on fresh queues", process.name)
        self.respawn()

    def respawn(self) -> None:
        children = [child for child in (*self.pool, self.monitor, self.pusher) if child is not None]
        for child in children:
            if child.is_alive():
                child.kill()
        for child in children:
            child.join(timeout=10)
        self.task_queue = Queue(maxsize=Conf.QUEUE_LIMIT) if Conf.QUEUE_LIMIT else Queue()
        self.result_queue = Queue()
        self.spawn_cluster()
        self.reincarnations += 1


def install() -> None:
    """Make ``manage.py qcluster`` start the hardened sentinel (``Cluster.start`` looks the
    class up in its module when it starts one)."""
    q_cluster.Sentinel = HardenedSentinel
