"""The score-sheet contract of SCORESHEET.md: a request document in, the scored sheet out.

``score_sheet(request)`` takes the decoded JSON request and returns the decoded JSON answer, or
raises :class:`SheetError` naming every problem it found (hand, field, message). The request's fields
are read by ``sheet_reading``; this module runs each format and writes the answer's field names.

It must not do I/O: the management command and the API view feed it and print its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .conventions import Conventions, resolve_conventions
from .errors import Problem, SheetError
from .formats import (
    ThreePlayerResult,
    score_hollywood,
    score_jersey,
    score_partnership,
    score_rotation,
    table_players,
    team_of,
)
from .ledger import GameResult, SheetRow, score_game
from .sheet_reading import (
    read_deal,
    read_first_dealer,
    read_hand_list,
    read_hands,
    read_jersey_hand,
    read_players,
    read_seated_game,
    read_teams,
)

FORMATS = ("standard", "hollywood", "rotation", "jersey", "partnership")


def hand_details(row: SheetRow) -> dict[str, Any]:
    """The fields every scored two-player hand reports (count- and card-level alike)."""
    h = row.hand
    rec = h.record
    out: dict[str, Any] = {
        "number": row.number,
        "dealer": row.dealer,
        "players": list(h.players),
        "result": rec.result.value,
        "outcome": h.outcome.value,
        "winner": h.winner,
        "points": h.points,
        "boxes": h.boxes,
        "knocker": rec.knocker,
        "knocker_deadwood": rec.knocker_deadwood,
        "opponent_deadwood": rec.opponent_deadwood,
        "knock_limit": h.terms.knock_limit,
    }
    if rec.upcard is not None:
        out["upcard"] = str(rec.upcard)
        out["multiplier"] = h.terms.multiplier
    if rec.cards is not None:
        out.update(rec.cards.as_dict())
    return out


def game_answer(game: GameResult) -> dict[str, Any]:
    rows = []
    for row in game.rows:
        item = hand_details(row)
        item["totals"] = dict(row.totals)
        rows.append(item)
    return {
        "hands": rows,
        "complete": game.complete,
        "winner": game.winner,
        "next_dealer": game.next_dealer,
        "players": {p: game.standings[p].as_dict() for p in game.players},
        "margin": game.margin,
    }




def _score_standard(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    players, first_dealer, records = read_seated_game(data, conventions, 2)
    game = score_game(conventions=conventions, players=players, first_dealer=first_dealer, hands=records)
    return game_answer(game)


def _score_hollywood(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    players, first_dealer, records = read_seated_game(data, conventions, 2)
    match = score_hollywood(conventions=conventions, players=players, first_dealer=first_dealer, hands=records)
    rows = []
    for hrow in match.rows:
        item = hand_details(hrow.row)
        item["games"] = list(hrow.games)
        item["totals"] = dict(hrow.row.totals)
        item["game_totals"] = [dict(t) for t in hrow.game_totals]
        rows.append(item)
    standings = match.standings
    return {
        "hands": rows,
        "games": [
            {
                "number": g.number,
                "complete": g.complete,
                "winner": g.winner,
                "players": {p: g.standings[p].as_dict() for p in players},
                "margin": g.margin,
                "closed_after_hand": g.closed_after,
            }
            for g in match.games
        ],
        "complete": match.complete,
        "winner": match.winner,
        "next_dealer": match.next_dealer,
        "players": {p: standings[p].as_dict() for p in players},
        "net": match.net,
        "margin": match.margin,
    }


def _three_player_answer(result: ThreePlayerResult) -> dict[str, Any]:
    margins = result.margins
    return {
        "complete": result.complete,
        "winner": result.winner,
        "next_dealer": result.next_dealer,
        "next_players": list(result.next_players) if result.next_players else None,
        "players": {p: result.standings[p].as_dict() for p in result.players},
        "margins": margins,
        "margin": sum(margins.values()) if margins else None,
    }


def _score_rotation(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    players, first_dealer, records = read_seated_game(data, conventions, 3)
    result = score_rotation(conventions=conventions, players=players, first_dealer=first_dealer, hands=records)
    rows = []
    for trow in result.rows:
        item = hand_details(trow.row)
        item["sitting_out"] = trow.sitting_out
        item["totals"] = dict(trow.row.totals)
        rows.append(item)
    return {"hands": rows, **_three_player_answer(result)}



def _score_jersey(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    players = read_players(data, 3)
    first_dealer = read_first_dealer(data, players, players[0])
    records = read_hands(
        read_hand_list(data), lambda raw, n: read_jersey_hand(raw, number=n, players=players, conventions=conventions)
    )
    result = score_jersey(conventions=conventions, players=players, first_dealer=first_dealer, hands=records)
    rows = []
    for trow in result.rows:
        h = trow.row.hand
        item = {
            "number": trow.row.number,
            "dealer": trow.row.dealer,
            "players": list(players),
            "result": h.record.result.value,
            "outcome": h.outcome.value,
            "winner": h.winner,
            "points": h.points,
            "penalty": trow.penalty,
            "penalised": trow.penalised,
            "boxes": h.boxes,
            "knocker": h.record.knocker,
            "knocker_deadwood": h.record.knocker_deadwood,
            "deadwood": dict(trow.deadwood) if trow.deadwood else None,
            "knock_limit": h.terms.knock_limit,
            "totals": dict(trow.row.totals),
        }
        if h.record.upcard is not None:
            item["upcard"] = str(h.record.upcard)
            item["multiplier"] = h.terms.multiplier
        if h.record.cards is not None:
            item.update(h.record.cards.as_jersey_dict())
        rows.append(item)
    return {"hands": rows, **_three_player_answer(result)}



def _score_partnership(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    teams = read_teams(data)
    everyone = teams[0] + teams[1]
    first_dealer = read_first_dealer(data, everyone, teams[0][0])
    deals = read_hands(
        read_hand_list(data), lambda raw, n: read_deal(raw, number=n, teams=teams, conventions=conventions)
    )
    result = score_partnership(
        conventions=conventions, teams=teams, first_dealing_team=team_of(teams, first_dealer), deals=deals
    )
    answer_deals = []
    for deal in result.deals:
        answer_deals.append(
            {
                "number": deal.number,
                "tables": [hand_details(row) for row in deal.tables],
                "team_points": list(deal.team_points),
                "scoring_team": deal.scoring_team,
                "boxes": deal.boxes,
                "totals": list(deal.totals),
            }
        )
    return {
        "hands": answer_deals,
        "teams": [{"players": list(team), **result.standings[i].as_dict()} for i, team in enumerate(teams)],
        "complete": result.complete,
        "winner": result.winner,
        "next_dealer": result.next_dealers[0] if result.next_dealers else None,
        "next_dealers": list(result.next_dealers) if result.next_dealers else None,
        # who plays whom in the next deal (opponents alternate by the deal's place in the sheet)
        "next_tables": [list(pair) for pair in table_players(teams, len(result.deals) + 1)]
        if not result.complete else None,
        "players": {
            p: {"team": team_of(teams, p), "points": t.points, "hands_won": t.hands_won, "boxes": t.boxes}
            for p, t in result.individual.items()
        },
        "margin": result.margin,
    }


FormatScorer = Callable[[Mapping[str, Any], Conventions], dict[str, Any]]
format_scorers: dict[str, FormatScorer] = {
    "standard": _score_standard,
    "hollywood": _score_hollywood,
    "rotation": _score_rotation,
    "jersey": _score_jersey,
    "partnership": _score_partnership,
}
TOP_LEVEL_FIELDS = ("format", "conventions", "players", "teams", "first_dealer", "hands")


def score_sheet(request: object) -> dict[str, Any]:
    """The whole contract: a decoded request document in, the decoded answer document out."""
    if not isinstance(request, Mapping):
        raise SheetError.one(None, None, "the request must be a JSON object describing a score sheet")
    unknown = [Problem(None, k, f"unknown field {k!r}") for k in request if k not in TOP_LEVEL_FIELDS]
    if unknown:
        raise SheetError(unknown)
    fmt = request.get("format", "standard")
    if fmt not in FORMATS:
        raise SheetError.one(None, "format", f"must be one of {', '.join(FORMATS)}; {fmt!r} given")
    scorer = format_scorers.get(fmt)
    if scorer is None:
        raise SheetError.one(None, "format", f"the {fmt} format is not scored by this version yet")
    if fmt != "partnership" and "teams" in request:
        raise SheetError.one(None, "teams", "only the partnership format has teams; use players")
    conventions = resolve_conventions(request.get("conventions"))
    answer = {"format": fmt, "conventions": conventions.as_dict()}
    answer.update(scorer(request, conventions))
    return answer
