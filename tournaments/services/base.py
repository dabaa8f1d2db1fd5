"""What every tournament write shares: the event row locked (its director checked, a cancelled event
refused), errors naming their field, a reason's limits, and the limits of what is stored.

It must not write anything itself, nor know any one write's rules.
"""

from __future__ import annotations

from core.refusals import Refusal, service_edge
from scoring.engine import SheetError
from tournaments import policy
from tournaments.engine import EventError
from tournaments.engine.errors import Problem
from tournaments.engine.records import MAX_ENTRIES
from tournaments.models import Event
from tournaments.policy import Actor

MAX_REASON = 500
MAX_TEXT_LINES = 4096
MAX_STORED = 2**31 - 1  # seeds, ratings, margins: the database's integer columns
MAX_DROP_ROUND = MAX_ENTRIES
MAX_SEED = 10**9  # the event document's limit on a seed


# A service's edge: the event engine's refusal (and the score-sheet engine's, for what scoring's engine reads)
# leaves a service as a ``Refusal`` with the same problems.
refusing = service_edge(EventError, SheetError)


def error(field: str | None, message: str) -> Refusal:
    return Refusal([Problem(None, field, message)])


def lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def lock_event_to_change(actor: Actor, event: Event, what: str) -> Event:
    """The event row locked for a director's write (``what``: "pair rounds"), refused to whoever may not
    direct it and, whoever asks, once the event was cancelled: nothing more is recorded in it."""
    event = lock_event(event)
    policy.require_director(actor, event, what)
    refuse_if_cancelled(event)
    return event


def refuse_if_cancelled(event: Event) -> None:
    if event.status == Event.Status.CANCELLED:
        raise error("event", f"{event.name} was cancelled: nothing more can be recorded or changed in it")


def reason_text(reason: str, *, required: bool = True) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise error("reason", "say why (a reason is kept with the result)")
    if len(reason) > MAX_REASON:
        raise error("reason", f"keep the reason under {MAX_REASON} characters")
    return reason

