import pytest
from django.db import transaction
from django_q.brokers import get_broker

from core.queue import enqueue_on_commit


def _queued() -> int:
    return get_broker().queue_size()


@pytest.mark.django_db(transaction=True)
def test_task_is_queued_only_after_commit():
    start = _queued()
    with transaction.atomic():
        enqueue_on_commit("core.tasks.heartbeat")
        assert _queued() == start
    assert _queued() == start + 1
    get_broker().purge_queue()


@pytest.mark.django_db(transaction=True)
def test_rolled_back_transaction_queues_nothing():
    start = _queued()
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue_on_commit("core.tasks.heartbeat")
        raise RuntimeError
    assert _queued() == start


def test_model_instances_are_refused(agent_with_key):
    with pytest.raises(TypeError, match="pass ids"):
        enqueue_on_commit("core.tasks.heartbeat", agent_with_key.agent)
