"""Background jobs: where and when they run. Any app defers its jobs through ``defer_on_commit``.

Jobs are procrastinate tasks (each app's ``tasks.py``). Where they run depends on the database:

- PostgreSQL (``DATABASE_URL``): the job is queued once the transaction that asked for it commits, and a
  worker (``manage.py procrastinate worker``, the ``worker:`` line of the Procfile) runs it: LISTEN/NOTIFY
  wakes it at once, failures are retried, a job whose worker died is run again (``retry_stalled_jobs``).
  A ``queueing_lock`` keeps at most one such job waiting, and a ``lock`` runs such jobs one at a time.
- SQLite (the default of ``make run``, ``runserver`` and the tests): the job runs in the web process right
  after the commit, so one process is a whole working system.

``settings.JOBS`` says which ("queue" or "inline"); the tests use "inline" on both databases unless a
test says otherwise. A job must be idempotent (safe to run twice) and may not assume the request that
deferred it is still running. A job that fails inline is logged, never turned into the request's error.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import transaction
from procrastinate import exceptions
from procrastinate.contrib.django import app

from core import background

__all__ = ["app", "catch_up_task", "defer_on_commit", "inline", "off_request", "queued", "run_or_queue"]

log = logging.getLogger(__name__)


_inline = ContextVar("jobs_inline", default=False)


def queued() -> bool:
    """Jobs go to the queue (a worker runs them), rather than running in this process after the commit."""
    return settings.JOBS == "queue" and not _inline.get()


@contextlib.contextmanager
def inline():
    """Within this block jobs run in this process after the commit (and readers work answers out), as on
    SQLite: for a command that writes and then reads what the jobs make, in one go (the demo)."""
    token = _inline.set(True)
    try:
        yield
    finally:
        _inline.reset(token)


def defer_on_commit(task, *, queueing_lock: str | None = None, lock: str | None = None, **kwargs: Any) -> None:
    """Run ``task(**kwargs)`` once the current transaction commits: queued, or here (see the module)."""

    # A named function, not a functools.partial: Django logs a robust callback's failure by its
    # __qualname__, which a partial lacks (its logging would itself fail, and the request with it).
    def run_job_after_commit() -> None:
        run_or_queue(task, queueing_lock=queueing_lock, lock=lock, **kwargs)

    transaction.on_commit(run_job_after_commit, robust=True)


def off_request(task, *, delay: float = 0, **kwargs: Any) -> None:
    """Run ``task(**kwargs)`` ``delay`` seconds after the current transaction commits (at once outside one), never
    in the request: a queued job, or with jobs inline the process's background thread (``core.background``). For
    work that waits on the world outside (a webhook's receiver, a mail server), which must not hold up a request
    even where jobs run inline; a catch-up task keeps its own lock and delay."""
    if not queued():
        background.defer_on_commit(lambda: task(**kwargs), delay)
        return

    def queue_job_after_commit() -> None:
        if hasattr(task, "catch_up"):
            run_or_queue(task, **kwargs)
        else:
            task.configure(**({"schedule_in": {"seconds": int(delay)}} if delay else {})).defer(**kwargs)

    transaction.on_commit(queue_job_after_commit, robust=True)


def run_or_queue(task, *, queueing_lock: str | None = None, lock: str | None = None, **kwargs: Any) -> None:
    """Queue the job (a waiting one under the same ``queueing_lock`` is enough), or run it now."""
    if not queued():
        task(**kwargs)
        return
    if hasattr(task, "catch_up"):  # its own lock, and its delay
        named, delay = task.catch_up
        _queue(task, named(**kwargs), {"seconds": delay} if delay else None, **kwargs)
        return
    # One waiting already is enough: it reads the latest state when it runs.
    with contextlib.suppress(exceptions.AlreadyEnqueued):
        task.configure(queueing_lock=queueing_lock, lock=lock).defer(**kwargs)


def catch_up_task(*, name: str, lock: Callable[..., str], attempts: int = 5, wait: int = 2, delay: int = 0):
    """A job that brings something up to date with the latest state (an event's answer, every rating), deferred
    with ``queueing_lock`` and ``lock`` both ``lock(**kwargs)``: at most one waits and they run one at a time.

    A failure is tried again by a fresh job ``wait`` seconds later, up to ``attempts`` runs in all, rather than by
    procrastinate's own retry: that puts the failed job back to "todo", which its queueing lock forbids while
    another such job waits, and the worker stopped on the unique violation (procrastinate issues 1432, 1446 and
    1543; seen on a night's database restart). When one already waits, nothing is queued: it does the same work.

    ``delay``: a job queued runs that many seconds later, so that the moves of those seconds are caught up
    with once (``run_or_queue`` and ``defer_on_commit`` honour it; inline, it runs at once)."""

    def decorate(func: Callable[..., None]):
        @app.task(name=name)
        def job(attempt: int = 1, **kwargs: Any) -> None:
            try:
                func(**kwargs)
            except Exception:
                if attempt >= attempts or not queued():  # inline: the caller logs it (``defer_on_commit``)
                    raise
                log.warning("%s failed (run %s of %s): tried again in %s s", name, attempt, attempts, wait,
                            exc_info=True)
                _queue(job, lock(**kwargs), {"seconds": wait}, attempt=attempt + 1, **kwargs)

        job.catch_up = (lock, delay)
        return job

    return decorate


def _queue(task, lock: str, schedule_in: dict | None, **kwargs: Any) -> None:
    configured = task.configure(queueing_lock=lock, lock=lock, **({"schedule_in": schedule_in} if schedule_in else {}))
    with contextlib.suppress(exceptions.AlreadyEnqueued):
        configured.defer(**kwargs)
