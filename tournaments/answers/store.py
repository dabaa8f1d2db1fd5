"""The event's answer stored: the engine run on the stored results and kept with the results fingerprint
it was computed from, and the rounds' and event's statuses brought up to date with it.

It must not decide anything the engine decides, nor take a role's decision: the job (``answers.job``) and
the read that finds a stored answer stale (``answers.read``) call it.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from tournaments.models import Event, EventAnswer, ResultChange, Round
from tournaments.stored_event import (
    EventState,
    compute_answer,
    decided_rounds,
    fingerprint_parts,
    load_state,
    results_fingerprint,
)

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
        sync_statuses(state, answer, key=key)
    return stored


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


def sync_statuses(state: EventState, answer: dict[str, Any], *, key: str) -> dict[str, int]:
    """Close every published round whose matches are all decided (reopen one a correction undid), and
    complete the event when the engine says so. Each change is one conditional UPDATE, so two readers
    arriving at once close a round once, and each holds only while the results are still those of ``key``
    (the fingerprint the answer was computed from): a refresh that read the results before a newer one
    committed, and finishes after it, changes nothing (a hall's tables decided at the same moment, each
    refreshing in its own thread, once left a finished event "running"). Returns how many rows changed."""
    changed = {"closed": 0, "reopened": 0, "completed": 0}
    now = timezone.now()
    current = _still_at(state.event.pk, key)
    decided = decided_rounds(state)
    for rnd in state.rounds:
        if rnd.status == Round.Status.PUBLISHED and decided.get(rnd.number):
            changed["closed"] += Round.objects.filter(pk=rnd.pk, status=Round.Status.PUBLISHED,
                                                      event__in=current).update(status=Round.Status.CLOSED,
                                                                                closed_at=now)
        elif rnd.status == Round.Status.CLOSED and not decided.get(rnd.number):
            changed["reopened"] += Round.objects.filter(pk=rnd.pk, status=Round.Status.CLOSED,
                                                        event__in=current).update(status=Round.Status.PUBLISHED)
    if answer.get("complete"):
        changed["completed"] = current.filter(status=Event.Status.RUNNING).update(status=Event.Status.COMPLETE)
    else:
        current.filter(status=Event.Status.COMPLETE).update(status=Event.Status.RUNNING)
    return changed


def _still_at(event_id: int, key: str):
    """The event's row while its results fingerprint is still ``key`` (its revision, and no newer result
    change): an empty queryset once anything newer has committed."""
    revision, last = fingerprint_parts(key)
    newer = ResultChange.objects.filter(event_id=OuterRef("pk"), pk__gt=last)
    return Event.objects.filter(pk=event_id, revision=revision).exclude(Exists(newer))
