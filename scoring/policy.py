"""Who may do what: the one place the roles are decided, called by the services (web and API alike).

Roles: an organiser (a staff user) may do everything; a referee (a user assigned to the game, or the
holder of an active referee link for it) may record, confirm as a second official, and correct or
void a hand until the next hand is confirmed; anyone may read a public game. A hand is accepted only
by the side it goes against (with their PIN or their own login) or by an official who did not enter
it; whoever entered a hand can never confirm it. An abandoned game is frozen until an organiser
reopens it. Personal data (emails, addresses, browser strings, PIN state) is for organisers only.
This module decides; it does not write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Game, Hand, Player, RefereeLink


class NotAllowed(Exception):
    """The actor may not do this; the message says why, for the person at the table."""


@dataclass(frozen=True)
class Actor:
    """Who is asking: a signed-in user, a referee link, or nobody; and from where."""

    user: object | None = None  # an authenticated django user, or None
    link: RefereeLink | None = None
    address: str = ""

    @property
    def is_organiser(self) -> bool:
        return bool(self.user is not None and getattr(self.user, "is_staff", False))

    @property
    def key(self) -> str:
        if self.user is not None:
            return f"user:{self.user.pk}"
        if self.link is not None:
            return f"link:{self.link.pk}"
        return "anonymous"

    def describe(self) -> str:
        if self.user is not None:
            return self.user.get_username()
        if self.link is not None:
            return f"referee link {self.link.label or self.link.pk}"
        return "anonymous"


def is_official(actor: Actor, game: Game) -> bool:
    """An organiser, a referee assigned to the game, or an active referee link of this game."""
    if actor.is_organiser:
        return True
    if actor.link is not None:
        return actor.link.is_active and actor.link.game_id == game.pk
    if actor.user is None:
        return False
    return game.referees.filter(pk=actor.user.pk).exists()


def seated_player(actor: Actor, game: Game) -> Player | None:
    """The game's player who is signed in as this actor, if any."""
    if actor.user is None:
        return None
    for seat in game.seats.all():
        if seat.player.user_id == actor.user.pk:
            return seat.player
    return None


def sees_personal_data(actor: Actor) -> bool:
    """Emails, IP addresses, browser strings and whether a player has a PIN: organisers only."""
    return actor.is_organiser


def require_organiser(actor: Actor, what: str) -> None:
    if not actor.is_organiser:
        raise NotAllowed(f"only an organiser may {what}")


def require_open(game: Game, what: str) -> None:
    """An abandoned game is frozen: nothing in it changes until an organiser reopens it."""
    if game.status == game.Status.ABANDONED:
        raise NotAllowed(f"this game was abandoned: no hand can be {what} until an organiser reopens it")


def require_can_record(actor: Actor, game: Game) -> None:
    if not is_official(actor, game):
        raise NotAllowed("only an organiser or this game's referee may record hands in it")
    require_open(game, "recorded")


def seat_name(game: Game, player: Player) -> str | None:
    """The name ``player`` has on this game's sheet (hands refer to players by it)."""
    for seat in game.seats.all():
        if seat.player_id == player.pk:
            return game.player_names[seat.position]
    return None


def require_may_try_confirming(actor: Actor, game: Game) -> None:
    """The caller's role, checked before anything else (before a PIN is even looked at): an official
    of the game, or one of its players signed in, on a game that is not frozen."""
    if not is_official(actor, game) and seated_player(actor, game) is None:
        raise NotAllowed("only a player of this game or an official may confirm its hands")
    require_open(game, "confirmed")


def _whose(hand: Hand, accepters: frozenset[str]) -> str:
    names = " or ".join(sorted(accepters)) or "nobody"
    return f"only {names} may accept hand {hand.number}: a hand is accepted by the side it goes against"


def require_may_accept(name: str, player: Player, hand: Hand, accepters: frozenset[str]) -> None:
    """A player accepting with their PIN: on the hand's losing side, and not its enterer."""
    if name not in accepters:
        raise NotAllowed(f"{name} cannot accept this hand; {_whose(hand, accepters)}")
    if player.user_id is not None and player.user_id == hand.entered_by_id:
        raise NotAllowed(f"{name} entered this hand and cannot confirm it")


def require_can_confirm(
    actor: Actor, game: Game, hand: Hand, *, accepters: frozenset[str], pin_player: Player | None = None
) -> str:
    """Check that this actor (or the player who typed their PIN) may confirm ``hand``; say who confirms.

    ``accepters`` are the names on the hand's losing side (``scoring.engine.acceptance``). A player
    accepts only a hand that goes against them; an official accepts only a hand they did not enter
    (a referee link never accepts what it entered); a seated player is held to the player's rule even
    when they are also an official.
    """
    require_may_try_confirming(actor, game)
    if pin_player is not None:
        require_may_accept(seat_name(game, pin_player) or str(pin_player), pin_player, hand, accepters)
        return "player"
    entered_user = hand.entered_by_id
    if actor.user is not None and entered_user is not None and actor.user.pk == entered_user:
        raise NotAllowed("whoever entered a hand cannot confirm it: the opponent or a second official must")
    if actor.user is None and actor.link is not None and hand.entered_via_id == actor.link.pk:
        raise NotAllowed(
            "this hand was entered from this referee link: the opponent confirms with their PIN, "
            "or a second official confirms"
        )
    me = seated_player(actor, game)
    if me is not None:
        name = seat_name(game, me) or str(me)
        if name not in accepters:
            raise NotAllowed(f"{name} cannot accept this hand; {_whose(hand, accepters)}")
        return "user"
    return "link" if actor.user is None else "user"


def require_can_amend(actor: Actor, game: Game, number: int, next_hand_confirmed: bool, what: str) -> None:
    """Corrections and voids: an organiser at any time, a referee until the next hand is confirmed."""
    if not actor.is_organiser and not is_official(actor, game):
        raise NotAllowed(f"only an organiser or this game's referee may {what} a hand")
    require_open(game, "corrected" if what == "correct" else "voided")
    if actor.is_organiser:
        return
    if next_hand_confirmed:
        raise NotAllowed(
            f"hand {number + 1} is already confirmed: only an organiser may {what} hand {number} now"
        )
