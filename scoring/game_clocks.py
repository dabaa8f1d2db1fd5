"""The clock a game is played against, when another app runs one (a tournament round's time limit): the
table's entry page shows it. ``scoring`` never imports that app: the app registers a function at start-up
(``AppConfig.ready``) that answers for the games it made.

It must not decide anything at time: it only tells the time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

GameClock = Callable[[int], "dict[str, Any] | None"]

_clocks: list[GameClock] = []


def register_game_clock(clock: GameClock) -> None:
    """Called by an app at start-up; registering twice is harmless."""
    if clock not in _clocks:
        _clocks.append(clock)


def game_clock(game_id: int) -> dict[str, Any] | None:
    """The clock of the game's round as pages show it (``status``, ``ends_at``, ``remaining_seconds``,
    ``words``, ``label``) and what happens at time (``rule``: "finish_hand" or "director"; ``level``: a level
    score is a "draw" or play goes on, "play_on"), or None when nothing times it."""
    for clock in _clocks:
        found = clock(game_id)
        if found is not None:
            return found
    return None
