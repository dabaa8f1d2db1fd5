"""The scoring app's background jobs, on the queue's worker (``core.jobs``): housekeeping at a time.

- ``scoring.retry_stalled_jobs`` (every minute): a job whose worker died (killed, its machine lost) is
  put back on the queue, so nothing deferred is ever lost; jobs are idempotent, so running one again is safe.
- ``scoring.cleanup_expired`` (hourly): what ``manage.py cleanup_expired`` deletes (old idempotency
  answers, old wrong-PIN records, idle rate counters).

Periodic jobs need the queue (PostgreSQL); with jobs inline, cron runs ``manage.py cleanup_expired``.
"""

from __future__ import annotations

from django.core.management import call_command
from procrastinate import exceptions
from procrastinate.contrib.django import app
from procrastinate.jobs import Status

# A worker that has sent no heartbeat for this long is taken for dead (workers beat every 10 s).
STALLED_AFTER_SECONDS = 60


@app.periodic(cron="* * * * *")
@app.task(name="scoring.retry_stalled_jobs", queueing_lock="retry_stalled_jobs", pass_context=True)
async def retry_stalled_jobs(context, timestamp: int) -> None:
    manager = context.app.job_manager
    for job in await manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_AFTER_SECONDS):
        try:
            await manager.retry_job(job)
        except exceptions.UniqueViolation:
            # Another job under its queueing lock waits already and will do the same work (jobs with a queueing
            # lock bring something up to date): this one is closed as failed rather than put back, which the
            # lock forbids (procrastinate issue 1446: the check stopped on it, and every stalled job after it).
            await manager.finish_job(job, status=Status.FAILED, delete_job=False)


@app.periodic(cron="17 * * * *")
@app.task(name="scoring.cleanup_expired", queueing_lock="cleanup_expired")
def cleanup_expired(timestamp: int) -> None:
    call_command("cleanup_expired", verbosity=0)
