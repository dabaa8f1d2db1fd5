"""Players and their PINs: creating and changing a player (names unique in a club ignoring case), setting
a PIN (a keyed hash: ``scoring.pins``), and checking a PIN typed at a table, at most five wrong ones per player
per 15 minutes, counted in the database.

It must not touch games or hands: a confirmation asks it whether a PIN is right (``check_pin``).
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.refusals import Refusal

from .. import pins, policy
from ..engine import Problem
from ..models import (
    PinFailure,
    Player,
)
from ..pins import PIN_FAILURES_ALLOWED, PIN_LOCKOUT, locked_until
from ..policy import Actor, NotAllowed
from .refusals import refusal, service

# ASCII digits only: what a phone's numeric keypad types (str.isdigit() also takes "١٢٣٤").
PIN_PATTERN = re.compile(r"[0-9]{4,8}")


class PinLocked(NotAllowed):
    """Too many wrong PINs for one player lately: no PIN is checked for them until ``retry_at``."""

    def __init__(self, message: str, retry_at):
        super().__init__(message, field="pin")
        self.retry_at = retry_at


# ``update_player``'s rating when it is not to change (None clears it).
UNCHANGED = object()
MAX_RATING = 2**31 - 1  # the database's integer column


@service
def valid_pin(pin: str) -> bool:
    return PIN_PATTERN.fullmatch(pin or "") is not None


# ---------------------------------------------------------------------------------------------------
# Players


@service
@transaction.atomic
def create_player(
    *, actor: Actor, display_name: str, email: str = "", club: str = "", user=None, pin: str = ""
) -> Player:
    policy.require_organiser(actor, "add players")
    return create_player_unchecked(display_name=display_name, email=email, club=club, user=user, pin=pin)


@service
@transaction.atomic
def create_player_unchecked(*, display_name: str, email: str = "", club: str = "", user=None, pin: str = "") -> Player:
    """``create_player`` without the role check, for a caller that has decided the role itself (an event's
    director registering a new player). Never call it from a view."""
    display_name = display_name.strip()
    if not display_name:
        raise refusal(None, "display_name", "a player needs a name")
    if pin and not valid_pin(pin):
        raise refusal(None, "pin", "a PIN is 4 to 8 digits (0-9)")
    existing = same_name(display_name, club)
    if existing is not None:
        raise NameTaken(existing)
    try:
        # Two organisers adding the same name at the same moment both pass the check above; the
        # database's unique constraint (case-insensitive) decides, and the loser gets the same answer.
        with transaction.atomic():
            return Player.objects.create(
                display_name=display_name, email=email, club=club, user=user,
                confirm_pin=pins.hash_pin(pin) if pin else "",
            )
    except IntegrityError:
        existing = same_name(display_name, club)
        if existing is not None:
            raise NameTaken(existing) from None
        raise


def same_name(display_name: str, club: str) -> Player | None:
    """The club's player whose name is this one up to case ("Gail" and "gail" are one person at a table)."""
    return Player.objects.filter(display_name__iexact=display_name, club=club).order_by("pk").first()


class NameTaken(Refusal):
    """A player of that name (ignoring case) is already in the club: ``player`` is offered instead."""

    def __init__(self, player: Player):
        where = f" in {player.club}" if player.club else ""
        super().__init__([Problem(None, "display_name",
                                  f"{player.display_name} already exists{where}: use that player, or give "
                                  "another name")])
        self.player = player


@service
@transaction.atomic
def update_player(*, actor: Actor, player: Player, display_name: str | None = None, club: str | None = None,
                  email: str | None = None, rating: int | object | None = UNCHANGED) -> Player:
    """Change a player's name, club, email or rating (organisers; a rating of None clears it). Names stay
    unique in a club ignoring case; games already made keep the names their sheets were made with, and
    events keep the rating their entries were made with."""
    policy.require_organiser(actor, "change a player")
    locked = Player.objects.select_for_update().get(pk=player.pk)
    changed = []
    if display_name is not None:
        display_name = display_name.strip()
        if not display_name:
            raise refusal(None, "display_name", "a player needs a name")
        locked.display_name = display_name
        changed.append("display_name")
    if club is not None:
        locked.club = club.strip()
        changed.append("club")
    if email is not None:
        locked.email = email.strip()
        changed.append("email")
    if rating is not UNCHANGED:
        if rating is not None and (type(rating) is not int or not -MAX_RATING <= rating <= MAX_RATING):
            raise refusal(None, "rating", f"a rating is a whole number of at most ten digits; {rating!r} given")
        locked.rating = rating
        changed.append("rating")
    if {"display_name", "club"} & set(changed):
        same = same_name(locked.display_name, locked.club)
        if same is not None and same.pk != locked.pk:
            raise NameTaken(same)
    if changed:
        try:
            with transaction.atomic():
                locked.save(update_fields=changed)
        except IntegrityError:  # the same name taken at the same moment: the database's constraint decides
            raise NameTaken(same_name(locked.display_name, locked.club) or locked) from None
    return locked


@service
@transaction.atomic
def set_player_pin(*, actor: Actor, player: Player, pin: str) -> None:
    """Set (or reset: a new one replaces it) a player's PIN: organisers, and the directors of an event the
    player is entered in (``policy.require_may_set_pin``)."""
    policy.require_may_set_pin(actor, player)
    if not valid_pin(pin):
        raise refusal(None, "pin", "a PIN is 4 to 8 digits (0-9)")
    player.confirm_pin = pins.hash_pin(pin)
    player.save(update_fields=["confirm_pin"])


@service
@transaction.atomic
def set_first_pin_unchecked(*, player: Player, pin: str) -> None:
    """A player with no PIN chooses one (an event's check-in at the venue): never replaces a PIN, so only
    an official resets one. The caller has decided who may (the venue's code); never call it from a view."""
    if not valid_pin(pin):
        raise refusal(None, "pin", "a PIN is 4 to 8 digits (0-9)")
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.confirm_pin:
        raise refusal(None, "pin", f"{locked} already has a PIN: type it, or ask a director to reset it")
    locked.confirm_pin = player.confirm_pin = pins.hash_pin(pin)
    locked.save(update_fields=["confirm_pin"])



@service
def check_pin(*, actor: Actor, player: Player, pin: str) -> NotAllowed | None:
    """Check a player's PIN, at most ``PIN_FAILURES_ALLOWED`` wrong ones per ``PIN_LOCKOUT``: the refusal
    to raise once the failure it records is committed, or None when the PIN is right.

    Wrong PINs are rows in the database, so the count holds across every worker and machine; the
    player's row is locked while one PIN is checked, so concurrent guesses (at two tables) are counted
    one by one. A keyed hash costs
    microseconds, so this runs under the game's lock. A right PIN kept under an older key or as an old
    PBKDF2 hash is stored again under the current key.
    """
    now = timezone.now()
    # ``everyone``: a seat read just before a merge moved it may still name the duplicate, whose PIN is
    # then checked (and the hand records it as its confirmer, as every hand before the merge does).
    player = Player.everyone.select_for_update().get(pk=player.pk)
    recent = list(
        PinFailure.objects.filter(player=player, failed_at__gt=now - PIN_LOCKOUT)
        .order_by("-failed_at").values_list("failed_at", flat=True)[:PIN_FAILURES_ALLOWED]
    )
    if (until := locked_until(recent)) is not None:
        return _locked(player, until)
    checked = pins.check_pin(pin, player.confirm_pin) if valid_pin(pin) else pins.PinCheck(False)
    if checked.matches:
        if checked.rehashed:
            player.confirm_pin = checked.rehashed
            player.save(update_fields=["confirm_pin"])
        return None
    PinFailure.objects.create(player=player, actor=actor.key, address=actor.address[:300])
    left = PIN_FAILURES_ALLOWED - len(recent) - 1
    if left == 0:
        oldest = recent[-1] if recent else now
        return _locked(player, oldest + PIN_LOCKOUT, f"that is not {player}'s PIN. ")
    return NotAllowed(f"that is not {player}'s PIN ({left} more tr{'y' if left == 1 else 'ies'} "
                      f"before a {PIN_LOCKOUT.seconds // 60}-minute pause)")


def _locked(player: Player, until, prefix: str = "") -> PinLocked:
    # Said to the minute, rounded up, in the club's time zone: "try again at 21:40".
    at = timezone.localtime(until + timedelta(seconds=59)).replace(second=0, microsecond=0)
    return PinLocked(
        f"{prefix}Too many wrong PINs for {player}: try again at {at:%H:%M}, or ask a second official to confirm",
        retry_at=until,
    )


