"""The rating engine: every player's OpenSkill rating worked out from the finished results, in date order.

Plain Python with no Django import (``tests/ginscore/test_house.py`` proves it): it takes results as
plain values (``Result``: when, the sides as tuples of player ids, each side's rank) and answers each
player's ``mu``, ``sigma`` and number of games, and the history (one ``Point`` per player per result).

The model is openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3, the library's own tau and
beta), one update per result (a club game, or a tournament match), never per hand. Only ranks are
used: the margin is left out on purpose (see the README's Ratings section: a game's margin in Gin
Rummy is mostly the luck of one big gin and the club's bonus conventions, not skill). A draw is two
equal ranks. Results are rated in the order of ``Result.order`` (when, then the caller's tie-break
key), whatever order they are given in, so the answer never depends on the order they arrived in.

It must not read or write storage, nor decide what counts as a result (``ratings.rated_results`` does).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

__all__ = ["PROVISIONAL_GAMES", "Point", "Result", "Standing", "conservative", "model", "rate"]

# A rating is marked provisional until the player has this many rated results.
PROVISIONAL_GAMES = 10


def model() -> PlackettLuce:
    """The one model every rating is computed with: openskill's Plackett-Luce, its defaults untouched."""
    return PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: ``mu - 3 sigma`` (openskill's ordinal), about 99.7% sure."""
    return mu - 3 * sigma


@dataclass(frozen=True, slots=True)
class Result:
    """One finished result. ``sides``: each side's player ids (one id a side, or two for a partnership's
    teams); ``ranks``: each side's place, 1 best, equal for a draw; ``key``: the caller's tie-break
    between results of the same moment (e.g. ``("game", 12)``), so the order is total."""

    at: Any  # anything ordered: a datetime from storage, a number in tests
    key: tuple
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    @property
    def order(self) -> tuple:
        return (self.at, self.key)


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        return conservative(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Point:
    """A player's rating right after a result: the history a chart draws."""

    player: int
    at: Any
    mu: float
    sigma: float
    key: tuple = ()  # the result's own key (``Result.key``): which game or match moved the rating


def rate(results: Iterable[Result]) -> tuple[dict[int, Standing], list[Point]]:
    """Every rated player's standing and the history, from scratch: results in date order, each fed to
    openskill's ``rate`` once, with the ratings its sides hold at that moment."""
    pl = model()
    current: dict[int, Any] = {}
    games: dict[int, int] = {}
    points: list[Point] = []
    new = pl.rating
    for result in sorted(results, key=lambda r: r.order):
        teams = [[current.get(p) or new() for p in side] for side in result.sides]
        rated = pl.rate(teams, ranks=list(result.ranks))
        for side, team in zip(result.sides, rated, strict=True):
            for player, rating in zip(side, team, strict=True):
                current[player] = rating
                games[player] = games.get(player, 0) + 1
                points.append(Point(player, result.at, rating.mu, rating.sigma, result.key))
    standings = {p: Standing(p, r.mu, r.sigma, games[p]) for p, r in current.items()}
    return standings, points
