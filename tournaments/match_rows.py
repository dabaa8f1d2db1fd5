"""The event's exports as CSV: the standings (one row per entry, the columns of the JSON rows,
``tiebreaks`` spread out as ``tiebreaks.<key>``, values written as the JSON has them: null empty,
booleans true/false, then the ``prize`` of the place, final standings only) and the matches (one row per
match, byes included, in words a spreadsheet reads).

A cell a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return) is
written with a leading apostrophe, as OWASP advises for CSV exports; nothing else is changed. This
module only writes text from rows already read (``selectors``): it reads nothing and decides nothing.
"""

from __future__ import annotations

import csv
import io
from typing import Any

COLUMNS = ["rank", "name", "entry", "seed", "played", "wins", "draws", "losses", "byes", "match_points", "margin",
           "dropped"]
MATCH_COLUMNS = ["round", "bracket_id", "table", "player_1", "player_2", "winner", "margin", "forfeit", "decided_by",
                 "games", "status"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
DECIDED_BY = {"games": "games", "forfeit": "director", "adjusted": "director", "bye": "bye"}
GAME_STATES = {"in_progress": "in progress", "abandoned": "stopped"}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return str(value)


def _writer() -> tuple[io.StringIO, Any]:
    out = io.StringIO()
    return out, csv.writer(out, lineterminator="\r\n")


def standings_csv(rows: list[dict[str, Any]], tiebreaks: list[str], prizes: list[dict[str, Any]] | None = None) -> str:
    """The CSV text of the engine's standings rows, in their order (the ranking), and last the ``prize`` of
    each place (``prizes``: the event's list, given only for final standings; the Nth row has place N's
    prize, the engine's order deciding a shared rank)."""
    by_place = {p["place"]: p["prize"] for p in prizes or []}
    out, writer = _writer()
    writer.writerow(COLUMNS + [f"tiebreaks.{key}" for key in tiebreaks] + ["prize"])
    for place, row in enumerate(rows, start=1):
        writer.writerow([_cell(row.get(c)) for c in COLUMNS] + [_cell(row["tiebreaks"].get(k)) for k in tiebreaks]
                        + [_cell(by_place.get(place))])
    return out.getvalue()


def game_text(detail: dict[str, Any]) -> str:
    """One game of a match in words: the side ahead (the winner, once settled) and the score, "Ann 112-34";
    "(in progress)" or "(stopped)" after it until it is complete; before any point is scored "not started",
    or "not played" once stopped (a forfeit's game, say)."""
    totals = list((detail.get("totals") or {}).items())
    if not any(total for _, total in totals) and detail.get("status") != "complete":
        return "not played" if detail.get("status") == "abandoned" else "not started"
    ahead = max(totals, key=lambda item: item[1])  # the first listed on a tie
    behind = [total for name, total in totals if name != ahead[0]]
    text = f"{ahead[0]} {ahead[1]}-{'-'.join(str(t) for t in behind)}" if behind else f"{ahead[0]} {ahead[1]}"
    state = GAME_STATES.get(detail.get("status", ""))
    return f"{text} ({state})" if state else text


def _winner(row: dict[str, Any]) -> str | None:
    if row["status"] == "bye" or row["source"] is None:
        return None
    return row["winner"] if row["winner"] is not None else "draw"


def matches_csv(rows: list[dict[str, Any]]) -> str:
    """The CSV text of match rows (``selectors.matches``), in their order: round or bracket match id, table,
    both players (names as in the standings), the winner ("draw" for a draw), margin, forfeit (yes/no),
    what decided it (games, director, bye), each game's score ("; " between games) and the match's status."""
    out, writer = _writer()
    writer.writerow(MATCH_COLUMNS)
    for row in rows:
        players = [*row["players"], None, None]
        decided = row["source"] is not None and row["status"] != "reset"
        writer.writerow([_cell(value) for value in (
            row["round"], row["match"], row["table"], players[0], players[1],
            _winner(row) if decided else None, row["margin"] if decided else None,
            "yes" if row["forfeit"] else "no", DECIDED_BY.get(row["source"]) if decided else None,
            "; ".join(game_text(d) for d in row["game_details"]), row["status"],
        )])
    return out.getvalue()
