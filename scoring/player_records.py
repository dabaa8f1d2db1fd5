"""Rows another app keeps about players (tournaments: event entries), reached through a registry so that
``scoring`` never imports that app: a merge of duplicate players asks each registered app what the
duplicate has there, whether the two players meet in it, and has it move its rows.

An app registers a ``PlayerRecords`` at start-up (``AppConfig.ready``), as it registers its game and PIN
authorities in ``scoring.policy``. This module only holds the registry: it decides nothing and writes
nothing itself.
"""

from __future__ import annotations

from typing import Protocol


class PlayerRecords(Protocol):
    """An app's rows about players. Each call runs inside the merge's transaction, the two player rows
    locked after what ``lock`` locks; ``move`` refreshes whatever it keeps derived from players'
    names (an event's stored answer), once committed."""

    def describe(self, player_id: int) -> list[tuple[int, str, str]]:
        """What this player has in the app, counted: (count, one, many), e.g. (2, "event entry", "event
        entries"); nothing when there is none. One query."""

    def lock(self, player_id: int, into_id: int) -> None:
        """Lock the rows ``move`` will change (an event's row), before the players' rows are locked: every
        write takes its locks in one order (an event, then a game, then a player), so none waits in a circle."""

    def conflicts(self, player_id: int, into_id: int) -> list[str]:
        """Where the two players meet, so that one person would play themselves, in words ("both are
        entered in Riverside Swiss"): the merge is refused when there is any."""

    def move(self, player_id: int, into_id: int) -> None:
        """Make every row of ``player_id`` belong to ``into_id``."""


_RECORDS: list[PlayerRecords] = []


def register_player_records(records: PlayerRecords) -> None:
    """Called by an app at start-up (``AppConfig.ready``); registering twice is harmless."""
    if records not in _RECORDS:
        _RECORDS.append(records)


def registered() -> tuple[PlayerRecords, ...]:
    return tuple(_RECORDS)
