"""The tables of a round (or a bracket's open matches) as the live pairings page shows them: players,
state, result, each game's counted score. Loaded as plain values in five queries, with no model per
match or game: a hall's pairings of 500 tables are made again every few seconds while hands are
accepted, and the general match rows (``selectors.matches``: links, directors' results, histories) cost
ten times as much.

A read, like ``selectors``: it decides no result itself (``results.match_outcome`` does).
"""

from __future__ import annotations

from typing import Any

from tournaments.stored_event import DirectorResult, MatchData, _game_result, entry_labels_of, match_outcome

from .models import Event, Match, MatchGame, MatchPlayer, MatchResult, Round


def live_tables(event: Event, round_number: int | None) -> list[dict[str, Any]]:
    """Rows of ``round_number``'s matches (Swiss, round robin) or of the bracket's matches (None), in the
    pages' order, each ``{"id", "match", "round", "table", "players", "entries" (their ids), "status", "winner",
    "margin", "forfeit", "source", "games_won", "game_details": [{"number", "status", "totals", "pending_hands"}]}``."""
    found = Match.objects.filter(event=event, reset_at__isnull=True)
    found = found.filter(round__number=round_number) if round_number is not None else found.filter(round__isnull=True)
    matches = list(found.values_list("id", "round_id", "round__number", "round__status", "bracket_id", "table",
                                     "is_bye"))
    ids = [m[0] for m in matches]
    labels = entry_labels_of(event)
    sides: dict[int, list[tuple[int, int]]] = {}
    for match_id, entry_id, side in MatchPlayer.objects.filter(match_id__in=ids).values_list(
            "match_id", "entry_id", "side"):
        sides.setdefault(match_id, []).append((side, entry_id))
    games: dict[int, list[tuple]] = {}
    for row in MatchGame.objects.filter(match_id__in=ids).values_list(
            "match_id", "number", "game__hand_count", "game__status", "game__summary", "game__player_names"):
        games.setdefault(row[0], []).append(row[1:])
    director: dict[int, DirectorResult] = {}
    for match_id, kind, winner_id, margin in (MatchResult.objects.filter(match_id__in=ids)
                                              .order_by("entered_at", "id")
                                              .values_list("match_id", "kind", "winner_id", "margin")):
        director[match_id] = DirectorResult(kind, winner_id, margin)  # the latest counts
    rows = []
    for pk, round_id, number, round_status, bracket_id, table, is_bye in sorted(
            matches, key=lambda m: (m[2] or 0, m[6], m[5] or 0, m[4], m[0])):
        played = sorted(games.get(pk, []))
        data = MatchData(pk=pk, round_id=round_id, round_number=number, bracket_id=bracket_id, table=table,
                         is_bye=is_bye, reset=False, sides=tuple(e for _, e in sorted(sides.get(pk, []))),
                         games=tuple(_game_result(n, hands, status, summary, names)
                                     for n, hands, status, summary, names in played),
                         director=director.get(pk))
        outcome = match_outcome(event, data)
        if is_bye:
            state = "bye"
        elif round_id is not None and round_status == Round.Status.DRAFT:
            state = "draft"
        elif outcome.decided:
            state = "decided"
        else:
            state = "playing" if outcome.started else "waiting"
        rows.append({
            "id": pk, "match": bracket_id or None, "round": number, "table": table,
            "players": [labels[e] for e in data.sides], "entries": list(data.sides), "status": state,
            "winner": labels[outcome.winner] if outcome.decided and outcome.winner is not None and not is_bye else None,
            "margin": outcome.margin if outcome.decided and not is_bye else None,
            "forfeit": outcome.forfeit, "source": outcome.source or None, "games_won": list(outcome.games_won),
            "game_details": [{"number": n, "status": status, "totals": (summary or {}).get("totals", {}),
                              "toward": toward_target(summary),
                              "pending_hands": (summary or {}).get("pending_hands", 0)}
                             for n, _, status, summary, _ in played],
        })
    return rows


def toward_target(summary: dict | None) -> dict:
    """A game's score toward its target as the table shows it (a summary stored before it was kept: its totals)."""
    summary = summary or {}
    return summary.get("toward") or summary.get("totals", {})
