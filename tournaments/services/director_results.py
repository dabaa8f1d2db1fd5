"""Directors' results: a forfeit, an adjusted result (or a draw), and going back to the games' result.
A director's result freezes the match's games still being played; clearing it reopens them.

It must not change a game's hands: the games keep their own record, the director's result stands beside it.
"""

from __future__ import annotations

from django.db import transaction

from scoring import services as scoring
from scoring.models import Game, GameStatusChange
from tournaments.models import Entry, Match, MatchGame, MatchResult
from tournaments.policy import Actor
from tournaments.services.base import refusing
from tournaments.signals import match_result_changed
from tournaments.stored_event import sides

from ..answers.job import bump
from .base import MAX_STORED, error, lock_event_to_change, reason_text

# ---------------------------------------------------------------------------------------------------
# Directors' results


def _director_result(actor: Actor, match: Match, kind: str, winner: Entry | None, margin: int | None,
                     reason: str) -> MatchResult:
    event = lock_event_to_change(actor, match.event, "record results")
    match = Match.objects.select_related("round").get(pk=match.pk, event=event)
    if match.reset_at is not None:
        raise error("match", "this bracket match was reset: record the result on the match opened in its place")
    if match.is_bye:
        raise error("match", "a bye has no result to record")
    if kind == MatchResult.Kind.CLEARED and not match.results.exists():
        raise error("match", "this match has no director's result to clear")
    reason = reason_text(reason)
    players = sides(match)
    if kind != MatchResult.Kind.CLEARED:
        if winner is None and (kind == MatchResult.Kind.FORFEIT or event.is_elimination):
            raise error("winner", "name the winner" + (": a bracket match cannot be drawn"
                                                        if event.is_elimination else ""))
        if winner is not None and winner.pk not in players:
            raise error("winner", f"{winner.player} does not play in this match")
    if margin is not None and (type(margin) is not int or not 0 <= margin <= MAX_STORED):
        raise error("margin", f"a margin is a whole number from 0 to {MAX_STORED}; {margin!r} given")
    if kind == MatchResult.Kind.ADJUSTED:
        if margin is None:
            raise error("margin", "give the margin")
        if winner is None and margin:
            raise error("margin", f"a draw has no margin; {margin} given")
    result = MatchResult.objects.create(match=match, kind=kind, winner=winner, margin=margin, reason=reason,
                                        entered_by=actor.user)
    _settle_games(actor, match, kind, reason)
    bump(event)
    match_result_changed.send(sender=Match, match=match)
    return result


DECIDED_BY_DIRECTOR = "the match was decided by a director"
# What the game's pages say instead of "Abandoned" (scoring shows the words it is given).
SETTLED_BY_DIRECTOR = "Settled by the director"


def _settle_games(actor: Actor, match: Match, kind: str, reason: str) -> None:
    """A director's result freezes the match's games still being played (nobody goes on recording hands
    at a table whose result is settled); going back to the games' result reopens those it froze."""
    games = Game.objects.filter(pk__in=MatchGame.objects.filter(match=match).values("game_id"))
    if kind != MatchResult.Kind.CLEARED:
        for game in games.filter(status=Game.Status.IN_PROGRESS):
            scoring.abandon_game_unchecked(actor=actor, game=game, reason=f"{DECIDED_BY_DIRECTOR}: {reason}"[:500],
                                           frozen_as=SETTLED_BY_DIRECTOR)
        return
    for game in games.filter(status=Game.Status.ABANDONED):
        last = GameStatusChange.objects.filter(game=game).order_by("-changed_at", "-pk").first()
        if last is not None and last.reason.startswith(DECIDED_BY_DIRECTOR):
            scoring.reopen_game_unchecked(actor=actor, game=game, reason=f"back to the games' result: {reason}"[:500])


@refusing
@transaction.atomic
def record_forfeit(*, actor: Actor, match: Match, winner: Entry, reason: str) -> MatchResult:
    """The match is won by ``winner`` by forfeit (the event's forfeit margin), whatever its games say."""
    return _director_result(actor, match, MatchResult.Kind.FORFEIT, winner, None, reason)


@refusing
@transaction.atomic
def record_adjusted_result(*, actor: Actor, match: Match, winner: Entry | None, margin: int,
                           reason: str) -> MatchResult:
    """A director's result for the match (``winner`` None: a draw, Swiss and round robin only)."""
    return _director_result(actor, match, MatchResult.Kind.ADJUSTED, winner, margin, reason)


@refusing
@transaction.atomic
def clear_director_result(*, actor: Actor, match: Match, reason: str) -> MatchResult:
    """Back to what the match's games say; the earlier forfeit or adjustment stays in the history."""
    return _director_result(actor, match, MatchResult.Kind.CLEARED, None, None, reason)

