"""Background jobs (``core.jobs``): inline right after the commit, or on procrastinate's queue run by a
real worker (PostgreSQL): queued on commit only, at most one waiting per event, a job whose worker died
run again, nothing lost."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, transaction

from core import jobs
from tournaments import selectors, services
from tournaments.models import EventAnswer

from ..tournaments.stored import Officials, new_event, open_matches, play_match

ROOT = Path(__file__).resolve().parents[2]
on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="the queue is PostgreSQL's")


def fresh(event) -> bool:
    stored = EventAnswer.objects.filter(event=event, view="live").first()
    return stored is not None and stored.key == selectors.answer_key(event)


@pytest.mark.django_db
def test_inline_a_job_runs_in_this_process_once_the_transaction_commits(django_capture_on_commit_callbacks):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    with django_capture_on_commit_callbacks() as callbacks:
        services.pair_next_round(actor=people.dir, event=event)
        assert not EventAnswer.objects.filter(event=event).exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    assert fresh(event)


@pytest.mark.django_db
def test_a_job_asked_for_in_a_transaction_that_rolls_back_never_runs(django_capture_on_commit_callbacks):
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    ran = []

    def failed_write():
        with transaction.atomic():
            jobs.defer_on_commit(lambda **kw: ran.append(kw), event_id=event.pk)
            raise RuntimeError("the write failed")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        failed_write()
    assert ran == []


def queued_jobs(task_name="tournaments.refresh_event_answer"):
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, queueing_lock, lock FROM procrastinate_jobs WHERE task_name = %s "
                       "ORDER BY id", [task_name])
        return cursor.fetchall()


def run_worker():
    """A real worker (``manage.py procrastinate worker``) on the test database, until the queue is empty."""
    settings = connection.settings_dict
    env = {**os.environ, "JOBS": "queue",
           "DATABASE_URL": f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"}
    done = subprocess.run([sys.executable, "manage.py", "procrastinate", "worker", "--one-shot"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_on_the_queue_a_real_worker_refreshes_the_answer_and_one_job_waits_per_event(settings):
    settings.JOBS = "queue"
    people = Officials()
    event = new_event(people, names=["Ann", "Bob", "Cleo", "Dev"], rounds=2)
    services.pair_next_round(actor=people.dir, event=event)
    run_worker()
    assert fresh(event)
    first, second = open_matches(event, 1)
    play_match(people, first, "Ann")
    play_match(people, second, "Bob")  # a second result while the first's job waits: still one job
    assert queued_jobs() == [("todo", f"event-answer:{event.pk}", f"event-answer:{event.pk}")]
    assert not fresh(event)
    assert selectors.served_version(selectors.readable_event(people.boss, event.pk)).updating
    run_worker()
    assert fresh(event)
    assert {r["name"] for r in selectors.event_answer(event)["standings"] if r["wins"]} == {"Ann", "Bob"}
    assert queued_jobs() == []  # done, and deleted once it succeeded
    assert event.event_rounds.get(number=1).status == "closed"  # the statuses follow the answer


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_died_is_run_again_and_nothing_is_lost(settings):
    settings.JOBS = "queue"
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.pair_next_round(actor=people.dir, event=event)
    play_match(people, open_matches(event, 1)[0], "Ann")
    with connection.cursor() as cursor:  # a worker took the job, then was killed: no heartbeat since
        cursor.execute("INSERT INTO procrastinate_workers (last_heartbeat) VALUES (NOW() - INTERVAL '10 minutes') "
                       "RETURNING id")
        dead = cursor.fetchone()[0]
        cursor.execute("UPDATE procrastinate_jobs SET status = 'doing', worker_id = %s, attempts = 1 "
                       "WHERE task_name = 'tournaments.refresh_event_answer'", [dead])
    run_worker()  # a live worker does not take a job another worker is doing...
    assert queued_jobs() == [("doing", f"event-answer:{event.pk}", f"event-answer:{event.pk}")]
    assert not fresh(event)
    from procrastinate.contrib.django import app

    from scoring.tasks import retry_stalled_jobs

    async_to_sync(retry_stalled_jobs.func)(SimpleNamespace(app=app), timestamp=0)  # the periodic check
    assert queued_jobs()[0][0] == "todo"
    run_worker()  # ...until the check puts it back on the queue: then it runs
    assert fresh(event)
    assert selectors.event_answer(event)["complete"]


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_run_jobs_starts_the_worker_again_when_it_stops_and_the_queue_is_served(settings):
    settings.JOBS = "queue"
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.pair_next_round(actor=people.dir, event=event)
    db = connection.settings_dict
    env = {**os.environ, "JOBS": "queue",
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    supervisor = subprocess.Popen([sys.executable, "manage.py", "run_jobs"], cwd=ROOT, env=env,
                                  stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: fresh(event))  # the first worker ran the pairing's refresh
        workers = _children(supervisor.pid)
        assert len(workers) == 1
        os.kill(workers[0], signal.SIGKILL)  # as a lost database connection stops it (or the OOM killer)
        play_match(people, open_matches(event, 1)[0], "Ann")
        wait_for(lambda: fresh(event))  # a new worker, started by run_jobs, ran the result's refresh
        assert _children(supervisor.pid) not in ([], workers)
    finally:
        supervisor.send_signal(signal.SIGTERM)
        _, errors = supervisor.communicate(timeout=60)
    assert supervisor.returncode == 0
    assert "The job worker stopped (exit -9); starting it again in 1 s." in errors


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


def wait_for(condition, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within a minute"
        time.sleep(0.2)


def no_jobs() -> None:
    """The queue's tables are procrastinate's own: a test's flush leaves them as they were."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM procrastinate_jobs")


def queued_rows(task_name="tournaments.refresh_event_answer"):
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, args::text, scheduled_at > NOW() FROM procrastinate_jobs WHERE task_name = %s "
                       "ORDER BY id", [task_name])
        return [(status, json.loads(args), later) for status, args, later in cursor.fetchall()]


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_catch_up_job_that_fails_is_queued_again_later_unless_one_waits_and_stops_after_its_attempts(
        settings, monkeypatch):
    from tournaments.answers import job

    settings.JOBS = "queue"
    no_jobs()
    monkeypatch.setattr(job, "refresh_answer_if_stale", lambda event_id: 1 / 0)
    job.refresh_event_answer(event_id=7)  # run by a worker: it fails, and a fresh job will try again
    assert queued_rows() == [("todo", {"attempt": 2, "event_id": 7}, True)]
    job.refresh_event_answer(attempt=2, event_id=7)  # fails while one waits: that one does the same work
    assert queued_rows() == [("todo", {"attempt": 2, "event_id": 7}, True)]
    no_jobs()
    with pytest.raises(ZeroDivisionError):  # its last attempt: failed, for the worker to record
        job.refresh_event_answer(attempt=5, event_id=7)
    assert queued_rows() == []


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_stalled_job_whose_successor_already_waits_is_closed_and_the_check_goes_on(settings):
    from procrastinate.contrib.django import app

    from scoring.tasks import retry_stalled_jobs

    settings.JOBS = "queue"
    no_jobs()
    people = Officials()
    event = new_event(people, names=["Ann", "Bob"], rounds=1)
    services.pair_next_round(actor=people.dir, event=event)  # a refresh waits ("todo") under its queueing lock
    with connection.cursor() as cursor:  # and one like it was taken by a worker that died
        cursor.execute("INSERT INTO procrastinate_workers (last_heartbeat) VALUES (NOW() - INTERVAL '10 minutes') "
                       "RETURNING id")
        dead = cursor.fetchone()[0]
        cursor.execute("INSERT INTO procrastinate_jobs (queue_name, task_name, queueing_lock, lock, args, status, "
                       "worker_id, attempts) SELECT queue_name, task_name, queueing_lock, lock, args, 'doing', %s, 1 "
                       "FROM procrastinate_jobs WHERE task_name = 'tournaments.refresh_event_answer'", [dead])
        cursor.execute("INSERT INTO procrastinate_jobs (queue_name, task_name, args, status, worker_id, attempts) "
                       "VALUES ('default', 'notifications.deliver_webhook', '{\"message_id\": 1}', 'doing', %s, 1)",
                       [dead])
    async_to_sync(retry_stalled_jobs.func)(SimpleNamespace(app=app), timestamp=0)
    assert sorted(s for s, *_ in queued_rows()) == ["failed", "todo"]  # the waiting one will do its work
    assert [s for s, *_ in queued_rows("notifications.deliver_webhook")] == ["todo"]  # the next one still put back


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_on_the_queue_the_ratings_are_recomputed_half_a_minute_after_the_first_result_that_asks_once(settings):
    from ratings.services.recompute import recompute_ratings_job

    settings.JOBS = "queue"
    no_jobs()
    jobs.run_or_queue(recompute_ratings_job)
    jobs.run_or_queue(recompute_ratings_job)  # a second result meanwhile: the one waiting rates it too
    assert queued_rows("ratings.recompute") == [("todo", {}, True)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT queueing_lock, lock, scheduled_at - NOW() > INTERVAL '25 seconds' "
                       "FROM procrastinate_jobs")
        assert cursor.fetchall() == [("ratings-recompute", "ratings-recompute", True)]
