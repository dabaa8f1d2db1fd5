"""A scored hand read back in words, as a referee says it at the table before anyone accepts it.

"Bob knocks with 8, Ann has 8: undercut, Ann scores 10 (+1 box)". The input is the engine's own
answer for one hand (``score_sheet``'s ``hands[i]``, any format); every number in the sentence is a
number of that answer. Nothing is computed here beyond choosing words: no scoring, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RESULT_VERBS = {"knock": "knocks with {deadwood}", "gin": "goes gin", "big_gin": "goes big gin"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _boxes(boxes: int) -> str:
    if not boxes:
        return ""
    return f" (+{boxes} box{'es' if boxes != 1 else ''})"


def _card(card: str) -> str:
    return card[:-1].replace("T", "10") + SUIT_SYMBOLS.get(card[-1], card[-1])


def _upcard(scored: Mapping[str, Any]) -> str:
    upcard = scored.get("upcard")
    if not upcard:
        return ""
    doubled = " doubled" if scored.get("multiplier", 1) > 1 else ""
    return f" [upcard {_card(upcard)}{doubled}]"


def _opponents(scored: Mapping[str, Any]) -> list[tuple[str, int | None]]:
    """Each opponent of the knocker with the deadwood the engine counted for them (after lay-offs)."""
    knocker = scored.get("knocker")
    if scored.get("deadwood") is not None:  # Jersey: two opponents
        return [(name, count) for name, count in scored["deadwood"].items() if name != knocker]
    others = [name for name in scored.get("players", []) if name != knocker]
    return [(name, scored.get("opponent_deadwood")) for name in others]


def _two_or_three_player(scored: Mapping[str, Any]) -> str:
    if scored["result"] == "dead" or scored.get("knocker") is None:
        return "Dead hand: nobody scores" + _upcard(scored)
    knocker = scored["knocker"]
    head = f"{knocker} {RESULT_VERBS[scored['result']].format(deadwood=scored.get('knocker_deadwood'))}"
    seen = ", ".join(f"{name} has {count}" for name, count in _opponents(scored) if count is not None)
    layoffs = scored.get("layoffs") or []
    if layoffs:
        seen += f" after laying off {' '.join(_card(item['card']) for item in layoffs)}"
    said = f"{head}, {seen}" if seen else head
    outcome = scored["outcome"]
    if outcome == "tie":
        return f"{said}: a tie, nobody scores{_upcard(scored)}"
    winner, points = scored["winner"], scored["points"]
    verdict = f"undercut, {winner} scores {points}" if outcome == "undercut" else f"{winner} scores {points}"
    text = f"{said}: {verdict}{_boxes(scored.get('boxes', 0))}"
    if scored.get("penalty"):
        text += f", {knocker} loses {scored['penalty']}"
    if scored.get("games"):
        text += f", credited to game{'s' if len(scored['games']) > 1 else ''} {', '.join(map(str, scored['games']))}"
    return text + _upcard(scored)


def _deal(scored: Mapping[str, Any], teams: list[list[str]] | None) -> str:
    tables = "; ".join(f"table {i}: {_two_or_three_player(t)}" for i, t in enumerate(scored["tables"], start=1))
    team = scored.get("scoring_team")
    if team is None:
        return f"{tables}. The deal scores nothing"
    name = " & ".join(teams[team]) if teams else f"team {team + 1}"
    return f"{tables}. {name} score {scored['team_points'][team]}{_boxes(scored.get('boxes', 0))}"


def describe_hand(scored: Mapping[str, Any], teams: list[list[str]] | None = None) -> str:
    """One sentence for one scored hand (a partnership deal: one clause per table, then the deal)."""
    if "tables" in scored:
        return _deal(scored, teams)
    return _two_or_three_player(scored)
