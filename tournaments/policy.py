"""Who may do what with an event: the one place tournament roles are decided (services and selectors ask).

An organiser (a staff user, as ``scoring.policy`` decides) may do everything and creates events, as may
the users an organiser allows to (who then direct what they create). An event's directors write to it:
entries, seeding, pairings, swaps, forfeits, adjusted results, drops.
A public event is read by anyone; a private one only by organisers, its directors and its referees.

Every game an event made is the event's: its directors and referees as they are now officiate it
(record, confirm as an official, correct and void hands through ``scoring``), whatever the game's
status (being played, finished, frozen by a director's result, reset), and whoever may read the event
reads it. ``EVENT_GAMES`` answers ``scoring``'s questions about those games (registered at start-up,
``TournamentsConfig.ready``); an official removed from the event loses every one of its games at once,
one added gains them; a cancelled event's games are closed for good (``Ruling.closed``). ``ENTRANT_PINS``
lets an event's directors set its entrants' PINs. A cancelled event is listed only to organisers and its
officials (``listed_events_filter``); it still opens by its address for whoever may read it. This module
decides; it does not write.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring.policy import Actor, NotAllowed, Ruling

from .models import Entry, Event, MatchGame

__all__ = ["ENTRANT_PINS", "EVENT_GAMES", "Actor", "EntrantPins", "EventGames", "NotAllowed", "can_direct",
           "can_read", "is_official", "listed_events_filter", "may_create_events", "readable_events_filter",
           "require_director", "require_may_create_event", "require_may_read"]


def _user_id(actor: Actor) -> int | None:
    return actor.user.pk if actor.user is not None and getattr(actor.user, "is_authenticated", True) else None


def can_direct(actor: Actor, event: Event) -> bool:
    """An organiser, or one of the event's directors."""
    if actor.is_organiser:
        return True
    uid = _user_id(actor)
    return uid is not None and event.directors.filter(pk=uid).exists()


def is_official(actor: Actor, event: Event) -> bool:
    """An organiser, or one of the event's directors or referees: who sees why an entry dropped."""
    if can_direct(actor, event):
        return True
    uid = _user_id(actor)
    return uid is not None and event.referees.filter(pk=uid).exists()


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


def listed_events_filter(actor: Actor) -> Q | None:
    """The ``Event`` filter for what lists show this actor, among what it may read (None: everything):
    a cancelled event is listed only to organisers and to its own directors and referees."""
    if actor.is_organiser:
        return None
    listed = ~Q(status=Event.Status.CANCELLED)
    uid = _user_id(actor)
    if uid is not None:
        listed |= _officials_filter(uid)
    return listed


CREATE_EVENTS = "tournaments.add_event"  # the permission an organiser grants (the admin's user page)


def may_create_events(actor: Actor) -> bool:
    """Organisers, and the users an organiser has allowed to (Django's ``add_event`` permission, given on
    the admin's user page): a club's regular director runs their own nights."""
    if actor.is_organiser:
        return True
    user = actor.user
    return user is not None and actor.link is None and bool(getattr(user, "is_active", False)) \
        and user.has_perm(CREATE_EVENTS)


def require_may_create_event(actor: Actor) -> None:
    if not may_create_events(actor):
        raise NotAllowed("only an organiser, or a user an organiser allows to, may create events")


def require_director(actor: Actor, event: Event, what: str) -> None:
    if not can_direct(actor, event):
        raise NotAllowed(f"only an organiser or a director of {event.name} may {what}")


def require_may_read(actor: Actor, event: Event) -> None:
    if not can_read(actor, event):
        raise NotAllowed("this event is private: only its directors, referees and organisers see it")


def _directors_filter(user_id: int) -> Q:
    return Q(Exists(Event.directors.through.objects.filter(event_id=OuterRef("pk"), user_id=user_id)))


def _officials_filter(user_id: int) -> Q:
    return _directors_filter(user_id) | Q(
        Exists(Event.referees.through.objects.filter(event_id=OuterRef("pk"), user_id=user_id)))


def _closed(name: str, status: str) -> str:
    """A cancelled event's games are closed for good: nothing is recorded, confirmed, corrected or voided
    in them, nor are they reopened (``scoring`` asks)."""
    return f"{name} was cancelled" if status == Event.Status.CANCELLED else ""


class EventGames:
    """``scoring``'s game authority for the games events made: who officiates one and who reads it is
    the event's to say, from its officials and ``is_public`` as they are now (one query a game)."""

    def ruling(self, game_id: int, user_id: int | None) -> Ruling | None:
        events = Event.objects.filter(matches__match_games__game_id=game_id)
        if user_id is None:
            found = events.values_list("is_public", "name", "status").first()
            if found is None:
                return None
            public, name, status = found
            return Ruling(officiates=False, reads=public, closed=_closed(name, status))
        row = events.annotate(officiates=_officials_filter(user_id), directs=_directors_filter(user_id)).values_list(
            "is_public", "officiates", "directs", "name", "status").first()
        if row is None:
            return None
        public, officiates, directs, name, status = row
        return Ruling(officiates=bool(officiates), reads=bool(public or officiates), closed=_closed(name, status),
                      directs=bool(directs))

    def governed_games(self) -> QuerySet:
        return MatchGame.objects.values("game_id")

    def readable_games(self, user_id: int | None) -> QuerySet:
        readable = Q(is_public=True)
        if user_id is not None:
            readable |= Q(directors=user_id) | Q(referees=user_id)
        return MatchGame.objects.filter(match__event__in=Event.objects.filter(readable).values("pk")).values("game_id")


EVENT_GAMES = EventGames()


class EntrantPins:
    """``scoring``'s PIN authority: an event's directors (as they are now) may set the PIN of a player
    entered in it, so a player added from a pasted list can accept hands that night (one query). The right
    ends with the director's removal and with the event's cancelling (a cancelled event refuses every write,
    this one included); a finished event keeps it, as its hands may still be corrected and accepted."""

    def may_set_pin(self, player_id: int, user_id: int) -> bool:
        return (Entry.objects.filter(player_id=player_id, event__directors=user_id)
                .exclude(event__status=Event.Status.CANCELLED).exists())


ENTRANT_PINS = EntrantPins()
