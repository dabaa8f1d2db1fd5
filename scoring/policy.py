"""Who may do what: the one place the roles are decided, called by the services (web and API alike).

Roles: an organiser (a staff user) may do everything; a referee (a user assigned to the game, or the
holder of an active referee link for it) may record, confirm as a second official, and correct or
void a hand until the next hand is confirmed; anyone may read a public game. A hand is accepted only
by the side it goes against (with their PIN or their own login) or by an official who did not enter
it; whoever entered a hand can never confirm it. An abandoned game is frozen until an organiser
reopens it. Personal data (emails, addresses, browser strings, PIN state) is for organisers only.

Some games belong to another app, which decides who officiates them and who reads them: an event's
games follow the event's officials as they are now, whatever the game's status. That app registers a
``GameAuthority`` (``register_game_authority``) and this module asks it; ``scoring`` never imports it.
A game no authority claims keeps its own referees and its own ``is_public``. Whoever may not read a
game is refused as if it did not exist (``Game.DoesNotExist``: a 404), never told what it holds.
This module decides; it does not write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn, Protocol

from django.db.models import Q

from core.refusals import Problem, Refusal

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from .models import Game, Hand, Player, RefereeLink


class NotAllowed(Refusal):
    """The actor may not do this; the message says why, for the person at the table (403 in the API)."""

    default_status = 403

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__([Problem(field, message)])


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


@dataclass(frozen=True)
class Ruling:
    """What a game's authority says of one user (or of anonymous callers) at one of its games."""

    officiates: bool  # records, confirms as an official, corrects and voids as a referee
    reads: bool  # sees the game: its sheet, hands and history
    # Why nothing may change in the game any more, in the authority's words ("Thursday Swiss was
    # cancelled"), whoever asks and whatever the game's status; "" while it may.
    closed: str = ""
    directs: bool = False  # decides for the table as its director would (takes back time called by mistake)


class GameAuthority(Protocol):
    """An app that decides who officiates and who reads some games (tournaments: every game an event
    made). It answers from what it stores now; scoring asks it and never tells it anything."""

    def ruling(self, game_id: int, user_id: int | None) -> Ruling | None:
        """None when the game is not one of its own."""

    def governed_games(self) -> QuerySet:
        """Its games' ids (a ``values`` query of one column), for filtering game lists."""

    def readable_games(self, user_id: int | None) -> QuerySet:
        """The ids of its games that ``user_id`` (None: anyone) may read (a ``values`` query)."""


_AUTHORITIES: list[GameAuthority] = []


def register_game_authority(authority: GameAuthority) -> None:
    """Called by an app at start-up (``AppConfig.ready``); registering twice is harmless."""
    if authority not in _AUTHORITIES:
        _AUTHORITIES.append(authority)


def _user_id(actor: Actor) -> int | None:
    return actor.user.pk if actor.user is not None else None


def _ruling(actor: Actor, game: Game) -> Ruling | None:
    """The authority's answer for this actor at this game, asked once per game row loaded (a page asks
    for each hand it shows; the services load the row afresh, so a change of officials is never missed)."""
    asked = game.__dict__.setdefault("_authority_rulings", {})
    uid = _user_id(actor)
    if uid not in asked:
        asked[uid] = next((r for a in _AUTHORITIES if (r := a.ruling(game.pk, uid)) is not None), None)
    return asked[uid]


def _is_own_referee(actor: Actor, game: Game) -> bool:
    return actor.user is not None and game.referees.filter(pk=actor.user.pk).exists()


def is_official(actor: Actor, game: Game) -> bool:
    """An organiser, an active referee link of this game, or a user who officiates it: its authority's
    officials for a game another app governs (an event's, now), else a referee assigned to the game."""
    if actor.is_organiser:
        return True
    if actor.link is not None:
        return actor.link.is_active and actor.link.game_id == game.pk
    if actor.user is None:
        return False
    ruling = _ruling(actor, game)
    return ruling.officiates if ruling is not None else _is_own_referee(actor, game)


def can_read(actor: Actor, game: Game) -> bool:
    """Organisers; an active referee link of this game; its players signed in (their own game); then, for
    a game another app governs, whoever it says (an event's readers), else anyone when the game is
    public, and its referees."""
    if actor.is_organiser:
        return True
    if actor.link is not None and actor.link.is_active and actor.link.game_id == game.pk:
        return True
    if seated_player(actor, game) is not None:
        return True
    ruling = _ruling(actor, game)
    if ruling is not None:
        return ruling.reads
    return game.is_public or _is_own_referee(actor, game)


def readable_games_filter(actor: Actor) -> Q | None:
    """The ``Game`` filter of what ``can_read`` lets this actor read (None: everything), for lists."""
    if actor.is_organiser:
        return None
    uid = _user_id(actor)
    own = Q(is_public=True) | Q(referees=uid) if uid is not None else Q(is_public=True)
    for authority in _AUTHORITIES:
        own &= ~Q(pk__in=authority.governed_games())
    visible = own
    for authority in _AUTHORITIES:
        visible |= Q(pk__in=authority.readable_games(uid))
    if uid is not None:
        visible |= Q(seats__player__user=uid)
    if actor.link is not None and actor.link.is_active:
        visible |= Q(pk=actor.link.game_id)
    return visible


def refuse(actor: Actor, game: Game, message: str) -> NoReturn:
    """Refuse ``actor`` at ``game``: in words (``NotAllowed``) to whoever may read the game, and as a game
    that does not exist to whoever may not (neither that it exists nor what it holds is told)."""
    if not can_read(actor, game):
        raise type(game).DoesNotExist("no such game, or it is not visible to this caller")
    raise NotAllowed(message)


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


class PinAuthority(Protocol):
    """An app whose officials may set some players' PINs (tournaments: an event's directors, for the
    players entered in it). It answers from what it stores now; scoring never imports it."""

    def may_set_pin(self, player_id: int, user_id: int) -> bool: ...


_PIN_AUTHORITIES: list[PinAuthority] = []


def register_pin_authority(authority: PinAuthority) -> None:
    """Called by an app at start-up (``AppConfig.ready``); registering twice is harmless."""
    if authority not in _PIN_AUTHORITIES:
        _PIN_AUTHORITIES.append(authority)


def may_set_pin(actor: Actor, player: Player) -> bool:
    """Organisers; and whoever an authority names (an event's directors, for its entrants)."""
    if actor.is_organiser:
        return True
    if actor.user is None or actor.link is not None:
        return False
    return any(a.may_set_pin(player.pk, actor.user.pk) for a in _PIN_AUTHORITIES)


def require_may_set_pin(actor: Actor, player: Player) -> None:
    if not may_set_pin(actor, player):
        raise NotAllowed("only an organiser, or a director of an event the player is entered in, may set "
                         "a player's PIN")


def require_organiser_at(actor: Actor, game: Game, what: str) -> None:
    """An organiser's act on a game: refused in words to whoever may read the game, as "not found" to others."""
    if not actor.is_organiser:
        refuse(actor, game, f"only an organiser may {what}")


def closed_by_authority(game: Game) -> str:
    """Why the game's authority has closed it for good (its event was cancelled), or "" (one query for a
    game another app governs, asked once per game row)."""
    ruling = _ruling(Actor(), game)
    return ruling.closed if ruling is not None else ""


def require_not_closed(game: Game, what: str) -> None:
    """A game its authority has closed (its event cancelled): nothing in it changes, even by an organiser."""
    if closed := closed_by_authority(game):
        raise NotAllowed(f"{closed}: no hand can be {what} in its games")


def require_open(game: Game, what: str) -> None:
    """An abandoned game is frozen: nothing in it changes until an organiser reopens it. A game its
    authority has closed never changes again (asked only of a game not being played: those of a
    cancelled event were all frozen when it was cancelled, so the hands being played pay nothing)."""
    if game.status != game.Status.IN_PROGRESS:
        require_not_closed(game, what)
    if game.status == game.Status.ABANDONED:
        raise NotAllowed(f"this game was abandoned: no hand can be {what} until an organiser reopens it")


def require_can_record(actor: Actor, game: Game) -> None:
    if not is_official(actor, game):
        refuse(actor, game, "only an organiser or this game's referee may record hands in it")
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
        refuse(actor, game, "only a player of this game or an official may confirm its hands")
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


def may_direct(actor: Actor, game: Game) -> bool:
    """An organiser, or a director of the app that governs the game (an event's, for its tables)."""
    if actor.is_organiser:
        return True
    if actor.user is None:
        return False
    ruling = _ruling(actor, game)
    return ruling is not None and ruling.directs


def require_may_direct(actor: Actor, game: Game, what: str) -> None:
    if not may_direct(actor, game):
        refuse(actor, game, f"only an organiser or a director of this table's event may {what}")


def require_may_amend(actor: Actor, game: Game, what: str) -> None:
    """The caller's role for a correction or a void, checked before any hand is looked at."""
    if not is_official(actor, game):
        refuse(actor, game, f"only an organiser or this game's referee may {what} a hand")
    require_open(game, "corrected" if what == "correct" else "voided")


def require_can_amend(actor: Actor, game: Game, number: int, next_hand_confirmed: bool, what: str) -> None:
    """Corrections and voids: an organiser at any time, a referee until the next hand is confirmed."""
    require_may_amend(actor, game, what)
    if actor.is_organiser:
        return
    if next_hand_confirmed:
        raise NotAllowed(
            f"hand {number + 1} is already confirmed: only an organiser may {what} hand {number} now"
        )
