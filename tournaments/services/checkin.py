"""Check-in before round 1, for an event with ``check_in``: a director checks players in (or out) one tap
each, or a player checks in at the venue's QR code by picking their name and typing their PIN (or
choosing one, when they have none yet). Round 1 then pairs only the entries checked in (``rounds``
refuses the others, unless they are withdrawn in the same step: ``withdraw_absent``).

The venue's QR code opens a page whose address holds a code made from the server's secret and the
event's id: only someone who can see the code at the venue (or a director) reaches that page, and a PIN
is still needed there for a player who has one. Wrong PINs count toward the player's lockout exactly as
at the table.

It must not pair rounds, nor change anything once round 1 is paired: check-in is over then.
"""

from __future__ import annotations

import hmac

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from core.refusals import Refusal
from scoring import services as scoring
from scoring.policy import NotAllowed
from tournaments.models import Entry, Event
from tournaments.policy import Actor
from tournaments.services.base import refusing

from ..answers.job import bump
from .base import error, lock_event, lock_event_to_change, refuse_if_cancelled


@refusing
def venue_code(event: Event) -> str:
    """The code in the venue QR code's address: the server's secret and the event's id, never stored."""
    return salted_hmac("ginscore.tournaments.check-in", str(event.pk)).hexdigest()[:20]


@refusing
def venue_code_matches(event: Event, code: str) -> bool:
    return hmac.compare_digest(venue_code(event), str(code or ""))


def _open_check_in(event: Event) -> None:
    if not event.check_in:
        raise error("check_in", f"{event.name} has no check-in: turn it on in “Change the event” before round 1")
    if event.status != Event.Status.REGISTRATION:
        raise error("event", f"check-in is over: round 1 of {event.name} is paired")


def _entry(event: Event, entry: Entry) -> Entry:
    locked = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk, event=event)
    if locked.dropped_after_round is not None:
        raise error("entry", f"{locked.player} has withdrawn: enter them again to check them in")
    return locked


@refusing
@transaction.atomic
def check_in_entry(*, actor: Actor, entry: Entry, here: bool = True) -> Entry:
    """A director checks a player in (``here``) or takes the check-in back (the wrong name tapped, a player
    who left before round 1). Doing it twice changes nothing (a double tap)."""
    event = lock_event_to_change(actor, entry.event, "check players in" if here else "check players out")
    _open_check_in(event)
    entry = _entry(event, entry)
    if (entry.checked_in_at is not None) != here:
        entry.checked_in_at, entry.checked_in_how = (timezone.now(), Entry.CheckIn.DIRECTOR) if here else (None, "")
        entry.save(update_fields=["checked_in_at", "checked_in_how"])
        bump(event)
    return entry


@refusing
def self_check_in(*, actor: Actor, event: Event, code: str, entry: Entry, pin: str, new_pin: str = "",
                  new_pin_again: str = "") -> Entry:
    """A player checks in at the venue's QR code: with their PIN, or, when they have none yet, choosing
    one (typed twice), which becomes their PIN for the night. A wrong PIN is counted (committed) and then
    refused, as at the table; nothing else changes."""
    refusal: NotAllowed | None = None
    with transaction.atomic():
        event = lock_event(event)
        if not venue_code_matches(event, code):
            raise NotAllowed("this check-in code is not the venue's: scan the QR code at the venue again")
        refuse_if_cancelled(event)
        _open_check_in(event)
        entry = _entry(event, entry)
        player = entry.player
        if player.confirm_pin:
            if not scoring.valid_pin(pin):
                raise error("pin", "a PIN is 4 to 8 digits (0-9): type it again")
            refusal = scoring.check_pin(actor=actor, player=player, pin=pin)
        else:
            if not scoring.valid_pin(new_pin):
                raise error("new_pin", "choose a PIN of 4 to 8 digits (0-9)")
            if new_pin != new_pin_again:
                raise error("new_pin_again", "type the same PIN twice")
            try:
                scoring.set_first_pin_unchecked(player=player, pin=new_pin)
            except Refusal as exc:
                raise error("new_pin", exc.problems[0].message) from None
        if refusal is None and entry.checked_in_at is None:
            entry.checked_in_at, entry.checked_in_how = timezone.now(), Entry.CheckIn.VENUE_QR
            entry.save(update_fields=["checked_in_at", "checked_in_how"])
            bump(event)
    if refusal is not None:
        raise refusal
    return entry


@refusing
def absent_entries(event: Event) -> list[Entry]:
    """The entries still in that are not checked in, in the order they entered (one query)."""
    return list(Entry.objects.filter(event=event, dropped_after_round__isnull=True, checked_in_at__isnull=True)
                .select_related("player").order_by("id"))
