"""What players and directors ask of the pairing: a bye in a future Swiss round (the player by their own link,
or a director), and pairs of entries to avoid ("never", or "avoid") set by the event's directors.

A requested bye is for a round of the event not yet paired (and taken back only until then), for an entry still
in that has joined by then, at most ``Event.max_requested_byes`` per entry; the engine leaves the entry out of
that round's pairing and scores it ``match_points.requested_bye``. Pairs to avoid are for Swiss (any time:
they shape the rounds still to pair) and elimination (only before the bracket starts: its round 1 is laid out
with them); a round robin plays its schedule. ``avoid_same_club_rounds`` makes every two entries of one club a
pair to avoid through that round (``stored_event`` adds them to the engine's request).

It must not pair: the engine does, with what is stored here.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.refusals import Refusal
from tournaments import selectors
from tournaments.engine.errors import Problem
from tournaments.engine.records import MAX_SWISS_ROUNDS, default_swiss_rounds
from tournaments.models import AvoidPair, Entry, Event, Registration, RequestedBye
from tournaments.policy import Actor
from tournaments.services.base import refusing

from ..answers.job import bump
from .base import error, lock_event, lock_event_to_change, refuse_if_cancelled

PAIRING_FIELDS = ("max_requested_byes", "avoid_same_club_rounds")
MAX_REQUESTED_BYES = 20


def pairing_problems(values: dict[str, Any], *, format: str) -> list[Problem]:
    """The options' problems (those given), each naming its field."""
    problems = []
    most = values.get("max_requested_byes")
    if most is not None and (type(most) is not int or not 0 <= most <= MAX_REQUESTED_BYES):
        problems.append(Problem(None, "max_requested_byes", f"a whole number of rounds from 0 to "
                                                            f"{MAX_REQUESTED_BYES}; {most!r} given"))
    club = values.get("avoid_same_club_rounds")
    if club is not None and (type(club) is not int or not 0 <= club <= MAX_SWISS_ROUNDS):
        problems.append(Problem(None, "avoid_same_club_rounds", f"a round number from 0 (never) to "
                                                                f"{MAX_SWISS_ROUNDS}; {club!r} given"))
    elif club and format == Event.Format.ROUND_ROBIN:
        problems.append(Problem(None, "avoid_same_club_rounds", "a round robin plays its schedule: everyone meets "
                                                                "everyone; leave it at 0"))
    return problems


def _last_round(event: Event) -> int:
    return event.rounds or default_swiss_rounds(max(Entry.objects.filter(event=event).count(), 2))


def _ask(event: Event, entry: Entry, round_no: object, *, actor: Actor | None) -> RequestedBye:
    if event.format != Event.Format.SWISS:
        raise error("round", f"{event.name} is not a Swiss event: only a Swiss round can be sat out on request")
    if event.status == Event.Status.COMPLETE:
        raise error("round", f"{event.name} is complete")
    if type(round_no) is not int:
        raise error("round", f"the round to sit out, as a whole number; {round_no!r} given")
    paired = selectors.rounds_paired(event)
    last = _last_round(event)
    if round_no < 1:
        raise error("round", f"rounds are numbered from 1; {round_no} given")
    if round_no <= paired:
        raise error("round", f"round {round_no} is already paired: a bye can be asked only for a round not yet "
                             "paired")
    if round_no > last:
        raise error("round", f"{event.name} has {last} rounds; round {round_no} is beyond the last")
    if entry.dropped_after_round is not None:
        raise error("entry", f"{entry.player} has withdrawn from {event.name}")
    if round_no < entry.joined_round:
        raise error("round", f"{entry.player} joins in round {entry.joined_round}: there is no round {round_no} "
                             "to sit out")
    asked = list(RequestedBye.objects.filter(entry=entry).order_by("round").values_list("round", flat=True))
    if round_no in asked:
        raise error("round", f"{entry.player} has already asked to sit out round {round_no}")
    if len(asked) >= event.max_requested_byes:
        allowed = event.max_requested_byes
        raise error("round", f"{event.name} allows {allowed} requested bye{'s' if allowed != 1 else ''} per player"
                             + (f"; {entry.player} has asked for round {', '.join(map(str, asked))}" if asked else ""))
    bye = RequestedBye.objects.create(entry=entry, round=round_no, by_player=actor is None,
                                      created_by=actor.user if actor is not None else None)
    bump(event)
    return bye


@refusing
@transaction.atomic
def request_bye(*, actor: Actor, event: Event, entry: Entry, round: object) -> RequestedBye:
    """A director asks, for an entry, to sit out a future Swiss round."""
    event, entry = _directed_entry(actor, event, entry)
    return _ask(event, entry, round, actor=actor)


def _directed_entry(actor: Actor, event: Event, entry: Entry) -> tuple[Event, Entry]:
    """The event locked for its director's write about its byes, and the entry (with its player), the event's."""
    event = lock_event_to_change(actor, event, "ask for byes")
    if entry.event_id != event.pk:
        raise error("entry", "no such entry in this event")
    return event, Entry.objects.select_related("player").get(pk=entry.pk)


def _own_sign_up(registration: Registration) -> tuple[Event, Registration]:
    """The event locked for a player's write by their own link (none to a cancelled event), and the sign-up read
    again under that lock, with its entry and player."""
    event = lock_event(registration.event)
    refuse_if_cancelled(event)
    return event, Registration.objects.select_related("entry__player").get(pk=registration.pk)


@refusing
@transaction.atomic
def request_my_bye(*, registration: Registration, round: object) -> RequestedBye:
    """The player asks, by their own link, to sit out a future Swiss round."""
    event, registration = _own_sign_up(registration)
    if registration.status != Registration.Status.ENTERED or registration.entry is None:
        raise error("round", "only an entered player can ask for a bye"
                    + (": you are on the waiting list" if registration.status == Registration.Status.WAITLISTED
                       else ": you have withdrawn"))
    return _ask(event, registration.entry, round, actor=None)


def _take_back(event: Event, entry: Entry, round_no: object) -> None:
    paired = selectors.rounds_paired(event)
    bye = RequestedBye.objects.filter(entry=entry, round=round_no).first() if type(round_no) is int else None
    if bye is None:
        raise error("round", f"{entry.player} has not asked to sit out round {round_no}")
    if bye.round <= paired:
        raise error("round", f"round {bye.round} is already paired: its bye stands")
    bye.delete()
    bump(event)


@refusing
@transaction.atomic
def cancel_bye(*, actor: Actor, event: Event, entry: Entry, round: object) -> None:
    """A director takes back a bye asked for an entry, before its round is paired."""
    event, entry = _directed_entry(actor, event, entry)
    _take_back(event, entry, round)


@refusing
@transaction.atomic
def cancel_my_bye(*, registration: Registration, round: object) -> None:
    """The player takes back, by their own link, a bye they asked for, before its round is paired."""
    event, registration = _own_sign_up(registration)
    if registration.entry is None:
        raise error("round", "you have no entry in this event")
    _take_back(event, registration.entry, round)


def _refuse_if_fixed(event: Event) -> None:
    if event.format == Event.Format.ROUND_ROBIN:
        raise error("entries", "a round robin plays its schedule: everyone meets everyone")
    if event.is_elimination and event.status != Event.Status.REGISTRATION:
        raise error("entries", "the bracket has started: its round 1 was laid out with the pairs to avoid it had")


@refusing
@transaction.atomic
def add_avoid_pair(*, actor: Actor, event: Event, entries: object, strength: str) -> AvoidPair:
    """Two entries of the event not to pair ("never" or "avoid"), kept once."""
    event = lock_event_to_change(actor, event, "set pairs to avoid")
    _refuse_if_fixed(event)
    if strength not in AvoidPair.Strength.values:
        raise error("strength", f"\"never\" or \"avoid\"; {strength!r} given")
    if (not isinstance(entries, list | tuple) or len(entries) != 2
            or any(type(e) is not int for e in entries)):
        raise error("entries", "the two entries' ids, like [12, 15]")
    first, second = sorted(entries)
    if first == second:
        raise error("entries", "two different entries: an entry is never paired with itself")
    found = {e.pk: e for e in Entry.objects.filter(event=event, pk__in=[first, second]).select_related("player")}
    missing = [str(e) for e in (first, second) if e not in found]
    if missing:
        raise error("entries", f"no entry {' or '.join(missing)} in {event.name}")
    if AvoidPair.objects.filter(event=event, first_id=first, second_id=second).exists():
        raise error("entries", f"{found[first].player} and {found[second].player} are already a pair to avoid")
    pair = AvoidPair.objects.create(event=event, first=found[first], second=found[second], strength=strength,
                                    created_by=actor.user)
    bump(event)
    return pair


@refusing
@transaction.atomic
def remove_avoid_pair(*, actor: Actor, pair: AvoidPair) -> None:
    event = lock_event_to_change(actor, pair.event, "set pairs to avoid")
    _refuse_if_fixed(event)
    AvoidPair.objects.filter(pk=pair.pk).delete()
    bump(event)


def refuse_never(answer: dict[str, Any]) -> None:
    """Pairing refused: the engine found no pairing without a "never" pair (``stored_event`` keeps its words)."""
    if answer.get("pairing_refused"):
        raise Refusal([Problem(None, "avoid", message) for message in answer["pairing_refused"]])
