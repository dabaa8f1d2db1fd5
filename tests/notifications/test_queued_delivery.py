"""On PostgreSQL with the queue (``JOBS=queue``), a delivery is a job that a real worker runs: a ping is queued
when its transaction commits (nothing sent before), a 500 is retried as another job on the schedule, and the
receiver gets the same signed message twice under one webhook-id. Like tests/core/test_jobs.py, it starts a real
worker and runs alone in CI (a worker takes any job on the queue)."""

import json

import pytest
from django.db import connection
from standardwebhooks.webhooks import Webhook

from notifications import services
from notifications.models import Attempt

from ..core.test_jobs import queued_jobs, run_worker
from ..factories import as_actor, organiser
from .receivers import HttpReceiver

pytestmark = [pytest.mark.skipif(connection.vendor != "postgresql", reason="the queue is PostgreSQL's"),
              pytest.mark.django_db(transaction=True)]


def test_a_real_worker_delivers_retries_and_keeps_one_webhook_id(settings, monkeypatch):
    settings.JOBS = "queue"
    settings.WEBHOOK_ALLOW_PRIVATE = True
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("WEBHOOK_RETRY_SCHEDULE", "0,0")
    boss = as_actor(organiser())
    with HttpReceiver(answers=[(500, {}, 0), (204, {}, 0)]) as receiver:
        hook = services.create_subscription(actor=boss, url=receiver.url, types=["ping"])
        services.send_ping(actor=boss, subscription=hook)
        assert [status for status, _, _ in queued_jobs("notifications.deliver_webhook")] == ["todo"]
        assert receiver.received == []
        for _ in range(3):  # a one-shot worker may stop before the retry it queued itself is due
            run_worker()
            if len(receiver.received) == 2:
                break
    first, second = receiver.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    Webhook(hook.secret).verify(second.body, second.headers, json_parse=False)
    assert json.loads(second.body)["type"] == "ping"
    assert list(Attempt.objects.order_by("number").values_list("number", "code")) == [(1, 500), (2, 204)]
