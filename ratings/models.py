"""Stored ratings: each rated player's current OpenSkill rating and its history, one point per result.

Both tables are derived data, rewritten whole by the recompute job (``ratings.services.recompute``) from
the finished results; nothing else writes them, and no ``save()`` or signal has side effects here.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.models import Game, Player
from tournaments.models import Match

from .engine import PROVISIONAL_GAMES, conservative


class PlayerRating(models.Model):
    """A player's rating after every finished result so far. ``rating`` is ``mu - 3 sigma`` and ``rank``
    the place in the rating list (1 best), both kept with the row so that the list reads one table."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="openskill")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    games = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    updated = models.DateTimeField()

    class Meta:
        ordering = ["rank"]
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="player_rating_sigma_positive"),
            models.CheckConstraint(condition=Q(games__gte=1), name="player_rating_has_games"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="player_rating_rank_positive"),
            models.UniqueConstraint(fields=["rank"], name="player_rating_one_per_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.1f} after {self.games}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingPoint(models.Model):
    """A player's rating right after one of their results (``number``: the player's 1st, 2nd, ... result)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points", db_index=False)
    number = models.PositiveIntegerField()
    at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    # The result that moved it: a club game or a tournament match (the page names the opponent and event).
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["player", "number"]
        constraints = [
            models.UniqueConstraint(fields=["player", "number"], name="rating_point_one_per_player_result"),
            models.CheckConstraint(condition=Q(number__gte=1), name="rating_point_number_positive"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_point_sigma_positive"),
            models.CheckConstraint(condition=Q(game__isnull=True) | Q(match__isnull=True),
                                   name="rating_point_one_result"),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.number}: {self.rating:.1f}"

    @property
    def rating(self) -> float:
        return conservative(self.mu, self.sigma)
