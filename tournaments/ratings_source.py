"""Players' computed ratings, reached through a registry so that ``tournaments`` never imports the app that
computes them (``ratings``, which reads events' results and so imports this app): seeding an event
"by rating (OpenSkill)" asks the registered source for its entries' players' ratings.

An app registers its source at start-up (``AppConfig.ready``), as ``tournaments`` registers its authorities
in ``scoring.policy``. This module only holds the registry: it decides nothing and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

# player ids -> {player id: rating}; a player without a rating is left out of the answer. One query.
RatingSource = Callable[[Iterable[int]], dict[int, float]]

_SOURCES: list[RatingSource] = []


def register_rating_source(source: RatingSource) -> None:
    """Called by an app at start-up (``AppConfig.ready``); registering twice is harmless."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def computed_ratings(player_ids: Iterable[int]) -> dict[int, float] | None:
    """The registered source's ratings of these players; None when no app computes ratings."""
    return _SOURCES[0](list(player_ids)) if _SOURCES else None
