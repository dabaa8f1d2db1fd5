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
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import transaction
from procrastinate import exceptions
from procrastinate.contrib.django import app

__all__ = ["app", "defer_on_commit", "inline", "queued", "run_or_queue"]


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


def run_or_queue(task, *, queueing_lock: str | None = None, lock: str | None = None, **kwargs: Any) -> None:
    """Queue the job (a waiting one under the same ``queueing_lock`` is enough), or run it now."""
    if not queued():
        task(**kwargs)
        return
    # One waiting already is enough: it reads the latest state when it runs.
    with contextlib.suppress(exceptions.AlreadyEnqueued):
        task.configure(queueing_lock=queueing_lock, lock=lock).defer(**kwargs)
