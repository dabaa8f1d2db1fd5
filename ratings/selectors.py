"""Reads of the stored ratings for the pages, the API and seeding: each a constant number of queries.

Only names and numbers are read (never a player's email or PIN). It must not compute a rating: the
recompute job stores them (``ratings.services``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from scoring.models import Player

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
    return list(RatingPoint.objects.filter(player_id=player_id).only("number", "at", "mu", "sigma")
                .order_by("number"))
