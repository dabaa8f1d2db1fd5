"""Who may accept a scored hand: the side it costs, never the side it pays.

The two-person rule protects results: a hand counts once someone it goes against has accepted it.
Given the engine's own answer for a hand (as ``score_sheet`` reports it, any format), these functions
say which players won it and which lost it. They decide nothing about officials or logins (that is
the Django app's policy) and, like the rest of the engine, import nothing from Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def players_of(scored: Mapping[str, Any]) -> frozenset[str]:
    """Everyone who played this hand (rotation: not the player sitting out; partnership: all four)."""
    if "tables" in scored:
        return frozenset(name for table in scored["tables"] for name in table["players"])
    return frozenset(scored["players"])


def winning_side(scored: Mapping[str, Any], teams: Sequence[Sequence[str]] | None = None) -> frozenset[str]:
    """The players the hand pays: its winner, or the team that scored a partnership deal.

    A hand nobody won (a dead hand, a tie that scores nothing, an even partnership deal) pays
    nobody: the answer is empty.
    """
    if "tables" in scored:
        team = scored.get("scoring_team")
        if team is None or teams is None:
            return frozenset()
        return frozenset(teams[team])
    winner = scored.get("winner")
    return frozenset() if winner is None else frozenset([winner])


def losing_side(scored: Mapping[str, Any], teams: Sequence[Sequence[str]] | None = None) -> frozenset[str]:
    """The players who may accept the hand: those who played it and are not paid by it.

    Two players: the other player of the hand. Jersey: either opponent of the winner. Partnership: a
    player of the team that did not score the deal. A hand nobody won may be accepted by anyone who
    played it, since it pays nobody.
    """
    return players_of(scored) - winning_side(scored, teams)


def likely_accepters(scored: Mapping[str, Any], teams: Sequence[Sequence[str]] | None = None) -> list[str]:
    """``losing_side`` in the order a phone should offer it: the player the hand costs most first.

    An undercut knocker (who loses the hand, and in Jersey a penalty) comes first; then the players
    left with the most deadwood; a hand that pays nobody starts with the player who did not deal.
    Ties keep the order of the players in the answer. The rule of who may accept is ``losing_side``'s;
    this only orders it.
    """
    side = losing_side(scored, teams)
    order = [name for table in scored["tables"] for name in table["players"]] if "tables" in scored \
        else list(scored["players"])
    deadwood: dict[str, int] = dict(scored.get("deadwood") or {})
    knocker = scored.get("knocker")
    if knocker is not None and scored.get("knocker_deadwood") is not None:
        deadwood[knocker] = scored["knocker_deadwood"]
    if scored.get("opponent_deadwood") is not None:
        for name in order:
            if name != knocker:
                deadwood.setdefault(name, scored["opponent_deadwood"])

    def cost(name: str) -> tuple[int, int, int]:
        return (
            0 if name == knocker else 1,
            -deadwood.get(name, 0),
            0 if name != scored.get("dealer") else 1,
        )

    ranked = sorted((name for name in order if name in side), key=lambda n: (cost(n), order.index(n)))
    return list(dict.fromkeys(ranked))
