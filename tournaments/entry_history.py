"""One entry's record in an event, as its page and ``GET /api/v1/events/{id}/entries/{entry_id}/`` show it:
the entry (as in the entries list), its place now (or final place) with match points and tiebreaks in the
event's order, the match it plays now, and every match it played in order, each result from its side
(won, lost, drew, bye, forfeit won or lost; by the games or by a director).

A read, like ``selectors``: it costs the same queries however many matches the entry played (the entries,
the stored answer, the entry's matches), and it never decides a result or a place (``results`` and the
engine did). Why an entry dropped is for the event's officials only (``reasons``).
"""

from __future__ import annotations

from typing import Any

from tournaments import selectors
from tournaments.models import Entry, Event
from tournaments.tables import TIEBREAK_LABELS

# What a decided match's ``source`` says about who decided it.
DECIDED_BY = {"games": "games", "forfeit": "director", "adjusted": "director"}
SHOWN = ("waiting", "playing", "decided", "bye")  # never a draft round's tables, nor a reset bracket match


def entry_record(event: Event, entry_id: int, *, reasons: bool = False) -> dict[str, Any]:
    """The entry's row of ``selectors.entries`` plus ``place``, ``final``, ``match_points``, ``tiebreaks``
    (``{key: value}`` in the event's order, match points left out: they have their own key),
    ``tiebreak_words`` ([(label, value)]), ``drop_words``, ``current_match`` and ``matches`` (see
    ``entry_match``), oldest first. Raises ``Entry.DoesNotExist`` for an id that is not this event's."""
    found = next((row for row in selectors.entries(event, reasons=reasons) if row["id"] == entry_id), None)
    if found is None:
        raise Entry.DoesNotExist(f"no entry {entry_id} in {event.name}")
    answer = selectors.event_answer(event)
    standing = next((row for row in answer["standings"] if row.get("entry") == entry_id), None)
    keys = [key for key in event.tiebreaks if key != "match_points"]
    tiebreaks = {key: _tiebreak(standing, key) for key in keys} if standing else {}
    rows = [r for r in selectors.matches(event, entry=entry_id) if r["status"] in SHOWN]
    played = [entry_match(r, entry_id) for r in sorted(rows, key=lambda r: (r["round"] or 0, r["id"]))]
    current = next((m for m in played if m["status"] in ("waiting", "playing")), None)
    return {
        **found,
        "place": standing["rank"] if standing else None,
        "final": bool(answer.get("complete")),
        "match_points": standing["match_points"] if standing else 0,
        "tiebreaks": tiebreaks,
        "tiebreak_words": [(TIEBREAK_LABELS.get(key, key), value) for key, value in tiebreaks.items()],
        "drop_words": drop_words(found["dropped_after_round"]),
        "current_match": current,
        "matches": played,
    }


def _tiebreak(standing: dict[str, Any], key: str) -> Any:
    return standing["tiebreaks"].get(key, standing.get(key))


def drop_words(after_round: int | None) -> str:
    """"withdrawn before round 1", "dropped after round 2", or "" for an entry still in."""
    if after_round is None:
        return ""
    return "withdrawn before round 1" if after_round == 0 else f"dropped after round {after_round}"


def entry_match(row: dict[str, Any], entry_id: int) -> dict[str, Any]:
    """A match row (``selectors.matches``) from the entry's side: ``{"id", "round", "bracket_id", "table",
    "opponent" (entry id or None), "opponent_name", "status", "result" ("won", "lost", "drew", "bye",
    "forfeit_won", "forfeit_lost" or None while undecided), "margin" (the winner's, as the match has it),
    "decided_by" ("games", "director" or None: a bye, or undecided)}``."""
    others = [(e, name) for e, name in zip(row["entries"], row["players"], strict=True) if e != entry_id]
    opponent, opponent_name = others[0] if others else (None, None)
    result, decided_by = None, None
    if row["status"] == "bye":
        result = "bye"
    elif row["status"] == "decided":
        decided_by = DECIDED_BY.get(row["source"] or "", "games")
        winner = row["winner_entry"]
        if winner is None:
            result = "drew"
        else:
            result = ("won" if winner == entry_id else "lost")
            if row["forfeit"]:
                result = f"forfeit_{result}"
    return {"id": row["id"], "round": row["round"], "bracket_id": row["match"], "table": row["table"],
            "opponent": opponent, "opponent_name": opponent_name, "status": row["status"], "result": result,
            "margin": row["margin"] if result not in (None, "bye") else None, "decided_by": decided_by}
