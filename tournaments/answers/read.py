"""The stored answer read: the one the results' fingerprint now names (one query), else computed once and
stored (``answers.store``). With jobs on the queue a worker computes it after every write, and readers serve
the last stored answer meanwhile, saying it is updating (``served_version``); a reader that has waited too long
for it queues the refresh again. Those are the only writes a read of the answer can cause: filling its store.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db.models import F

from core import jobs
from tournaments.models import Event, EventAnswer
from tournaments.stored_event import fingerprint, latest_result_change, results_fingerprint

from .job import queue_refresh
from .memos import versioned
from .store import LIVE, answer_view, refresh_answer


def answer_key(event: Event) -> str:
    """The fingerprint of the event's results (what a page's cached parts are keyed by): read with the
    event by ``readable_event``, else one query."""
    if hasattr(event, "last_change"):
        return fingerprint(event.revision, event.last_change)
    return results_fingerprint(event)


def _stored(event: Event, as_of_round: int | None, *fields: str) -> EventAnswer | None:
    """The stored answer (only ``fields`` of it) if its key is the results' fingerprint now: one query
    (the fingerprint was read with the event, or in the same query)."""
    found = EventAnswer.objects.filter(event_id=event.pk, view=answer_view(as_of_round))
    if fields:
        found = found.only("key", *fields)
    if hasattr(event, "last_change"):
        stored = found.first()
        return stored if stored is not None and stored.key == answer_key(event) else None
    stored = found.annotate(revision=F("event__revision"), last_change=latest_result_change("event_id")).first()
    if stored is not None and stored.key == fingerprint(stored.revision, stored.last_change):
        return stored
    return None


def stored_answer(event: Event, as_of_round: int | None) -> EventAnswer:
    """The stored answer when its key is the results' fingerprint now (one query), else computed once.

    With jobs on the queue, the live answer is never computed by a reader once one is stored: the last
    stored answer is served, marked ``updating`` when newer results are being computed by a worker."""
    if as_of_round is None and jobs.queued():
        latest = EventAnswer.objects.filter(event_id=event.pk, view=LIVE).first()
        if latest is not None:
            latest.updating = latest.key != answer_key(event)
            if latest.updating:
                _nudge_refresh(event.pk, answer_key(event))
            return latest
    stored = _stored(event, as_of_round) or refresh_answer(event, as_of_round=as_of_round)
    stored.updating = False
    return stored


@dataclass(frozen=True)
class Version:
    """The results version of what a page or the API serves now, and whether a newer one is coming."""

    key: str
    updating: bool = False


def served_version(event: Event) -> Version:
    """What the live answer's readers are served now: the results' fingerprint (read with the event), or
    with jobs on the queue the last stored answer's while a worker computes the newer one (one small
    query, none when this worker already saw that fingerprint stored)."""
    now = answer_key(event)
    if not jobs.queued() or _seen_stored.get(event.pk) == now:
        return Version(now)
    stored = EventAnswer.objects.filter(event_id=event.pk, view=LIVE).values_list("key", flat=True).first()
    if stored is None or stored == now:
        _seen_stored[event.pk] = now
        return Version(now)
    _nudge_refresh(event.pk, now)
    return Version(stored, updating=True)


# Per worker: the newest fingerprint seen stored for each event, and since when a newer one was awaited.
_seen_stored: dict[int, str] = {}
_awaited_since: dict[tuple[int, str], float] = {}
NUDGE_AFTER_SECONDS = 15.0


def _nudge_refresh(event_id: int, key: str) -> None:
    """A newer answer has been awaited for a while: queue its refresh again (a job lost with its worker
    before it was retried, say). The queueing lock keeps this to one waiting job however many readers ask."""
    if len(_awaited_since) > 10_000:
        _awaited_since.clear()
    since = _awaited_since.setdefault((event_id, key), time.monotonic())
    if time.monotonic() - since > NUDGE_AFTER_SECONDS:
        _awaited_since[(event_id, key)] = time.monotonic()
        queue_refresh(event_id)


def standings_json(event: Event, as_of_round: int | None = None, *, gzipped: bool = False) -> str | bytes:
    """The standings as JSON text (or those bytes gzipped), as stored with the answer: from this worker's
    memory when it read them for these results before, else one query (or a recompute, once)."""
    return standings_payload(event, as_of_round, gzipped=gzipped)[0]


def standings_payload(event: Event, as_of_round: int | None = None, *,
                      gzipped: bool = False) -> tuple[str | bytes, Version]:
    """``standings_json`` and the version it shows (an ETag's value)."""
    view = answer_view(as_of_round)
    version = served_version(event) if as_of_round is None else Version(answer_key(event))
    payload = versioned(f"standings-json:{event.pk}:{view}:{version.key}:{int(gzipped)}",
                        lambda: _standings_payload(event, as_of_round, gzipped, version), shared=False)
    return payload, version


def _standings_payload(event: Event, as_of_round: int | None, gzipped: bool, version: Version) -> str | bytes:
    field = "standings_gzip" if gzipped else "standings_json"
    stored = _stored(event, as_of_round, field)
    if stored is None and version.updating:  # the last one stored (or, if a worker just stored it, newer)
        stored = EventAnswer.objects.filter(event_id=event.pk, view=LIVE).only("key", field).first()
    if stored is None:
        stored = refresh_answer(event, as_of_round=as_of_round)
    return bytes(stored.standings_gzip) if gzipped else stored.standings_json
