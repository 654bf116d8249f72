"""The task-queue cluster's sentinel, hardened against a process killed outright.

django-q2's sentinel replaces a dead worker, pusher or monitor and carries on with the
same in-memory queues. But a process killed outright (SIGKILL, the OOM killer) can die
holding one of the process-shared locks those queues and the workers' timers use, and
nothing ever releases it: an idle worker holds the task queue's read lock for as long as
it waits for work, the monitor holds the result queue's, a worker holds its own timer's
while it hands in a result. Every process that needs that lock then blocks forever, the
sentinel included, and the cluster looks alive while it does nothing (``bench.faults``
found this: one idle worker killed, and no task ran again until the cluster restarted).

So this sentinel never waits on a lock a dead process may hold, and after a sudden death
it checks the locks that process could have held: if one is left taken, it restarts all
its processes on fresh queues. A worker killed in the middle of a task holds none of them
and is simply replaced, as django-q2 would. Tasks lost with a process or with the old
queues are lost as in any crash; for evaluations the database still says what remains to
be done, and the reaper queues it again.
"""

from __future__ import annotations

from time import sleep

from django_q import cluster as q_cluster
from django_q.conf import Conf, logger
from django_q.queues import Queue
from django_q.scheduler import scheduler
from django_q.status import Stat

# Values of a worker's timer (django_q.worker): idle, its task timed out, it recycled itself.
IDLE, TIMED_OUT, RECYCLED = -1, 0, -2
# How long a lock that a dead process may have held is waited for before it counts as
# left taken. Live holders keep these locks for microseconds (writers, a worker's timer)
# or until work arrives (readers, which this sentinel never probes while one may wait).
LOCK_PROBE_SECONDS = 0.5


def _free(lock) -> bool:
    if lock is None:
        return True
    if lock.acquire(timeout=LOCK_PROBE_SECONDS):
        lock.release()
        return True
    return False


class HardenedSentinel(q_cluster.Sentinel):
    def guard(self) -> None:
        """django-q2's guard loop, except that a worker's timer lock is never waited on
        for long: a worker killed while holding it would otherwise stop the sentinel."""
        self.start_event.set()
        Stat(self).save()
        logger.info("Q Cluster %s running (hardened sentinel).", self.queue_name())
        counter = 0
        cycle = Conf.GUARD_CYCLE
        while not self.stop_event.is_set() or not counter:
            self._check_workers(cycle)
            if not self.monitor.is_alive():
                self.reincarnate(self.monitor)
            if not self.pusher.is_alive():
                self.reincarnate(self.pusher)
            counter += cycle
            if counter >= 30 and Conf.SCHEDULER:
                counter = 0
                scheduler(broker=self.broker)
            Stat(self).save()
            sleep(cycle)
        self.stop()

    def _check_workers(self, cycle: float) -> None:
        for process in list(self.pool):
            if process not in self.pool:
                return  # the cluster was restarted during this pass
            lock = process.timer.get_lock()
            if not lock.acquire(timeout=LOCK_PROBE_SECONDS):
                if not process.is_alive():
                    self.respawn(f"{process.name} died holding its timer")
                    return
                continue
            try:
                if not process.is_alive() or process.timer.value == TIMED_OUT:
                    self.reincarnate(process)
                elif process.timer.value > 0:
                    process.timer.value -= cycle
            finally:
                lock.release()

    def reincarnate(self, process) -> None:
        if process is not self.monitor and process is not self.pusher and process not in self.pool:
            return  # a process of a generation already replaced
        if process in self.pool and process.timer.value in (TIMED_OUT, RECYCLED):
            super().reincarnate(process)  # a death the sentinel caused or expected
            return
        held = self._locks_left_taken(process)
        if held:
            self.respawn(f"{process.name} died holding {held}")
        else:
            super().reincarnate(process)

    def _locks_left_taken(self, process) -> str:
        """Which queue lock the dead ``process`` may have left taken ("" if none)."""
        if process is self.monitor:  # the only reader of the result queue
            return "" if _free(self.result_queue._rlock) else "the result queue's read lock"
        if process is self.pusher:  # the only writer of the task queue
            return "" if _free(self.task_queue._wlock) else "the task queue's write lock"
        if not _free(self.result_queue._wlock):
            return "the result queue's write lock"
        if process.timer.value == IDLE:
            # It may have been the worker waiting on the task queue. If another live worker
            # is idle, that one may hold the read lock legitimately: no probe can tell them
            # apart, so the cluster restarts.
            others_idle = any(p.is_alive() and p.timer.get_obj().value == IDLE for p in self.pool if p is not process)
            if others_idle or not _free(self.task_queue._rlock):
                return "the task queue's read lock"
        return ""

    def respawn(self, why: str) -> None:
        logger.critical("%s: restarting every cluster process on fresh queues", why)
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
