"""Players sign up themselves: an event open for registration takes sign-ups (name, email, club, a PIN) until
it closes or round 1 is paired; past its cap they are waitlisted in order (or refused, with no waitlist). Each
sign-up gets its own link (a token, the only credential its player holds; only its digest is kept) to see
where it stands and to withdraw: before round 1 the entry leaves and the first waitlisted player is entered in
the same transaction; after round 1 the withdrawal is a drop ("withdrew"). Directors move a waitlisted player
in, and open or close registration (``changes.update_event``).

An existing player is found by email, never by a name alone; one with a PIN proves it is them by typing it
(a wrong PIN counts toward their lockout, as at the table). Sign-ups are limited per address and per event.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from core import rate_limits
from core.refusals import Refusal
from core.text import folded
from scoring import services as scoring
from scoring.models import Player, token_digest
from tournaments.engine.errors import Problem
from tournaments.models import Entry, Event, MatchPlayer, Registration
from tournaments.policy import Actor, NotAllowed
from tournaments.services.base import refusing
from tournaments.signals import registration_changed, send_on_commit

from ..answers.job import bump
from .base import error, lock_event, lock_event_to_change, refuse_if_cancelled
from .entries import enter_player, mark_dropped

MAX_CAP = 4096
MAX_CLUB = 80
# Anonymous sign-ups: per address (a family signing up from home, a club's shared connection) and per event.
SIGNUPS_PER_ADDRESS = (30, 3600)
SIGNUPS_PER_EVENT = (500, 3600)
REGISTRATION_FIELDS = ("registration_open", "registration_closes_at", "registration_cap", "waitlist")


class TooManySignUps(NotAllowed):
    """Too many sign-ups from one address (or to one event) this hour: try again at ``retry_at``."""

    def __init__(self, message: str, retry_at: datetime):
        super().__init__(message)
        self.retry_at = retry_at


@dataclass(frozen=True)
class SignedUp:
    """A sign-up made, with its token (shown this once: the player's own link) and its place in the queue."""

    registration: Registration
    token: str
    position: int | None


def registration_problems(values: dict[str, Any]) -> list[Problem]:
    """The registration options' problems (those given), each naming its field."""
    problems = []
    for flag in ("registration_open", "waitlist"):
        if flag in values and not isinstance(values[flag], bool):
            problems.append(Problem(None, flag, f"true or false; {values[flag]!r} given"))
    cap = values.get("registration_cap")
    if cap is not None and (type(cap) is not int or not 2 <= cap <= MAX_CAP):
        problems.append(Problem(None, "registration_cap", f"a whole number of entries from 2 to {MAX_CAP}, or none; "
                                                          f"{cap!r} given"))
    closes = values.get("registration_closes_at")
    if closes is not None and (not isinstance(closes, datetime) or timezone.is_naive(closes)):
        problems.append(Problem(None, "registration_closes_at", "a time with its time zone, or none"))
    elif closes is not None and not 2000 <= closes.year <= 2999:  # shown in any time zone: never near the ends
        problems.append(Problem(None, "registration_closes_at", f"a time in the years 2000 to 2999; "
                                                                f"{closes.isoformat()} given"))
    return problems


@refusing
def closed_because(event: Event, now: datetime | None = None) -> str:
    """Why the event takes no sign-up now, in words; empty while registration is open."""
    now = now or timezone.now()
    if event.status == Event.Status.CANCELLED:
        return f"{event.name} was cancelled"
    if event.status != Event.Status.REGISTRATION:
        return f"{event.name} has started: registration is closed"
    if not event.registration_open:
        return f"registration for {event.name} is closed"
    if event.registration_closes_at is not None and now >= event.registration_closes_at:
        closed = timezone.localtime(event.registration_closes_at)
        return f"registration for {event.name} closed at {closed:%H:%M on %d %b}"
    return ""


def _count(key: str, limit: tuple[int, int], what: str) -> None:
    allowed, seconds = limit
    counted = rate_limits.hit(key, seconds)
    if counted.count > allowed:
        at = timezone.now() + timedelta(seconds=counted.wait)
        raise TooManySignUps(f"too many sign-ups {what} this hour: try again at {timezone.localtime(at):%H:%M}", at)


def _checked(name: str, email: str, club: str, pin: str, pin_again: str | None, honeypot: str) -> tuple:
    problems = []
    name, email, club = (name or "").strip(), (email or "").strip(), (club or "").strip()
    if honeypot:
        problems.append(Problem(None, "website", "leave this field empty"))
    if not name:
        problems.append(Problem(None, "name", "your name, as it will be shown in the pairings"))
    elif len(name) > 60:
        problems.append(Problem(None, "name", f"a name has at most 60 characters; {len(name)} given"))
    try:
        validate_email(email)
    except ValidationError:
        problems.append(Problem(None, "email", "an email address, such as ann@example.org"))
    if len(club) > MAX_CLUB:
        problems.append(Problem(None, "club", f"a club's name has at most {MAX_CLUB} characters"))
    if pin and not scoring.valid_pin(pin):
        problems.append(Problem(None, "pin", "a PIN is 4 to 8 digits (0-9)"))
    elif pin_again is not None and pin != pin_again:
        problems.append(Problem(None, "pin_again", "type the same PIN twice"))
    if problems:
        raise Refusal(problems)
    return name, email, club


def _player(name: str, email: str, club: str, pin: str, actor: Actor) -> tuple[Player, NotAllowed | None]:
    """The player signing up: found by email (a PIN they have must be typed: a wrong one is counted and
    refused), else made anew; never found by name alone."""
    found = Player.objects.filter(email__iexact=email).order_by("pk").first()
    if found is not None:
        if found.confirm_pin:
            if not pin:
                raise error("pin", f"{email} is {found}'s address: type {found}'s PIN to sign up as them")
            return found, scoring.check_pin(actor=actor, player=found, pin=pin)
        if pin:
            scoring.set_first_pin_unchecked(player=found, pin=pin)
        return found, None
    # Accents and case aside, as the club's search finds names: "Rosa Marquez" is the club's "Rosa Márquez".
    alike = next((known for known in Player.objects.values_list("display_name", flat=True)
                  if folded(known) == folded(name)), None)
    if alike is not None:
        name = alike
        raise error("name", f"a player named {name} is already in the club: sign up with the email address the "
                            "club has for them, or ask the director to enter you")
    try:
        return scoring.create_player_unchecked(display_name=name, email=email, club=club, pin=pin), None
    except Refusal as exc:
        raise error("name", exc.problems[0].message) from None


def _entered_count(event: Event) -> int:
    return Entry.objects.filter(event=event, dropped_after_round__isnull=True).count()


@refusing
def position_of(registration: Registration) -> int | None:
    """A waitlisted sign-up's place in the queue (1 is next), else None."""
    if registration.status != Registration.Status.WAITLISTED:
        return None
    return Registration.objects.filter(event_id=registration.event_id, status=Registration.Status.WAITLISTED,
                                       pk__lt=registration.pk).count() + 1


@refusing
def register(*, actor: Actor, event: Event, name: str, email: str, club: str = "", pin: str = "",
             pin_again: str | None = None, honeypot: str = "") -> SignedUp:
    """Sign a player up (the page and the API; anyone who reached the event's sign-up). All or nothing: a
    refused sign-up leaves nothing behind but a wrong PIN's count."""
    name, email, club = _checked(name, email, club, pin, pin_again, honeypot)
    refusal: NotAllowed | None = None
    with transaction.atomic():
        event = lock_event(event)
        if why := closed_because(event):
            raise error("event", why)
        _count(f"signup:addr:{actor.address.split(' ')[0]}", SIGNUPS_PER_ADDRESS, "from this address")
        _count(f"signup:event:{event.pk}", SIGNUPS_PER_EVENT, f"to {event.name}")
        player, refusal = _player(name, email, club, pin, actor)
        if refusal is None:
            signed = _sign_up(event, player, email, actor)
    if refusal is not None:
        raise refusal
    return signed


def _sign_up(event: Event, player: Player, email: str, actor: Actor) -> SignedUp:
    existing = Registration.objects.filter(event=event, player=player).first()
    if existing is not None and existing.status != Registration.Status.WITHDRAWN:
        raise error("email", f"{player} is already signed up for {event.name} ({existing.get_status_display().lower()})"
                             ": your own link says where you stand")
    if existing is None and Entry.objects.filter(event=event, player=player).exists():
        raise error("email", f"{player} is already entered in {event.name}")
    token = secrets.token_urlsafe(24)
    full = event.registration_cap is not None and _entered_count(event) >= event.registration_cap
    if full and not event.waitlist:
        raise error("event", f"{event.name} is full ({event.registration_cap} entries)")
    entry = None if full else enter_player(event, player)
    values = {"entry": entry, "email": email, "token_digest": token_digest(token), "address": actor.address,
              "status": Registration.Status.WAITLISTED if full else Registration.Status.ENTERED,
              "changed_at": timezone.now()}
    if existing is not None:  # withdrew, and signs up again: at the back of the queue, as a new sign-up
        existing.delete()
    registration = Registration.objects.create(event=event, player=player, **values)
    send_on_commit(registration_changed, registration=registration, what="created", token=token)
    if entry is not None:
        bump(event)
    return SignedUp(registration, token, position_of(registration))


@refusing
def registration_by_token(token: str) -> Registration | None:
    """The sign-up whose link this is (by digest), with its event and player."""
    if not token or len(token) > 100:
        return None
    return (Registration.objects.select_related("event", "player", "entry")
            .filter(token_digest=token_digest(token)).first())


@refusing
@transaction.atomic
def withdraw(*, registration: Registration) -> Registration:
    """The player withdraws by their own link: a waitlisted sign-up leaves the queue; an entry leaves the
    event before round 1 (and the first waitlisted player takes its place), or drops after it ("withdrew")."""
    event = lock_event(registration.event)
    refuse_if_cancelled(event)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status == Registration.Status.WITHDRAWN:
        raise error("registration", "you have already withdrawn")
    entry = registration.entry
    registration.status, registration.changed_at = Registration.Status.WITHDRAWN, timezone.now()
    send_on_commit(registration_changed, registration=registration, what="withdrawn")
    if entry is None:
        registration.save(update_fields=["status", "changed_at"])
        return registration
    if event.status == Event.Status.REGISTRATION and not MatchPlayer.objects.filter(entry=entry).exists():
        registration.entry = None
        registration.save(update_fields=["status", "changed_at", "entry"])
        entry.delete()
        _promote(event)
    else:
        registration.save(update_fields=["status", "changed_at"])
        if entry.dropped_after_round is None:
            mark_dropped(event, Entry.objects.select_for_update().get(pk=entry.pk), reason="withdrew")
    bump(event)
    return registration


def _promote(event: Event) -> list[Registration]:
    """Enter waitlisted players, first come first served, while the cap allows."""
    promoted = []
    for waiting in (Registration.objects.select_for_update().filter(event=event, status=Registration.Status.WAITLISTED)
                    .select_related("player").order_by("pk")):
        if event.registration_cap is not None and _entered_count(event) >= event.registration_cap:
            break
        _enter(event, waiting)
        promoted.append(waiting)
    return promoted


def _enter(event: Event, registration: Registration) -> None:
    registration.entry = enter_player(event, registration.player)
    registration.status, registration.changed_at = Registration.Status.ENTERED, timezone.now()
    registration.save(update_fields=["entry", "status", "changed_at"])
    send_on_commit(registration_changed, registration=registration, what="promoted")


@refusing
@transaction.atomic
def enter_from_waitlist(*, actor: Actor, registration: Registration) -> Registration:
    """A director moves a waitlisted player in, past the cap if need be (their decision)."""
    event = lock_event_to_change(actor, registration.event, "enter waitlisted players")
    registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk,
                                                                                         event=event)
    if registration.status != Registration.Status.WAITLISTED:
        raise error("registration", f"{registration.player} is not waitlisted ({registration.status})")
    if event.status != Event.Status.REGISTRATION:
        raise error("registration", f"{event.name} has started: add late entries on the entries page")
    _enter(event, registration)
    bump(event)
    return registration


def promote_after_change(event: Event) -> None:
    """After the cap was raised or an entry left (the caller holds the event's lock): enter who now fits."""
    if event.status == Event.Status.REGISTRATION and event.waitlist and _promote(event):
        bump(event)
