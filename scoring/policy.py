"""Who may do what: the one place the roles are decided, called by the services (web and API alike).

Roles: an organiser (a staff user) may do everything; a referee (a user assigned to the game, or the
holder of an active referee link for it) may record, confirm as a second official, and correct or
void a hand until the next hand is confirmed; anyone may read a public game. Whoever entered a hand
can never confirm it. This module decides; it does not write.
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


def require_organiser(actor: Actor, what: str) -> None:
    if not actor.is_organiser:
        raise NotAllowed(f"only an organiser may {what}")


def require_can_record(actor: Actor, game: Game) -> None:
    if not is_official(actor, game):
        raise NotAllowed("only an organiser or this game's referee may record hands in it")
    if game.status == game.Status.ABANDONED:
        raise NotAllowed("this game was abandoned; no more hands can be recorded")


def require_can_confirm(actor: Actor, game: Game, hand: Hand, pin_player: Player | None) -> str:
    """Check that this actor (or the player who typed their PIN) may confirm ``hand``; say who confirms."""
    entered_user = hand.entered_by_id
    if pin_player is not None:
        if entered_user is not None and pin_player.user_id == entered_user:
            raise NotAllowed(f"{pin_player} entered this hand and cannot confirm it")
        return "player"
    if actor.user is not None and entered_user is not None and actor.user.pk == entered_user:
        raise NotAllowed("whoever entered a hand cannot confirm it: the opponent or a second official must")
    if actor.link is not None and hand.entered_via_id == actor.link.pk:
        raise NotAllowed(
            "this hand was entered from this referee link: the opponent confirms with their PIN, "
            "or a second official confirms"
        )
    if seated_player(actor, game) is not None:
        return "user"
    if is_official(actor, game):
        return "link" if actor.user is None else "user"
    raise NotAllowed("only a player of this game or an official may confirm its hands")


def require_can_amend(actor: Actor, game: Game, number: int, next_hand_confirmed: bool, what: str) -> None:
    """Corrections and voids: an organiser at any time, a referee until the next hand is confirmed."""
    if actor.is_organiser:
        return
    if not is_official(actor, game):
        raise NotAllowed(f"only an organiser or this game's referee may {what} a hand")
    if next_hand_confirmed:
        raise NotAllowed(
            f"hand {number + 1} is already confirmed: only an organiser may {what} hand {number} now"
        )
