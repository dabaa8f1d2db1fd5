"""Games: creating one (seats in score-sheet order, conventions frozen, the engine's check that it can be
scored), abandoning (freezing) and reopening it, the game's row locked for every write, and its stored
summary and status refreshed from the engine's answer after every hand (telling other apps when the
settled result moved).

It must not record or confirm hands (``hands``) nor decide roles (``policy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from core import raw_rows

from .. import policy
from ..engine import resolve_conventions
from ..models import (
    Game,
    GameStatusChange,
    Hand,
    Player,
    Seat,
)
from ..policy import Actor
from ..sheets import (
    HandLine,
    counted_sheet,
    hand_lines,
    summary_of,
)
from ..signals import game_result_changed
from .refusals import refusal, service

PLAYER_COUNTS = {"standard": 2, "hollywood": 2, "rotation": 3, "jersey": 3, "partnership": 4}
MAX_REASON = 500


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


def refresh_summary(game: Game, lines: Sequence[HandLine], scored: dict[str, Any] | None = None, *,
                    inserting: Hand | None = None, also: Sequence[str] = ()) -> dict[str, Any]:
    """Store the counted sheet's summary and status; ``scored`` is the current hands' answer, reused
    when every current version is confirmed (then the counted sheet is the same sheet). ``inserting``:
    a new hand version (already in ``lines``) stored in the same round trip, before the game's row;
    ``also``: more of the game's fields the caller changed, saved with it."""
    answer = counted_sheet(game, lines, scored if all(line.pending is None for line in lines) else None)
    before, shown_before = game.settled_result, _scoreboard(game)
    game.summary = summary_of(answer)
    if game.status != Game.Status.ABANDONED:
        game.status = Game.Status.COMPLETE if answer["complete"] else Game.Status.IN_PROGRESS
    game.hand_count = len(lines)
    fields = ["summary", "status", "hand_count", "updated_at", *also]
    if _scoreboard(game) != shown_before:
        game.scores_changed_at = timezone.now()
        fields.append("scores_changed_at")
    if inserting is not None:
        raw_rows.insert_then_update(inserting, game, fields)
    else:
        raw_rows.update(game, fields)
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


@service
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


@dataclass(frozen=True)
class NewGame:
    """A game to make, as ``create_game_unchecked`` takes it (but its actor and referees)."""

    format: str
    players: Sequence[Player]
    conventions: object = "classic"
    first_dealer: Player | None = None
    table_label: str = ""
    is_public: bool = True
    requires_confirmation: bool = True
    origin: tuple[str, str, str] = ("", "", "")


@service
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
    planned = planned_game(actor=actor, game=NewGame(
        format=format, players=players, conventions=conventions, first_dealer=first_dealer, table_label=table_label,
        is_public=is_public, requires_confirmation=requires_confirmation, origin=origin))
    [game] = create_planned_games(games=[planned])
    raw_rows.prefetched(game, "seats", planned.seats)  # its answer reads them without a query
    if referees:
        game.referees.set(referees)
    return game


@dataclass(frozen=True)
class PlannedGame:
    """A game checked and scored, with its seats, not saved yet."""

    game: Game
    seats: list[Seat]


@service
def planned_game(*, actor: Actor, game: NewGame) -> PlannedGame:
    """The game ``game`` asks for, checked and scored as a game of no hands yet (its stored summary), not
    saved: ``create_planned_games`` saves many at once. A game that cannot be scored is refused here, so
    it is never created."""
    format, players = game.format, game.players
    if format not in PLAYER_COUNTS:
        raise refusal(None, "format", f"must be one of {', '.join(PLAYER_COUNTS)}; {format!r} given")
    needed = PLAYER_COUNTS[format]
    if len(players) != needed:
        raise refusal(None, "players", f"a {format} game needs {needed} players; {len(players)} given")
    if len({p.pk for p in players}) != len(players):
        raise refusal(None, "players", "each seat needs a different player")
    names = [p.display_name for p in players]
    if len(set(names)) != len(names):
        raise refusal(None, "players", "two players share a name: give one a different display name")
    first_dealer = game.first_dealer or players[0]
    if first_dealer.pk not in {p.pk for p in players}:
        raise refusal(None, "first_dealer", f"{first_dealer} is not playing in this game")
    made = raw_rows.new(  # Game(...) without its constructor's per-field work: 500 at once in a round
        Game, {"first_dealer": first_dealer, "created_by": actor.user},
        format=format,
        conventions=resolve_conventions(game.conventions).as_dict(),
        player_names=names,
        first_dealer_name=first_dealer.display_name,
        table_label=game.table_label.strip(),
        is_public=game.is_public,
        requires_confirmation=game.requires_confirmation,
        origin_label=game.origin[0][:120],
        origin_url=game.origin[1],
        origin_match_url=game.origin[2],
    )
    # What ``refresh_summary`` stores after a hand, for none: the engine checks the request's shape on the way.
    answer = counted_sheet(made, [])
    made.summary = summary_of(answer)
    made.status = Game.Status.COMPLETE if answer["complete"] else Game.Status.IN_PROGRESS
    made.scores_changed_at = timezone.now()  # the scoreboard now shows its totals
    return PlannedGame(made, [raw_rows.new(Seat, {"player": p}, position=i,
                                           team=(i // 2 if format == "partnership" else None))
                              for i, p in enumerate(players)])


@service
@transaction.atomic
def create_planned_games(*, games: Sequence[PlannedGame]) -> list[Game]:
    """Save games from ``planned_game`` with their seats: two statements however many (a round of 500
    tables is published in one request, issue 35)."""
    raw_rows.insert_many([planned.game for planned in games])
    for planned in games:
        for seat in planned.seats:
            seat.game = planned.game
    raw_rows.insert_many([seat for planned in games for seat in planned.seats])
    return [planned.game for planned in games]


@service
@transaction.atomic
def abandon_game(*, actor: Actor, game: Game, reason: str = "") -> Game:
    """Freeze the game: no hand can be recorded, confirmed, corrected or voided until it is reopened."""
    policy.require_organiser_at(actor, _lock_game(game.pk), "abandon a game")
    return abandon_game_unchecked(actor=actor, game=game, reason=reason)


@service
@transaction.atomic
def abandon_game_unchecked(*, actor: Actor, game: Game, reason: str = "", frozen_as: str = "") -> Game:
    """``abandon_game`` without the role check, for a caller that has decided the role itself (an event's
    director resetting a bracket match nobody should play any more). Never call it from a view.
    ``frozen_as`` names why in the caller's words ("Settled by the director"), shown instead of "Abandoned"."""
    game = _lock_game(game.pk)
    reason = reason_text(reason, None, "abandon", required=False)
    if game.status != Game.Status.ABANDONED:
        before = game.settled_result
        game.status = Game.Status.ABANDONED
        game.frozen_as = frozen_as[:80]
        game.scores_changed_at = timezone.now()
        game.save(update_fields=["status", "frozen_as", "updated_at", "scores_changed_at"])
        GameStatusChange.objects.create(game=game, status=game.status, reason=reason, changed_by=actor.user)
        _result_changed(game, before)
    return game


@service
@transaction.atomic
def delete_unplayed_games_unchecked(*, game_ids: Sequence[int]) -> int:
    """Delete the games among ``game_ids`` that have no hand at all (their seats and referee links with
    them), for a caller that has decided the role itself (an event deleted before any result). A game
    with a hand is never deleted: its hands are the record. Returns how many were deleted."""
    unplayed = Game.objects.filter(pk__in=list(game_ids), hand_count=0).exclude(
        pk__in=Hand.objects.filter(game_id__in=list(game_ids)).values("game_id"))
    return unplayed.delete()[1].get(Game._meta.label, 0)


@service
@transaction.atomic
def reopen_game(*, actor: Actor, game: Game, reason: str) -> Game:
    """An organiser's decision, with a reason: the game is live again (in progress or complete, as its
    confirmed hands say)."""
    policy.require_organiser_at(actor, _lock_game(game.pk), "reopen a game")
    return reopen_game_unchecked(actor=actor, game=game, reason=reason)


@service
@transaction.atomic
def reopen_game_unchecked(*, actor: Actor, game: Game, reason: str) -> Game:
    """``reopen_game`` without the role check, for a caller that has decided the role itself (an event's
    director taking back the result that had frozen a match's game). Never call it from a view."""
    game = _lock_game(game.pk, seats=True)
    reason = reason_text(reason, None, "reopen this game")
    if closed := policy.closed_by_authority(game):
        raise refusal(None, "status", f"{closed}: its games cannot be reopened")
    if game.status != Game.Status.ABANDONED:
        raise refusal(None, "status", "this game is not abandoned")
    game.status = Game.Status.IN_PROGRESS
    game.frozen_as = ""
    game.scores_changed_at = timezone.now()  # its status moved back, whatever its totals
    game.save(update_fields=["status", "frozen_as", "scores_changed_at"])
    refresh_summary(game, _hands(game))
    GameStatusChange.objects.create(game=game, status=game.status, reason=reason, changed_by=actor.user)
    return game


def reason_text(reason: str | None, number: int | None, verb: str, *, required: bool = True) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise refusal(number, "reason", f"say why you {verb}")
    if len(reason) > MAX_REASON:
        raise refusal(number, "reason", f"keep the reason under {MAX_REASON} characters")
    return reason


