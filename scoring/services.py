"""Every write of the scoring app: players, games (abandon, reopen), hands (record, confirm, correct,
void), referee links and API tokens.

Each service takes keyword-only arguments, runs in one transaction, locks the game row first
(``game_lock``: the row and its hands in one round trip) so that two referees at one table can never
both record hand 5, asks the engine to score the result before anything is saved, and refreshes the
game's status and summary from the engine's answer. A confirmation with a PIN checks it under the
game's lock too (a keyed hash, ``pins``: microseconds); a wrong PIN is counted and committed, then
refused. A refused write raises ``SheetError`` (bad input: field and message), ``NotAllowed`` (role)
or ``PinLocked``; nothing already recorded changes. Who may do what is decided in ``policy``; which
side a hand goes against, in ``engine.acceptance``.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone

from . import pins, policy
from .engine import Problem, SheetError, resolve_conventions, score_sheet
from .game_lock import lock_game
from .models import (
    ApiToken,
    Game,
    GameStatusChange,
    Hand,
    IdempotencyRecord,
    PinFailure,
    Player,
    RefereeLink,
    Seat,
    slot_key,
    token_digest,
)
from .policy import Actor, NotAllowed
from .sheets import (
    MAX_HANDS,
    HandLine,
    accepters,
    counted_sheet,
    hand_lines,
    next_hand_confirmed,
    sheet_request,
    summary_of,
    validate_current,
)
from .signals import game_result_changed

PLAYER_COUNTS = {"standard": 2, "hollywood": 2, "rotation": 3, "jersey": 3, "partnership": 4}
MAX_REASON = 500
# ASCII digits only: what a phone's numeric keypad types (str.isdigit() also takes "١٢٣٤").
PIN_PATTERN = re.compile(r"[0-9]{4,8}")
PIN_FAILURES_ALLOWED = 5
PIN_LOCKOUT = timedelta(minutes=15)


class PinLocked(NotAllowed):
    """Too many wrong PINs for one player lately: no PIN is checked for them until ``retry_at``."""

    def __init__(self, message: str, retry_at):
        super().__init__(message)
        self.retry_at = retry_at


def valid_pin(pin: str) -> bool:
    return PIN_PATTERN.fullmatch(pin or "") is not None


# ---------------------------------------------------------------------------------------------------
# Players


@transaction.atomic
def create_player(
    *, actor: Actor, display_name: str, email: str = "", club: str = "", user=None, pin: str = ""
) -> Player:
    policy.require_organiser(actor, "add players")
    return create_player_unchecked(display_name=display_name, email=email, club=club, user=user, pin=pin)


@transaction.atomic
def create_player_unchecked(*, display_name: str, email: str = "", club: str = "", user=None, pin: str = "") -> Player:
    """``create_player`` without the role check, for a caller that has decided the role itself (an event's
    director registering a new player). Never call it from a view."""
    display_name = display_name.strip()
    if not display_name:
        raise SheetError.one(None, "display_name", "a player needs a name")
    if pin and not valid_pin(pin):
        raise SheetError.one(None, "pin", "a PIN is 4 to 8 digits (0-9)")
    existing = _same_name(display_name, club)
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
        existing = _same_name(display_name, club)
        if existing is not None:
            raise NameTaken(existing) from None
        raise


def _same_name(display_name: str, club: str) -> Player | None:
    """The club's player whose name is this one up to case ("Gail" and "gail" are one person at a table)."""
    return Player.objects.filter(display_name__iexact=display_name, club=club).order_by("pk").first()


class NameTaken(SheetError):
    """A player of that name (ignoring case) is already in the club: ``player`` is offered instead."""

    def __init__(self, player: Player):
        where = f" in {player.club}" if player.club else ""
        super().__init__([Problem(None, "display_name",
                                  f"{player.display_name} already exists{where}: use that player, or give "
                                  "another name")])
        self.player = player


@transaction.atomic
def set_player_pin(*, actor: Actor, player: Player, pin: str) -> None:
    policy.require_organiser(actor, "set a player's PIN")
    if not valid_pin(pin):
        raise SheetError.one(None, "pin", "a PIN is 4 to 8 digits (0-9)")
    player.confirm_pin = pins.hash_pin(pin)
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
    before, shown_before = game.settled_result, _scoreboard(game)
    game.summary = summary_of(answer)
    if game.status != Game.Status.ABANDONED:
        game.status = Game.Status.COMPLETE if answer["complete"] else Game.Status.IN_PROGRESS
    game.hand_count = len(lines)
    fields = ["summary", "status", "hand_count", "updated_at"]
    if _scoreboard(game) != shown_before:
        game.scores_changed_at = timezone.now()
        fields.append("scores_changed_at")
    game.save(update_fields=fields)
    _result_changed(game, before)
    return answer


def _scoreboard(game: Game) -> tuple:
    """What a scoreboard shows of a game: its counted totals, winner, margin and status, and whether it
    has begun (not how many hands wait to be confirmed, nor who deals next)."""
    summary = game.summary or {}
    return (summary.get("totals"), summary.get("winner"), summary.get("margin"), game.status, game.hand_count > 0)


def _result_changed(game: Game, before: tuple[str, int] | None) -> None:
    """Tell other apps (in this transaction) when the game's settled result moved; most writes leave it."""
    if game.settled_result != before:
        game_result_changed.send(sender=Game, game=game, before=before, after=game.settled_result)


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
    return create_game_unchecked(
        actor=actor, format=format, players=players, conventions=conventions, first_dealer=first_dealer,
        table_label=table_label, is_public=is_public, requires_confirmation=requires_confirmation, referees=referees,
    )


@transaction.atomic
def create_game_unchecked(
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
    origin: tuple[str, str, str] = ("", "", ""),
) -> Game:
    """``create_game`` without the role check, for a caller that has decided the role itself (an event's
    director pairing a round: every match's game). Never call it from a view. ``origin``: what the game
    is part of, that page and the page of the match it is played for, in the caller's words (a
    tournament's event); the sheet links back to them."""
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
        origin_label=origin[0][:120],
        origin_url=origin[1],
        origin_match_url=origin[2],
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
def abandon_game(*, actor: Actor, game: Game, reason: str = "") -> Game:
    """Freeze the game: no hand can be recorded, confirmed, corrected or voided until it is reopened."""
    policy.require_organiser_at(actor, _lock_game(game.pk), "abandon a game")
    return abandon_game_unchecked(actor=actor, game=game, reason=reason)


@transaction.atomic
def abandon_game_unchecked(*, actor: Actor, game: Game, reason: str = "", frozen_as: str = "") -> Game:
    """``abandon_game`` without the role check, for a caller that has decided the role itself (an event's
    director resetting a bracket match nobody should play any more). Never call it from a view.
    ``frozen_as`` names why in the caller's words ("Settled by the director"), shown instead of "Abandoned"."""
    game = _lock_game(game.pk)
    reason = _reason(reason, None, "abandon", required=False)
    if game.status != Game.Status.ABANDONED:
        before = game.settled_result
        game.status = Game.Status.ABANDONED
        game.frozen_as = frozen_as[:80]
        game.scores_changed_at = timezone.now()
        game.save(update_fields=["status", "frozen_as", "updated_at", "scores_changed_at"])
        GameStatusChange.objects.create(game=game, status=game.status, reason=reason, changed_by=actor.user)
        _result_changed(game, before)
    return game


@transaction.atomic
def reopen_game(*, actor: Actor, game: Game, reason: str) -> Game:
    """An organiser's decision, with a reason: the game is live again (in progress or complete, as its
    confirmed hands say)."""
    policy.require_organiser_at(actor, _lock_game(game.pk), "reopen a game")
    return reopen_game_unchecked(actor=actor, game=game, reason=reason)


@transaction.atomic
def reopen_game_unchecked(*, actor: Actor, game: Game, reason: str) -> Game:
    """``reopen_game`` without the role check, for a caller that has decided the role itself (an event's
    director taking back the result that had frozen a match's game). Never call it from a view."""
    game = _lock_game(game.pk, seats=True)
    reason = _reason(reason, None, "reopen this game")
    if game.status != Game.Status.ABANDONED:
        raise SheetError.one(None, "status", "this game is not abandoned")
    game.status = Game.Status.IN_PROGRESS
    game.frozen_as = ""
    game.scores_changed_at = timezone.now()  # its status moved back, whatever its totals
    game.save(update_fields=["status", "frozen_as", "scores_changed_at"])
    _refresh_summary(game, _hands(game))
    GameStatusChange.objects.create(game=game, status=game.status, reason=reason, changed_by=actor.user)
    return game


def _reason(reason: str | None, number: int | None, verb: str, *, required: bool = True) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise SheetError.one(number, "reason", f"say why you {verb}")
    if len(reason) > MAX_REASON:
        raise SheetError.one(number, "reason", f"keep the reason under {MAX_REASON} characters")
    return reason


def default_link_expiry(now=None):
    """24 hours after the event day: the end of the (club's local) day after the link is made."""
    today = timezone.localtime(now or timezone.now()).replace(hour=0, minute=0, second=0, microsecond=0)
    return today + timedelta(days=2)


@transaction.atomic
def create_referee_link(*, actor: Actor, game: Game, label: str = "", expires_at=None) -> RefereeLink:
    """A new referee link. Only its digest is stored: the returned link carries the token in ``token``,
    the one moment it exists (print its QR code now)."""
    policy.require_organiser(actor, "create referee links")
    return create_referee_link_unchecked(actor=actor, game=game, label=label, expires_at=expires_at)


@transaction.atomic
def create_referee_link_unchecked(*, actor: Actor, game: Game, label: str = "", expires_at=None) -> RefereeLink:
    """``create_referee_link`` without the role check, for a caller that has decided the role itself (an
    event's director printing the round's table cards). Never call it from a view."""
    token = secrets.token_urlsafe(32)
    link = RefereeLink.objects.create(game=game, token_digest=token_digest(token), label=label.strip()[:60],
                                      created_by=actor.user, expires_at=expires_at or default_link_expiry())
    link.token = token
    return link


@transaction.atomic
def extend_referee_link(*, actor: Actor, link: RefereeLink, hours: int = 24) -> RefereeLink:
    """Keep a link working ``hours`` longer (from now, or from its expiry if that is later)."""
    policy.require_organiser(actor, "extend referee links")
    if not 1 <= hours <= 24 * 14:
        raise SheetError.one(None, "hours", "extend a link by 1 hour to 14 days")
    link = RefereeLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is not None:
        raise SheetError.one(None, "link", "this link was revoked: make a new one")
    link.expires_at = max(link.expires_at, timezone.now()) + timedelta(hours=hours)
    link.save(update_fields=["expires_at"])
    return link


def issue_api_token(*, user) -> str:
    """A new API token for ``user``: the key is returned once, only its digest is stored."""
    key = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, digest=token_digest(key))
    return key


@transaction.atomic
def revoke_referee_link(*, actor: Actor, link: RefereeLink) -> RefereeLink:
    policy.require_organiser(actor, "revoke referee links")
    return revoke_referee_link_unchecked(link=link)


@transaction.atomic
def revoke_referee_link_unchecked(*, link: RefereeLink) -> RefereeLink:
    """``revoke_referee_link`` without the role check (an event's director replacing a table's links)."""
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


class AlreadyRecorded(SheetError):
    """A form sent again, or made for a hand number that is taken: nothing was recorded.

    ``number`` is the hand the form already recorded (or was made for), so the page can show it.
    """

    def __init__(self, number: int, message: str):
        super().__init__([Problem(number, "number", message)])
        self.number = number


def _fingerprint(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _claim_form(actor: Actor, game: Game, once_key: str, data: dict, number: int) -> None:
    """Claim a web form's one-time key for hand ``number``; a key already used records nothing, and
    the refusal says which hand it recorded and whether what was sent now differs from it."""
    record, created = IdempotencyRecord.objects.get_or_create(
        actor=actor.key, key=f"form:{once_key}",
        defaults={"method": "POST", "path": f"game:{game.pk}/hand:{number}", "fingerprint": _fingerprint(data),
                  "status_code": 201},
    )
    if created:
        return
    recorded = int(record.path.rsplit(":", 1)[1]) if "/hand:" in record.path else number - 1
    if record.fingerprint == _fingerprint(data):
        raise AlreadyRecorded(recorded, f"hand {recorded} was already recorded from this form; "
                                        "it was sent again and not recorded twice")
    raise AlreadyRecorded(recorded, f"this form already recorded hand {recorded}, so the values sent now were not "
                                    f"recorded: check hand {recorded} below, then enter the next hand")


@transaction.atomic
def record_hand(
    *, actor: Actor, game: Game, data: dict, once_key: str | None = None, number: int | None = None
) -> tuple[Hand, dict[str, Any]]:
    """Record the next hand of ``game``; it counts once confirmed (at once if the game needs no confirming).

    A web form says which hand it was made for (``number``) and carries a one-time key
    (``once_key``): a double tap, a resubmitted page or a form brought back with the Back button
    records nothing and raises ``AlreadyRecorded`` naming the hand that is already there. The API does
    the same with its ``Idempotency-Key`` header.
    """
    data = _check_hand_data(data)
    game, lines = lock_game(game.pk)
    next_number = len(lines) + 1
    if once_key is not None:
        _claim_form(actor, game, once_key, data, next_number)
    policy.require_can_record(actor, game)
    if number is not None and number != next_number:
        if number < next_number:
            raise AlreadyRecorded(number, f"hand {number} is already recorded; this form was made for it, so "
                                          "nothing was recorded. The next hand is "
                                          f"{next_number}")
        raise SheetError.one(number, "number", f"the next hand is {next_number}, not {number}: reload the page")
    if next_number > MAX_HANDS:
        raise SheetError.one(next_number, None, f"a game has at most {MAX_HANDS} hands")
    hand = _new_version(game, next_number, 1, Hand.Action.ENTRY, data, actor, "")
    scored = validate_current(game, lines, {next_number: hand})
    _auto_confirm(game, hand)
    hand.save()
    lines.append(HandLine(next_number, [hand]))
    return hand, _refresh_summary(game, lines, scored)


def _line(lines: Sequence[HandLine], number: int) -> HandLine:
    for line in lines:
        if line.number == number:
            return line
    raise SheetError.one(number, None, f"there is no hand {number} in this game")


def _seated(game: Game, player_name: str | None) -> Player:
    """The seated player named as on this game's sheet."""
    if player_name not in game.player_names:
        raise SheetError.one(None, "player", f"{player_name!r} is not a player of this game")
    position = game.player_names.index(player_name)
    return next(seat.player for seat in game.seats.all() if seat.position == position)


def _pending_line(lines: Sequence[HandLine], number: int) -> HandLine:
    line = _line(lines, number)
    if line.pending is None:
        raise SheetError.one(number, None, f"hand {number} is already confirmed")
    return line


def _check_pin(*, actor: Actor, player: Player, pin: str) -> NotAllowed | None:
    """Check a player's PIN, at most ``PIN_FAILURES_ALLOWED`` wrong ones per ``PIN_LOCKOUT``: the refusal
    to raise once the failure it records is committed, or None when the PIN is right.

    Wrong PINs are rows in the database, so the count holds across every worker and machine; the
    player's row is locked while one PIN is checked, so concurrent guesses (at two tables) are counted
    one by one. A keyed hash costs
    microseconds, so this runs under the game's lock. A right PIN kept under an older key or as an old
    PBKDF2 hash is stored again under the current key.
    """
    now = timezone.now()
    player = Player.objects.select_for_update().get(pk=player.pk)
    recent = list(
        PinFailure.objects.filter(player=player, failed_at__gt=now - PIN_LOCKOUT)
        .order_by("-failed_at").values_list("failed_at", flat=True)[:PIN_FAILURES_ALLOWED]
    )
    if len(recent) >= PIN_FAILURES_ALLOWED:
        return _locked(player, recent[-1] + PIN_LOCKOUT)
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
        raise SheetError.one(number, field, "name the player who is accepting and give their PIN")
    refusal: NotAllowed | None = None
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
                raise SheetError.one(number, "pin", "a PIN is 4 to 8 digits (0-9): type it again")
            refusal = _check_pin(actor=actor, player=pin_player, pin=pin or "")
        if refusal is None:
            confirmed = _confirm(actor=actor, game=locked, lines=lines, number=number, pin_player=pin_player)
    if refusal is not None:
        raise refusal
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
    hand.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_player", "confirmed_via"])
    return hand, _refresh_summary(game, lines)


def _amend(*, actor: Actor, game: Game, number: int, action: str, data: dict, reason: str) -> tuple[Hand, dict]:
    game, lines = lock_game(game.pk, seats=True)
    verb = "correct" if action == Hand.Action.CORRECTION else "void"
    policy.require_may_amend(actor, game, verb)  # before any hand is looked at: a stranger learns nothing
    line = _line(lines, number)
    policy.require_can_amend(actor, game, number, next_hand_confirmed(lines, number), verb)
    reason = _reason(reason, number, f"{verb} this hand")
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


class NotAccepted(Exception):
    """The hand was recorded, and the acceptance that came with it was refused (a wrong or mistyped PIN,
    a player it does not go against): the hand awaits acceptance. ``reason`` is the refusal's words."""

    def __init__(self, hand: Hand, reason: str):
        super().__init__(reason)
        self.hand = hand
        self.reason = reason


def record_and_accept_hand(
    *, actor: Actor, game: Game, data: dict, player_name: str, pin: str, once_key: str | None = None,
    number: int | None = None,
) -> tuple[Hand, dict[str, Any]]:
    """Record the next hand, then have the side it goes against accept it with a PIN typed after reading
    it back on the same phone: ``record_hand``, then ``confirm_hand`` (its PIN check in a transaction of
    its own, as always). A refused acceptance leaves the hand recorded and pending (``NotAccepted``); a
    refused hand records nothing and no PIN is looked at."""
    hand, _ = record_hand(actor=actor, game=game, data=data, once_key=once_key, number=number)
    try:
        return confirm_hand(actor=actor, game=game, number=hand.number, player_name=player_name, pin=pin)
    except SheetError as exc:
        raise NotAccepted(hand, "; ".join(p.message for p in exc.problems)) from exc
    except NotAllowed as exc:
        raise NotAccepted(hand, str(exc)) from exc


__all__ = [
    "AlreadyRecorded",
    "NameTaken",
    "NotAccepted",
    "NotAllowed",
    "PinLocked",
    "abandon_game",
    "abandon_game_unchecked",
    "confirm_hand",
    "correct_hand",
    "create_game",
    "create_game_unchecked",
    "create_player",
    "create_player_unchecked",
    "create_referee_link",
    "create_referee_link_unchecked",
    "extend_referee_link",
    "issue_api_token",
    "record_and_accept_hand",
    "record_hand",
    "reopen_game",
    "reopen_game_unchecked",
    "revoke_referee_link",
    "revoke_referee_link_unchecked",
    "set_player_pin",
    "void_hand",
]
