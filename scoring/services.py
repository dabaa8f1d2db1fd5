"""Every write of the scoring app: players, games, hands (record, confirm, correct, void), links.

Each service takes keyword-only arguments, runs in one transaction, locks the game row first
(``select_for_update``) so that two referees at one table can never both record hand 5, asks the
engine to score the result before anything is saved, and refreshes the game's status and summary
from the engine's answer. A refused write raises ``SheetError`` (bad hand: field and message) or
``NotAllowed`` (role); nothing already recorded changes.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from . import policy
from .engine import SheetError, resolve_conventions, score_sheet
from .models import Game, Hand, IdempotencyRecord, Player, RefereeLink, Seat, slot_key
from .policy import Actor, NotAllowed
from .sheets import HandLine, counted_sheet, hand_lines, sheet_request, summary_of, validate_current

PLAYER_COUNTS = {"standard": 2, "hollywood": 2, "rotation": 3, "jersey": 3, "partnership": 4}
MAX_REASON = 500


# ---------------------------------------------------------------------------------------------------
# Players


@transaction.atomic
def create_player(
    *, actor: Actor, display_name: str, email: str = "", club: str = "", user=None, pin: str = ""
) -> Player:
    policy.require_organiser(actor, "add players")
    display_name = display_name.strip()
    if not display_name:
        raise SheetError.one(None, "display_name", "a player needs a name")
    if Player.objects.filter(display_name=display_name, club=club).exists():
        raise SheetError.one(None, "display_name", f"{display_name!r} already exists in this club")
    if pin and not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise SheetError.one(None, "pin", "a PIN is 4 to 8 digits")
    return Player.objects.create(
        display_name=display_name, email=email, club=club, user=user, confirm_pin=make_password(pin) if pin else ""
    )


@transaction.atomic
def set_player_pin(*, actor: Actor, player: Player, pin: str) -> None:
    policy.require_organiser(actor, "set a player's PIN")
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise SheetError.one(None, "pin", "a PIN is 4 to 8 digits")
    player.confirm_pin = make_password(pin)
    player.save(update_fields=["confirm_pin"])


# ---------------------------------------------------------------------------------------------------
# Games


def _lock_game(game_id: int, *, seats: bool = False) -> Game:
    """The game row, locked for this transaction, with its hands (and seats when asked) loaded.

    The prefetches run after the row lock is taken, so what they read is what the lock protects.
    A game that does not exist raises ``Game.DoesNotExist``.
    """
    games = Game.objects.select_for_update()
    if seats:
        games = games.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
    return games.get(pk=game_id)


def _hands(game: Game) -> list[HandLine]:
    """Every version of every hand of the (locked) game, as lines by number. One plain query: this is on
    the path every recorded hand takes, where a prefetch's bookkeeping costs more than the rows."""
    return hand_lines(Hand.objects.filter(game_id=game.pk).order_by("number", "version"))


def _refresh_summary(game: Game, lines: Sequence[HandLine], scored: dict[str, Any] | None = None) -> dict[str, Any]:
    """Store the counted sheet's summary and status; ``scored`` is the current hands' answer, reused
    when every current version is confirmed (then the counted sheet is the same sheet)."""
    answer = counted_sheet(game, lines, scored if all(line.pending is None for line in lines) else None)
    game.summary = summary_of(answer)
    if game.status != Game.Status.ABANDONED:
        game.status = Game.Status.COMPLETE if answer["complete"] else Game.Status.IN_PROGRESS
    game.hand_count = len(lines)
    game.save(update_fields=["summary", "status", "hand_count", "updated_at"])
    return answer


@transaction.atomic
def create_game(
    *,
    actor: Actor,
    format: str,
    players: Sequence[Player],
    conventions: object = "classic",
    first_dealer: Player | None = None,
    table_label: str = "",
    is_public: bool = True,
    requires_confirmation: bool = True,
    referees: Sequence[Any] = (),
) -> Game:
    """A new game: seats in score-sheet order (partnership: team 1 then team 2), conventions frozen."""
    policy.require_organiser(actor, "create games")
    if format not in PLAYER_COUNTS:
        raise SheetError.one(None, "format", f"must be one of {', '.join(PLAYER_COUNTS)}; {format!r} given")
    needed = PLAYER_COUNTS[format]
    if len(players) != needed:
        raise SheetError.one(None, "players", f"a {format} game needs {needed} players; {len(players)} given")
    if len({p.pk for p in players}) != len(players):
        raise SheetError.one(None, "players", "each seat needs a different player")
    names = [p.display_name for p in players]
    if len(set(names)) != len(names):
        raise SheetError.one(None, "players", "two players share a name: give one a different display name")
    resolved = resolve_conventions(conventions).as_dict()
    first_dealer = first_dealer or players[0]
    if first_dealer.pk not in {p.pk for p in players}:
        raise SheetError.one(None, "first_dealer", f"{first_dealer} is not playing in this game")
    game = Game.objects.create(
        format=format,
        conventions=resolved,
        player_names=names,
        first_dealer=first_dealer,
        first_dealer_name=first_dealer.display_name,
        table_label=table_label.strip(),
        is_public=is_public,
        requires_confirmation=requires_confirmation,
        created_by=actor.user,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=p, position=i, team=(i // 2 if format == "partnership" else None))
        for i, p in enumerate(players)
    )
    if referees:
        game.referees.set(referees)
    game = _lock_game(game.pk, seats=True)
    # The engine checks the request shape once, so a game that cannot be scored is never created.
    score_sheet(sheet_request(game, []))
    _refresh_summary(game, [])
    return game


@transaction.atomic
def abandon_game(*, actor: Actor, game: Game) -> Game:
    policy.require_organiser(actor, "abandon a game")
    game = _lock_game(game.pk)
    game.status = Game.Status.ABANDONED
    game.save(update_fields=["status", "updated_at"])
    return game


@transaction.atomic
def create_referee_link(*, actor: Actor, game: Game, label: str = "") -> RefereeLink:
    policy.require_organiser(actor, "create referee links")
    return RefereeLink.objects.create(game=game, token=secrets.token_urlsafe(32), label=label, created_by=actor.user)


@transaction.atomic
def revoke_referee_link(*, actor: Actor, link: RefereeLink) -> RefereeLink:
    policy.require_organiser(actor, "revoke referee links")
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


# ---------------------------------------------------------------------------------------------------
# Hands


def _new_version(game: Game, number: int, version: int, action: str, data: dict, actor: Actor, reason: str) -> Hand:
    return Hand(
        game=game,
        number=number,
        version=version,
        action=action,
        data=data,
        reason=reason,
        entered_by=actor.user,
        entered_via=actor.link if actor.user is None else None,
        entered_from=actor.address[:300],
        entered_at=timezone.now(),
        slot=slot_key(game.pk, number) if version == 1 else None,
        previous_slot_id=slot_key(game.pk, number - 1) if version == 1 and number > 1 else None,
    )


def _auto_confirm(game: Game, hand: Hand) -> None:
    if not game.requires_confirmation:
        hand.auto_confirmed = True
        hand.confirmed_at = hand.entered_at


def _check_hand_data(data: object) -> dict:
    if not isinstance(data, dict):
        raise SheetError.one(None, None, "a hand must be a JSON object as in the score-sheet contract")
    return data


@transaction.atomic
def record_hand(
    *, actor: Actor, game: Game, data: dict, once_key: str | None = None
) -> tuple[Hand | None, dict[str, Any] | None]:
    """Record the next hand of ``game``; it counts once confirmed (at once if the game needs no confirming).

    ``once_key`` (a web form's one-time key) makes a resubmitted form record nothing: the second
    call returns ``(None, None)``. The API does the same with its ``Idempotency-Key`` header.
    """
    data = _check_hand_data(data)
    game = _lock_game(game.pk)
    if once_key is not None:
        _, created = IdempotencyRecord.objects.get_or_create(
            actor=actor.key, key=f"form:{once_key}",
            defaults={"method": "POST", "path": f"game:{game.pk}", "fingerprint": "", "status_code": 201, "body": {}},
        )
        if not created:
            return None, None
    policy.require_can_record(actor, game)
    lines = _hands(game)
    number = len(lines) + 1
    hand = _new_version(game, number, 1, Hand.Action.ENTRY, data, actor, "")
    scored = validate_current(game, lines, {number: hand})
    _auto_confirm(game, hand)
    hand.save()
    lines.append(HandLine(number, [hand]))
    return hand, _refresh_summary(game, lines, scored)


def _line(lines: Sequence[HandLine], number: int) -> HandLine:
    for line in lines:
        if line.number == number:
            return line
    raise SheetError.one(number, None, f"there is no hand {number} in this game")


def _pin_player(game: Game, player_name: str | None, pin: str | None) -> Player | None:
    """The seated player accepting with their PIN, named as on this game's sheet."""
    if player_name is None and pin is None:
        return None
    if player_name not in game.player_names:
        raise SheetError.one(None, "player", f"{player_name!r} is not a player of this game")
    player = next(seat.player for seat in game.seats.all() if seat.position == game.player_names.index(player_name))
    if not player.confirm_pin or not check_password(pin or "", player.confirm_pin):
        raise NotAllowed(f"that is not {player}'s PIN")
    return player


@transaction.atomic
def confirm_hand(
    *, actor: Actor, game: Game, number: int, player_name: str | None = None, pin: str | None = None
) -> tuple[Hand, dict[str, Any]]:
    """Confirm the pending current version of hand ``number``: by the opponent (login or PIN) or a second official."""
    game = _lock_game(game.pk, seats=True)
    lines = _hands(game)
    line = _line(lines, number)
    hand = line.current
    if hand.is_confirmed:
        raise SheetError.one(number, None, f"hand {number} is already confirmed")
    pin_player = _pin_player(game, player_name, pin)
    if pin_player is None and not (policy.is_official(actor, game) or policy.seated_player(actor, game)):
        raise NotAllowed("only a player of this game or an official may confirm its hands")
    if pin_player is not None and not policy.is_official(actor, game) and policy.seated_player(actor, game) is None:
        raise NotAllowed("a PIN is typed on an official's device: sign in or use the referee link first")
    how = policy.require_can_confirm(actor, game, hand, pin_player)
    hand.confirmed_at = timezone.now()
    if how == "player":
        hand.confirmed_by_player = pin_player
    elif how == "link":
        hand.confirmed_via = actor.link
    else:
        hand.confirmed_by = actor.user
    hand.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_player", "confirmed_via"])
    return hand, _refresh_summary(game, lines)


def _next_confirmed(lines: Sequence[HandLine], number: int) -> bool:
    return any(line.number == number + 1 and line.counted is not None for line in lines)


def _amend(*, actor: Actor, game: Game, number: int, action: str, data: dict, reason: str) -> tuple[Hand, dict]:
    game = _lock_game(game.pk, seats=True)
    lines = _hands(game)
    line = _line(lines, number)
    verb = "correct" if action == Hand.Action.CORRECTION else "void"
    policy.require_can_amend(actor, game, number, _next_confirmed(lines, number), verb)
    reason = (reason or "").strip()
    if not reason:
        raise SheetError.one(number, "reason", f"say why you {verb} this hand")
    if len(reason) > MAX_REASON:
        raise SheetError.one(number, "reason", f"keep the reason under {MAX_REASON} characters")
    if action == Hand.Action.VOID and line.current.action == Hand.Action.VOID:
        raise SheetError.one(number, None, f"hand {number} is already void")
    previous = line.current
    hand = _new_version(game, number, previous.version + 1, action, data, actor, reason)
    scored = validate_current(game, lines, {number: hand})
    _auto_confirm(game, hand)
    previous.is_current = False
    previous.save(update_fields=["is_current"])
    hand.save()
    line.versions.append(hand)
    return hand, _refresh_summary(game, lines, scored)


@transaction.atomic
def correct_hand(*, actor: Actor, game: Game, number: int, data: dict, reason: str) -> tuple[Hand, dict[str, Any]]:
    """A new version of hand ``number``; every later hand and the result are rescored from it."""
    return _amend(actor=actor, game=game, number=number, action=Hand.Action.CORRECTION,
                  data=_check_hand_data(data), reason=reason)


@transaction.atomic
def void_hand(*, actor: Actor, game: Game, number: int, reason: str) -> tuple[Hand, dict[str, Any]]:
    """Take hand ``number`` out of the sheet (the number stays, marked void); later hands are rescored."""
    return _amend(actor=actor, game=game, number=number, action=Hand.Action.VOID, data={}, reason=reason)


__all__ = [
    "NotAllowed",
    "abandon_game",
    "confirm_hand",
    "correct_hand",
    "create_game",
    "create_player",
    "create_referee_link",
    "record_hand",
    "revoke_referee_link",
    "set_player_pin",
    "void_hand",
]
