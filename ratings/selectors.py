"""Reads of the stored ratings for the pages, the API and seeding: each a constant number of queries.

Only names and numbers are read (never a player's email or PIN). It must not compute a rating: the
recompute job stores them (``ratings.services``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet
from django.urls import reverse

from scoring.models import Game, Player, Seat
from tournaments.models import Match, MatchGame

from .models import PlayerRating, RatingPoint


def rating_list() -> QuerySet[PlayerRating]:
    """Every rated player, best first, with the player's name: one query a page."""
    return (PlayerRating.objects.select_related("player").only(
        "rank", "mu", "sigma", "rating", "games", "player__id", "player__display_name", "player__club")
        .order_by("rank"))


def conservative_ratings(player_ids: Iterable[int]) -> dict[int, float]:
    """{player id: mu - 3 sigma} of those of the players who have a rating (one query): what seeding by
    rating (OpenSkill) sorts by (``tournaments.ratings_source``)."""
    return dict(PlayerRating.objects.filter(player_id__in=list(player_ids)).values_list("player_id", "rating"))


def rated_player(pk: int) -> tuple[Player | None, PlayerRating | None, int | None]:
    """(player, its rating or None, the kept player's id when ``pk`` is a merged duplicate): one query."""
    player = (Player.everyone.filter(pk=pk).select_related("openskill")
              .only("id", "display_name", "club", "merged_into", "openskill__mu", "openskill__sigma",
                    "openskill__rating", "openskill__games", "openskill__rank", "openskill__updated").first())
    if player is None:
        return None, None, None
    if player.merged_into_id is not None:
        return player, None, player.merged_into_id
    return player, getattr(player, "openskill", None), None


def history(player_id: int) -> list[RatingPoint]:
    """The player's rating after each of their results, oldest first (one query)."""
    return list(RatingPoint.objects.filter(player_id=player_id).only("number", "at", "mu", "sigma", "game_id",
                                                                   "match_id").order_by("number"))


@dataclass(frozen=True)
class RatedResult:
    """What moved a rating, as the player's page names it: whom they played, where, and how it went."""

    against: str  # "Bob", or "Bob, Cleo" (a three-handed game), or "Bob & Cleo" (the other team)
    where: str  # "Thursday Swiss, round 2", "club game"
    url: str  # the match's page, or the game's sheet
    change: float | None  # the rating's move (None for the first result)


def rated_results(player_id: int, points: list[RatingPoint]) -> list[RatedResult]:
    """Each point's result in words (four queries, however many results). Ratings count public results only
    (``rated_results``), so nothing here is private."""
    match_ids = {p.match_id for p in points if p.match_id}
    first_game = dict(MatchGame.objects.filter(match_id__in=match_ids).order_by("match_id", "number")
                      .values_list("match_id", "game_id").distinct())
    matches = {m.pk: m for m in Match.objects.filter(pk__in=match_ids).select_related("event", "round")
               .only("id", "bracket_id", "event__id", "event__name", "round__number")}
    game_ids = {p.game_id for p in points if p.game_id} | set(first_game.values())
    names = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "player_names"))
    seats: dict[int, list[tuple[int, int, int | None]]] = {}
    for game_id, position, seat_player, team in Seat.objects.filter(game_id__in=game_ids).values_list(
            "game_id", "position", "player_id", "team"):
        seats.setdefault(game_id, []).append((position, seat_player, team))
    out, before = [], None
    for p in points:
        game_id = p.game_id or first_game.get(p.match_id)
        rows = sorted(seats.get(game_id, []))
        mine = next((team if team is not None else position for position, who, team in rows if who == player_id),
                    None)
        others = [names.get(game_id, [])[position] for position, who, team in rows
                  if who != player_id and (team is None or team != mine) and position < len(names.get(game_id, []))]
        joiner = " & " if any(team is not None for _, _, team in rows) else ", "
        if p.match_id and p.match_id in matches:
            match = matches[p.match_id]
            stage = f"round {match.round.number}" if match.round_id else f"match {match.bracket_id}"
            where, url = f"{match.event.name}, {stage}", reverse("tournaments:match", args=[match.event.pk, match.pk])
        elif p.game_id:
            where, url = "club game", reverse("scoring:game_detail", args=[p.game_id])
        else:  # stored before ratings named their results: the next recompute names it
            where, url = "", ""
        out.append(RatedResult(joiner.join(others), where, url, None if before is None else p.rating - before))
        before = p.rating
    return out
