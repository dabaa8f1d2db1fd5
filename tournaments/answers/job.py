"""The stored answer kept up to date after every write that can change it: the write moves the event's
fingerprint (``bump``) and, once it commits, a job recomputes the answer (at most one waits per event, and
they run one at a time). It never turns a committed write into an error: a failure is retried (queued) or
logged (inline), and readers meanwhile serve the last answer. Once a refresh stored a new answer it says so
(``signals.answer_refreshed``): a running bracket then opens the matches a new result made ready.
"""

from __future__ import annotations

from django.db.models import F

from core import jobs
from tournaments.models import Event, EventAnswer
from tournaments.signals import answer_refreshed
from tournaments.stored_event import results_fingerprint

from .store import LIVE, refresh_answer


def bump(event: Event) -> None:
    """A write that can change the answer: move the fingerprint now, recompute the answer once committed."""
    Event.objects.filter(pk=event.pk).update(revision=F("revision") + 1)
    refresh_after_commit(event.pk)


def refresh_after_commit(event_id: int) -> None:
    """Recompute the event's live answer once this transaction commits (a job: ``core.jobs``), so that
    the pages and the API read it instead of running the engine."""
    jobs.defer_on_commit(refresh_event_answer, event_id=event_id)


def queue_refresh(event_id: int) -> None:
    """Queue the refresh now (a reader that waited too long for one lost with its worker): the queueing lock
    keeps this to one waiting job however many readers ask."""
    jobs.run_or_queue(refresh_event_answer, event_id=event_id)


@jobs.catch_up_task(name="tournaments.refresh_event_answer", lock=lambda event_id: f"event-answer:{event_id}")
def refresh_event_answer(event_id: int) -> None:
    """The job: idempotent (a second run finds the answer up to date and does nothing)."""
    refresh_answer_if_stale(event_id)


def refresh_answer_if_stale(event_id: int) -> None:
    """The on-commit refresh: nothing to do when another request already stored this state's answer."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    key = results_fingerprint(event)
    if EventAnswer.objects.filter(event=event, view=LIVE, key=key).exists():
        return
    refresh_answer(event, key=key)
    answer_refreshed.send(sender=Event, event=event)
