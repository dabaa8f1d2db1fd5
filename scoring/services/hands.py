"""Hands: recording the next hand, confirming it (by the side it goes against, with their PIN or login,
or by a second official), correcting and voiding it, each under the game's lock with its hands read
in the same round trip (``game_lock``), the engine scoring the result before anything is saved. A web
form sent twice records nothing twice (``AlreadyRecorded``).

It must not score anything itself (the engine does) nor decide roles (``policy``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from core import once, raw_rows
from core.refusals import Refusal

from .. import game_clocks, policy
from ..engine import Problem
from ..game_lock import lock_game
from ..models import (
    Game,
    GameStatusChange,
    Hand,
    Player,
    slot_key,
)
from ..policy import Actor, NotAllowed
from ..sheets import (
    MAX_HANDS,
    HandLine,
    accepters,
    next_hand_confirmed,
    validate_current,
)
from ..signals import hand_confirmed_on_commit
from .games import reason_text, refresh_summary
from .players import check_pin, valid_pin
from .refusals import refusal, service

# ---------------------------------------------------------------------------------------------------
# Hands


def _new_version(game: Game, number: int, version: int, action: str, data: dict, actor: Actor, reason: str,
                 phone_id: str | None = None) -> Hand:
    return raw_rows.new(
        Hand,
        {"game": game, "entered_by": actor.user, "entered_via": actor.link if actor.user is None else None},
        number=number,
        version=version,
        action=action,
        data=data,
        reason=reason,
        entered_from=actor.address[:300],
        entered_at=timezone.now(),
        slot=slot_key(game.pk, number) if version == 1 else None,
        previous_slot_id=slot_key(game.pk, number - 1) if version == 1 and number > 1 else None,
        phone_id=phone_id,
    )


def _auto_confirm(game: Game, hand: Hand) -> None:
    if not game.requires_confirmation:
        hand.auto_confirmed = True
        hand.confirmed_at = hand.entered_at
        hand_confirmed_on_commit(game_id=game.pk, number=hand.number, version=hand.version)


def _check_hand_data(data: object) -> dict:
    if not isinstance(data, dict):
        raise refusal(None, None, "a hand must be a JSON object as in the score-sheet contract")
    return data


class AlreadyRecorded(Refusal):
    """A form sent again, or made for a hand number that is taken: nothing was recorded.

    ``number`` is the hand the form already recorded (or was made for), so the page can show it.
    """

    def __init__(self, number: int, message: str):
        super().__init__([Problem(number, "number", message)])
        self.number = number


class SentBefore(Exception):
    """A hand sent again from the table's phone (its outbox's id, ``phone_id``, is already on a hand of this
    game): nothing was recorded; ``hand`` is the one its first copy recorded, as it stands now (accepted
    or awaiting acceptance), whenever that was."""

    def __init__(self, hand: Hand):
        super().__init__(f"hand {hand.number} was already recorded from this phone")
        self.hand = hand


MAX_PHONE_ID = 64


def _sent_before(lines: Sequence[HandLine], phone_id: str) -> None:
    """Raise ``SentBefore`` when a hand of these lines came with ``phone_id`` (read with the game's lock:
    no query of its own; the database's constraint holds it against any other path)."""
    for line in lines:
        if line.versions[0].phone_id == phone_id:
            raise SentBefore(line.current)


def _fingerprint(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _claim_form(actor: Actor, game: Game, once_key: str, data: dict, number: int) -> None:
    """Claim a web form's one-time key for hand ``number``, in the hand write's transaction; a key already
    used records nothing, and the refusal says which hand it recorded and whether what was sent now differs
    from it."""
    record = once.claim(once.Kind.HAND_FORM, actor=actor.key, key=once_key, fingerprint=_fingerprint(data),
                        object_id=game.pk, number=number)
    if record is None:
        return
    recorded = record.number if record.number is not None and record.object_id == game.pk else number - 1
    if record.fingerprint == _fingerprint(data):
        raise AlreadyRecorded(recorded, f"hand {recorded} was already recorded from this form; "
                                        "it was sent again and not recorded twice")
    raise AlreadyRecorded(recorded, f"this form already recorded hand {recorded}, so the values sent now were not "
                                    f"recorded: check hand {recorded} below, then enter the next hand")


@service
@transaction.atomic
def record_hand(
    *, actor: Actor, game: Game, data: dict, once_key: str | None = None, number: int | None = None,
    phone_id: str | None = None,
) -> tuple[Hand, dict[str, Any]]:
    """Record the next hand of ``game``; it counts once confirmed (at once if the game needs no confirming).

    A web form says which hand it was made for (``number``) and carries a one-time key
    (``once_key``): a double tap, a resubmitted page or a form brought back with the Back button
    records nothing and raises ``AlreadyRecorded`` naming the hand that is already there. The API does
    the same with its ``Idempotency-Key`` header.

    The table's phone sends each hand of its outbox with an id of its own (``phone_id``), kept with the
    hand for good: a copy sent again, however late, records nothing and raises ``SentBefore`` with the
    hand it recorded, even once the game has ended (the last hand may have ended it).
    """
    data = _check_hand_data(data)
    if phone_id is not None and not (0 < len(phone_id) <= MAX_PHONE_ID and phone_id.isprintable()):
        raise refusal(number, None, f"a phone's hand id is printable text of 1 to {MAX_PHONE_ID} characters")
    game, lines = lock_game(game.pk)
    next_number = len(lines) + 1
    if phone_id is not None:
        if not policy.is_official(actor, game):  # a stranger learns nothing of the game's hands
            policy.require_can_record(actor, game)
        _sent_before(lines, phone_id)
    if once_key is not None:
        _claim_form(actor, game, once_key, data, next_number)
    policy.require_can_record(actor, game)
    if number is not None and number != next_number:
        if number < next_number:
            raise AlreadyRecorded(number, f"hand {number} is already recorded (this form was made for it); the "
                                          f"next hand is {next_number}")
        raise refusal(number, "number", f"the next hand is {next_number}, not {number}: reload the page")
    if next_number > MAX_HANDS:
        raise refusal(next_number, None, f"a game has at most {MAX_HANDS} hands")
    if game.time_hand is not None and game.status == Game.Status.COMPLETE:
        # The engine ends a game at its target; a game ended at time is ended by its sheet's time rule.
        raise refusal(next_number, None, f"the game ended at time after hand "
                                                f"{game.summary.get('at_time', {}).get('after_hand')}: no hand "
                                                "follows")
    hand = _new_version(game, next_number, 1, Hand.Action.ENTRY, data, actor, "", phone_id)
    scored = validate_current(game, lines, {next_number: hand})
    _auto_confirm(game, hand)
    lines.append(HandLine(next_number, [hand]))
    timed = _time_called(game, next_number)
    return hand, refresh_summary(game, lines, scored, inserting=hand, also=timed)


@service
@transaction.atomic
def end_game_at_time(*, actor: Actor, game: Game) -> dict[str, Any]:
    """Time is up and no hand is in play: the game ends after the last hand recorded, as the time rule
    says (the side ahead wins by the difference; level: a draw, or play goes on). For a table whose
    round's clock reads "Time" under the finish-the-hand rule; its referees and officials."""
    game, lines = lock_game(game.pk)
    policy.require_can_record(actor, game)
    if game.time_hand is not None:
        raise refusal(None, None, f"time was already called on this game, {game.time_called_words()}")
    fields = _time_called(game, len(lines))
    if not fields:
        raise refusal(None, None, "this game's round is not at time (or its director decides at time)")
    game.time_between_hands = True
    return refresh_summary(game, lines, also=[*fields, "time_between_hands"])


@service
@transaction.atomic
def undo_end_at_time(*, actor: Actor, game: Game, reason: str) -> dict[str, Any]:
    """Take back an "end the game at time now" tapped by mistake (the table was still playing a hand): the
    game is as before it, in progress, and the hand being played, once recorded, is the one time ends the
    game after. A director's or an organiser's decision, with a reason kept in the game's history. Time
    called while a hand was recorded is mended by correcting or voiding that hand instead."""
    game, lines = lock_game(game.pk)
    policy.require_may_direct(actor, game, "take back time called on a table")
    policy.require_not_closed(game, "changed")
    if not game.time_between_hands:
        raise refusal(None, None, "time was not called on this game by \"end the game at time now\": correct "
                                  "or void the hand it was called during instead" if game.time_hand is not None
                      else "time was not called on this game")
    reason = reason_text(reason, None, "take back time called on this table")
    game.time_hand, game.time_level, game.time_called_at, game.time_between_hands = None, "", None, False
    summary = refresh_summary(game, lines, also=["time_hand", "time_level", "time_called_at", "time_between_hands"])
    GameStatusChange.objects.create(game=game, status=game.status, changed_by=actor.user,
                                    reason=f"time called by mistake taken back: {reason}")
    return summary


def _time_called(game: Game, hand_number: int) -> list[str]:
    """The game's fields set when this hand is the one being played as its round's time ran out (the app
    that times the game says so: ``game_clocks``): the game then ends after it, as the time rule says.
    Only a game another app made is timed (one query for those, none for a club game)."""
    if game.time_hand is not None or not game.origin_url:
        return []
    clock = game_clocks.game_clock(game.pk)
    if clock is None or clock["status"] != "time" or clock.get("rule") != "finish_hand":
        return []
    game.time_hand, game.time_level, game.time_called_at = hand_number, clock["level"], timezone.now()
    return ["time_hand", "time_level", "time_called_at"]


def _line(lines: Sequence[HandLine], number: int) -> HandLine:
    for line in lines:
        if line.number == number:
            return line
    raise refusal(number, None, f"there is no hand {number} in this game")


def _seated(game: Game, player_name: str | None) -> Player:
    """The seated player named as on this game's sheet."""
    if player_name not in game.player_names:
        raise refusal(None, "player", f"{player_name!r} is not a player of this game")
    position = game.player_names.index(player_name)
    return next(seat.player for seat in game.seats.all() if seat.position == position)


def _pending_line(lines: Sequence[HandLine], number: int) -> HandLine:
    line = _line(lines, number)
    if line.pending is None:
        raise refusal(number, None, f"hand {number} is already confirmed")
    return line



@service
def confirm_hand(
    *, actor: Actor, game: Game, number: int, player_name: str | None = None, pin: str | None = None
) -> tuple[Hand, dict[str, Any]]:
    """Confirm the pending current version of hand ``number``: by the side it goes against (their PIN on
    an official's device, or their own login) or by a second official.

    Everything runs in one transaction under the game's lock. With a PIN, everything that does not need
    it is checked first (the caller's role, then whether that player may accept this hand), so a guess
    never teaches anything to someone who could not confirm anyway; then the PIN. A wrong PIN is
    counted (committed) and then refused: nothing else changes.
    """
    if (player_name is not None or pin is not None) and (not player_name or pin is None):
        field = "pin" if player_name else "player"
        raise refusal(number, field, "name the player who is accepting and give their PIN")
    wrong_pin: NotAllowed | None = None
    with transaction.atomic():
        locked, lines = lock_game(game.pk, seats=True)
        policy.require_may_try_confirming(actor, locked)  # before any hand is looked at: a stranger learns nothing
        pin_player = None
        if player_name is not None:
            pin_player = _seated(locked, player_name)
            line = _pending_line(lines, number)
            policy.require_may_accept(player_name, pin_player, line.pending, accepters(locked, lines, line))
            if not valid_pin(pin or ""):
                # Mistyped, not wrong: no PIN is that, so nothing is learnt and no try is spent.
                raise refusal(number, "pin", "a PIN is 4 to 8 digits (0-9): type it again")
            wrong_pin = check_pin(actor=actor, player=pin_player, pin=pin or "")
        if wrong_pin is None:
            confirmed = _confirm(actor=actor, game=locked, lines=lines, number=number, pin_player=pin_player)
    if wrong_pin is not None:
        raise wrong_pin
    return confirmed


def _confirm(*, actor: Actor, game: Game, lines: list[HandLine], number: int,
             pin_player: Player | None) -> tuple[Hand, dict[str, Any]]:
    line = _pending_line(lines, number)
    hand = line.pending
    how = policy.require_can_confirm(actor, game, hand, accepters=accepters(game, lines, line), pin_player=pin_player)
    hand.confirmed_at = timezone.now()
    if how == "player":
        hand.confirmed_by_player = pin_player
    elif how == "link":
        hand.confirmed_via = actor.link
    else:
        hand.confirmed_by = actor.user
    raw_rows.update(hand, ["confirmed_at", "confirmed_by", "confirmed_by_player", "confirmed_via"])
    hand_confirmed_on_commit(game_id=game.pk, number=hand.number, version=hand.version)
    return hand, refresh_summary(game, lines)


def _amend(*, actor: Actor, game: Game, number: int, action: str, data: dict, reason: str) -> tuple[Hand, dict]:
    game, lines = lock_game(game.pk, seats=True)
    verb = "correct" if action == Hand.Action.CORRECTION else "void"
    policy.require_may_amend(actor, game, verb)  # before any hand is looked at: a stranger learns nothing
    line = _line(lines, number)
    policy.require_can_amend(actor, game, number, next_hand_confirmed(lines, number), verb)
    reason = reason_text(reason, number, f"{verb} this hand")
    if action == Hand.Action.VOID and line.current.action == Hand.Action.VOID:
        raise refusal(number, None, f"hand {number} is already void")
    previous = line.current
    hand = _new_version(game, number, previous.version + 1, action, data, actor, reason)
    scored = validate_current(game, lines, {number: hand})
    _auto_confirm(game, hand)
    previous.is_current = False
    raw_rows.update(previous, ["is_current"])
    raw_rows.insert(hand)
    line.versions.append(hand)
    return hand, refresh_summary(game, lines, scored)


@service
@transaction.atomic
def correct_hand(*, actor: Actor, game: Game, number: int, data: dict, reason: str) -> tuple[Hand, dict[str, Any]]:
    """A new version of hand ``number``; every later hand and the result are rescored from it."""
    return _amend(actor=actor, game=game, number=number, action=Hand.Action.CORRECTION,
                  data=_check_hand_data(data), reason=reason)


@service
@transaction.atomic
def void_hand(*, actor: Actor, game: Game, number: int, reason: str) -> tuple[Hand, dict[str, Any]]:
    """Take hand ``number`` out of the sheet (the number stays, marked void); later hands are rescored."""
    return _amend(actor=actor, game=game, number=number, action=Hand.Action.VOID, data={}, reason=reason)


class NotAccepted(Exception):
    """The hand was recorded, and the acceptance that came with it was refused (a wrong or mistyped PIN,
    a player it does not go against): the hand awaits acceptance. ``reason`` is the refusal's words."""

    def __init__(self, hand: Hand, reason: str):
        super().__init__(reason)
        self.hand = hand
        self.reason = reason


@service
def record_and_accept_hand(
    *, actor: Actor, game: Game, data: dict, player_name: str, pin: str, once_key: str | None = None,
    number: int | None = None, phone_id: str | None = None,
) -> tuple[Hand, dict[str, Any]]:
    """Record the next hand, then have the side it goes against accept it with a PIN typed after reading
    it back on the same phone: ``record_hand``, then ``confirm_hand`` (its PIN check in a transaction of
    its own, as always). A refused acceptance leaves the hand recorded and pending (``NotAccepted``); a
    refused hand records nothing and no PIN is looked at, nor is it for a hand sent before (``SentBefore``:
    its PIN was checked, or not, when it was first recorded; the page asks again if it awaits acceptance)."""
    hand, _ = record_hand(actor=actor, game=game, data=data, once_key=once_key, number=number, phone_id=phone_id)
    try:
        return confirm_hand(actor=actor, game=game, number=hand.number, player_name=player_name, pin=pin)
    except NotAllowed as exc:
        raise NotAccepted(hand, str(exc)) from exc
    except Refusal as exc:
        raise NotAccepted(hand, "; ".join(exc.messages)) from exc


