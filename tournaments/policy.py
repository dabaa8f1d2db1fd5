"""Who may do what with an event: the one place tournament roles are decided (services and selectors ask).

An organiser (a staff user, as ``scoring.policy`` decides) may do everything and creates events. An
event's directors write to it: entries, seeding, pairings, swaps, forfeits, adjusted results, drops.
Its referees (and its directors) are referees of every game the event creates, so they record and
confirm hands through ``scoring`` as at any game. A public event is read by anyone; a private one only
by organisers, its directors and its referees. This module decides; it does not write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

from scoring.policy import Actor, NotAllowed

if TYPE_CHECKING:
    from .models import Event

__all__ = ["Actor", "NotAllowed", "can_direct", "can_read", "readable_events_filter", "require_director",
           "require_may_create_event", "require_may_read"]


def _user_id(actor: Actor) -> int | None:
    return actor.user.pk if actor.user is not None and getattr(actor.user, "is_authenticated", True) else None


def can_direct(actor: Actor, event: Event) -> bool:
    """An organiser, or one of the event's directors."""
    if actor.is_organiser:
        return True
    uid = _user_id(actor)
    return uid is not None and event.directors.filter(pk=uid).exists()


def can_read(actor: Actor, event: Event) -> bool:
    if event.is_public or actor.is_organiser:
        return True
    uid = _user_id(actor)
    if uid is None:
        return False
    return event.directors.filter(pk=uid).exists() or event.referees.filter(pk=uid).exists()


def readable_events_filter(actor: Actor) -> Q | None:
    """The ``Event`` filter for what this actor may read (None: everything)."""
    if actor.is_organiser:
        return None
    visible = Q(is_public=True)
    uid = _user_id(actor)
    if uid is not None:
        visible |= Q(directors=uid) | Q(referees=uid)
    return visible


def require_may_create_event(actor: Actor) -> None:
    if not actor.is_organiser:
        raise NotAllowed("only an organiser may create events")


def require_director(actor: Actor, event: Event, what: str) -> None:
    if not can_direct(actor, event):
        raise NotAllowed(f"only an organiser or a director of {event.name} may {what}")


def require_may_read(actor: Actor, event: Event) -> None:
    if not can_read(actor, event):
        raise NotAllowed("this event is private: only its directors, referees and organisers see it")
