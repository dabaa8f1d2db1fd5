"""The event's answer kept up to date: the engine run on the stored results and stored with the
results fingerprint it was computed from, the rounds' and event's statuses brought up to date with it,
and the refresh after every write that can change it (on commit, never turning a committed write into
an error).

It must not decide anything the engine decides, nor take a role's decision: it is called by the other
services and by the selectors that find a stored answer stale.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from procrastinate import RetryStrategy

from core import jobs
from tournaments.models import Event, EventAnswer, Round
from tournaments.stored_event import EventState, compute_answer, decided_rounds, load_state, results_fingerprint

from . import brackets

# ---------------------------------------------------------------------------------------------------
# Results kept up to date: after every change (on commit), or by the first reader that finds it stale

def bump(event: Event) -> None:
    """A write that can change the answer: move the fingerprint now, recompute the answer once committed."""
    Event.objects.filter(pk=event.pk).update(revision=F("revision") + 1)
    refresh_after_commit(event.pk)


def refresh_after_commit(event_id: int) -> None:
    """Recompute the event's live answer once this transaction commits (a job: ``core.jobs``), so that
    the pages and the API read it instead of running the engine. At most one such job waits per event,
    and they run one at a time. It never turns a committed write into an error: a failure is retried
    (queued) or logged (inline), and readers meanwhile serve the last answer."""
    lock = f"event-answer:{event_id}"
    jobs.defer_on_commit(refresh_event_answer, queueing_lock=lock, lock=lock, event_id=event_id)


@jobs.app.task(name="tournaments.refresh_event_answer", retry=RetryStrategy(max_attempts=5, wait=2))
def refresh_event_answer(event_id: int) -> None:
    """The job: idempotent (a second run finds the answer up to date and does nothing)."""
    refresh_answer_if_stale(event_id)


LIVE = "live"


def answer_view(as_of_round: int | None) -> str:
    return LIVE if as_of_round is None else f"round-{as_of_round}"


def refresh_answer(event: Event, *, as_of_round: int | None = None, key: str | None = None) -> EventAnswer:
    """Run the engine on the stored results and keep the answer with the fingerprint it was computed
    from (read before the results, so a stored answer is never older than its key). The live answer
    also brings rounds' and the event's statuses up to date."""
    key = key if key is not None else results_fingerprint(event)
    state = load_state(event)
    answer, warnings = compute_answer(state, as_of_round=as_of_round)
    stored = store_answer(event, answer_view(as_of_round), key, answer, warnings)
    if as_of_round is None:
        sync_statuses(state, answer)
    return stored


def refresh_answer_if_stale(event_id: int) -> None:
    """The on-commit refresh: nothing to do when another request already stored this state's answer.
    In a running bracket, the matches a new result made ready are opened too."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    key = results_fingerprint(event)
    if EventAnswer.objects.filter(event=event, view=LIVE, key=key).exists():
        return
    refresh_answer(event, key=key)
    if event.is_elimination and event.status == Event.Status.RUNNING:
        brackets.open_ready_bracket_matches(event_id=event.pk)



def standings_text(answer: dict[str, Any]) -> str:
    """The standings as the API sends them (compact, UTF-8, like DRF's JSON renderer)."""
    return json.dumps(answer["standings"], ensure_ascii=False, separators=(",", ":"))


def store_answer(event: Event, view: str, key: str, answer: dict[str, Any], warnings: list[dict]) -> EventAnswer:
    """Keep an answer with its fingerprint. Concurrent readers may both write: each write stores a
    consistent (key, answer) pair, and a pair older than the data only costs the next reader a rerun."""
    text = standings_text(answer)
    values = {"key": key, "answer": answer, "warnings": warnings, "standings_json": text,
              "standings_gzip": gzip.compress(text.encode(), 6, mtime=0)}
    updated = EventAnswer.objects.filter(event=event, view=view).update(**values, computed_at=timezone.now())
    if not updated:
        try:
            with transaction.atomic():
                EventAnswer.objects.create(event=event, view=view, **values)
        except IntegrityError:
            EventAnswer.objects.filter(event=event, view=view).update(**values, computed_at=timezone.now())
    return EventAnswer(event=event, view=view, **values)


def sync_statuses(state: EventState, answer: dict[str, Any]) -> dict[str, int]:
    """Close every published round whose matches are all decided (reopen one a correction undid), and
    complete the event when the engine says so. Each change is one conditional UPDATE, so two readers
    arriving at once close a round once. Returns how many rows this call changed."""
    changed = {"closed": 0, "reopened": 0, "completed": 0}
    now = timezone.now()
    decided = decided_rounds(state)
    for rnd in state.rounds:
        if rnd.status == Round.Status.PUBLISHED and decided.get(rnd.number):
            changed["closed"] += Round.objects.filter(pk=rnd.pk, status=Round.Status.PUBLISHED).update(
                status=Round.Status.CLOSED, closed_at=now)
        elif rnd.status == Round.Status.CLOSED and not decided.get(rnd.number):
            changed["reopened"] += Round.objects.filter(pk=rnd.pk, status=Round.Status.CLOSED).update(
                status=Round.Status.PUBLISHED)
    events = Event.objects.filter(pk=state.event.pk)
    if answer.get("complete"):
        changed["completed"] = events.filter(status=Event.Status.RUNNING).update(status=Event.Status.COMPLETE)
    else:
        events.filter(status=Event.Status.COMPLETE).update(status=Event.Status.RUNNING)
    return changed


