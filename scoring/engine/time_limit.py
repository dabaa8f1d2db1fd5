"""A two-player game stopped at time (a tournament round's time limit), plain Python like the rest of the
engine: which hand the game ends after and who wins it, from the score sheet's running totals toward the
target (the sheet's totals column, game and box bonuses aside).

The rule it scores: the hand being played when time is called is finished and recorded; the game ends
after it. The side ahead wins by the difference. Level: a draw where a draw is allowed (``level="draw"``:
Swiss and round robin), or play goes on hand by hand until one side leads (``level="play_on"``:
elimination), the game ending after the first hand that leaves a side ahead.

It must not decide when time is called (the caller says after which hand), nor read a clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

LEVELS = ("draw", "play_on")


@dataclass(frozen=True, slots=True)
class AtTime:
    """The game as settled at time: it ended after hand ``after_hand`` (0: before any hand)."""

    after_hand: int
    winner: str | None  # None: a draw
    margin: int
    totals: dict[str, int]

    @property
    def drawn(self) -> bool:
        return self.winner is None

    def as_dict(self) -> dict:
        return {"after_hand": self.after_hand, "winner": self.winner, "margin": self.margin,
                "drawn": self.drawn, "totals": dict(self.totals)}


def settle_at_time(players: Sequence[str], totals_after: Sequence[Mapping[str, int]], *, time_hand: int,
                   level: str) -> AtTime | None:
    """``totals_after[i]``: the running totals after hand ``i + 1`` of the counted sheet; ``time_hand``: the
    hand being played when time was called (the game ends after it; 0 when no hand was in play). None
    while that hand is not counted yet, or while the sides are level and play goes on."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}; {level!r} given")
    if len(players) != 2:
        raise ValueError("a game stopped at time has two sides")
    if time_hand < 0 or len(totals_after) < time_hand:
        return None
    first, second = players
    for after in range(time_hand, len(totals_after) + 1):
        totals = dict(totals_after[after - 1]) if after else {first: 0, second: 0}
        ahead = totals[first] - totals[second]
        if ahead:
            return AtTime(after, first if ahead > 0 else second, abs(ahead), totals)
        if level == "draw":
            return AtTime(after, None, 0, totals)
    return None
