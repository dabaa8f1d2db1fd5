"""The event contract as OpenAPI schemas, with the contract's own example, for the API docs.

The example answer is the engine's real answer to the example request (worked out when the schema
is built), so the docs cannot drift from what the endpoint says. Schemas only describe; the engine
validates (a request the schema allows may still be refused with a 400 naming the problem).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

from tournaments.engine import run_event
from tournaments.engine.document import (
    MAX_ENTRIES,
    MAX_MARGIN,
    MAX_MATCH_POINTS,
    MAX_NAME_LENGTH,
    MAX_SWISS_ROUNDS,
    TIEBREAK_KEYS,
    Format,
)

NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH}
COUNT = {"type": "integer", "minimum": 0}
MARGIN = {"type": "integer", "minimum": 0, "maximum": MAX_MARGIN}
POINTS = {"type": "integer", "minimum": 0, "maximum": MAX_MATCH_POINTS}

ROUND_RESULT = {
    "type": "object",
    "description": "Swiss and round robin: a match (winner null for a draw), or a bye.",
    "properties": {
        "round": {"type": "integer", "minimum": 1},
        "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
        "winner": {**NAME, "nullable": True},
        "margin": MARGIN,
        "forfeit": {"type": "boolean"},
        "bye": NAME,
    },
    "required": ["round"],
    "additionalProperties": False,
}
BRACKET_RESULT = {
    "type": "object",
    "description": "Elimination: the match id (W1-3, L2-1, GF1, 3P) and its winner.",
    "properties": {
        "match": {"type": "string", "example": "W1-1"},
        "winner": NAME,
        "margin": MARGIN,
        "forfeit": {"type": "boolean"},
    },
    "required": ["match", "winner"],
    "additionalProperties": False,
}
EVENT_REQUEST = {
    "type": "object",
    "description": "A tournament as a director's wall chart: entries, format, results so far (EVENTS.md).",
    "properties": {
        "format": {"type": "string", "enum": [f.value for f in Format]},
        "entries": {
            "type": "array",
            "minItems": 2,
            "maxItems": MAX_ENTRIES,
            "items": {
                "type": "object",
                "properties": {
                    "name": NAME,
                    "seed": {"type": "integer", "minimum": 1, "nullable": True},
                    "joined": {"type": "integer", "minimum": 1, "maximum": MAX_SWISS_ROUNDS,
                               "description": "Swiss only: the first round a late entry is paired in."},
                },
                "required": ["name"],
                "additionalProperties": False,
            },
        },
        "rounds": {"type": "integer", "minimum": 1, "description": "Swiss (default: the least r with 2^r >= "
                   "entries) or round robin (may only repeat n - 1 or n)."},
        "match_points": {
            "type": "object",
            "properties": {"win": POINTS, "draw": POINTS, "loss": POINTS, "bye": POINTS,
                           "requested_bye": {**POINTS, "description": "a bye a player asked for (default: draw)"}},
            "additionalProperties": False,
        },
        "bye_margin": MARGIN,
        "forfeit_margin": MARGIN,
        "tiebreaks": {"type": "array", "items": {"type": "string", "enum": list(TIEBREAK_KEYS)}, "uniqueItems": True},
        "results": {"type": "array", "items": {"oneOf": [ROUND_RESULT, BRACKET_RESULT]}},
        "dropped": {"type": "object", "additionalProperties": COUNT,
                    "description": "name: the last round played (0: withdrawn before round 1)."},
        "as_of_round": {"type": "integer", "minimum": 0},
        "third_place": {"type": "boolean"},
        "grand_final": {"type": "string", "enum": ["reset", "single"]},
        "requested_byes": {"type": "array", "description": "Swiss only: rounds entries asked to sit out.", "items": {
            "type": "object", "properties": {"round": {"type": "integer", "minimum": 1}, "name": NAME},
            "required": ["round", "name"], "additionalProperties": False}},
        "avoid": {"type": "array", "description": "Pairs to keep apart (Swiss; a bracket's round 1).", "items": {
            "type": "object", "properties": {
                "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
                "never": {"type": "boolean", "description": "holds like no rematch (default false: kept apart "
                                                           "unless that pairs players further apart in score)"},
                "through_round": {"type": "integer", "minimum": 1, "description": "Swiss: up to this round only"}},
            "required": ["players"], "additionalProperties": False}},
    },
    "required": ["format", "entries"],
    "additionalProperties": False,
}

STANDING = {
    "type": "object",
    "properties": {
        "rank": {"type": "integer", "minimum": 1},
        "name": {"type": "string"},
        "seed": {"type": "integer", "nullable": True},
        "played": COUNT, "wins": COUNT, "draws": COUNT, "losses": COUNT, "byes": COUNT,
        "requested_byes": {**COUNT, "description": "present when the request has requested byes"},
        "match_points": COUNT,
        "margin": {"type": "integer"},
        "dropped": {"type": "boolean"},
        "tiebreaks": {"type": "object", "additionalProperties": {"type": "integer", "nullable": True}},
    },
    "required": ["rank", "name", "seed", "played", "wins", "draws", "losses", "byes", "match_points", "margin",
                 "dropped", "tiebreaks"],
}
PAIR = {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}
BRACKET_MATCH = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "bracket": {"type": "string", "enum": ["winners", "losers", "final"]},
        "round": {"type": "integer", "minimum": 1},
        "players": {"type": "array", "items": {"type": "string", "nullable": True}, "maxItems": 2},
        "status": {"type": "string", "enum": ["waiting", "ready", "done", "bye"]},
        "winner": {"type": "string", "nullable": True},
        "margin": {"type": "integer", "nullable": True},
        "forfeit": {"type": "boolean", "nullable": True},
        "winner_to": {"type": "string", "nullable": True},
        "loser_to": {"type": "string", "nullable": True},
    },
    "required": ["id", "bracket", "round", "players", "status", "winner", "margin", "forfeit", "winner_to",
                 "loser_to"],
}
EVENT_ANSWER = {
    "type": "object",
    "properties": {
        "format": {"type": "string", "enum": [f.value for f in Format]},
        "rounds": {"type": "integer", "nullable": True},
        "rounds_played": COUNT,
        "complete": {"type": "boolean"},
        "champion": {"type": "string", "nullable": True},
        "standings": {"type": "array", "items": STANDING},
        "next_round": {
            "type": "object",
            "nullable": True,
            "properties": {
                "round": {"type": "integer"},
                "pairings": {"type": "array", "items": {
                    "type": "object", "properties": {"table": {"type": "integer"}, "players": PAIR},
                    "required": ["table", "players"]}},
                "bye": {"type": "string", "nullable": True},
                "byes": {"type": "array", "items": {"type": "string"}},
                "requested_byes": {"type": "array", "items": {"type": "string"},
                                   "description": "Swiss: who asked to sit this round out"},
                "avoids_broken": {**COUNT, "description": "Swiss: pairs to avoid (not never) it pairs"},
            },
            "required": ["round", "pairings", "bye", "byes"],
        },
        "pending": {"type": "array", "items": {"type": "object", "properties": {
            "round": {"type": "integer"}, "match": {"type": "string"}, "players": PAIR, "bye": {"type": "string"}}}},
        "bracket": {"type": "array", "items": BRACKET_MATCH, "description": "Elimination only."},
    },
    "required": ["format", "rounds", "rounds_played", "complete", "champion", "standings", "next_round", "pending"],
}
EXAMPLE_REQUEST = {
    "format": "swiss",
    "entries": [{"name": "Ann", "seed": 1}, {"name": "Bob", "seed": 2}, {"name": "Cleo"}, {"name": "Dev"}],
    "rounds": 3,
    "match_points": {"win": 2, "draw": 1, "loss": 0, "bye": 2},
    "tiebreaks": ["match_points", "buchholz", "margin", "head_to_head"],
    "results": [
        {"round": 1, "players": ["Ann", "Cleo"], "winner": "Ann", "margin": 143},
        {"round": 1, "players": ["Bob", "Dev"], "winner": "Dev", "margin": 52},
    ],
    "dropped": {"Dev": 1},
}
EXAMPLE_ERROR_REQUEST = {
    "format": "single_elimination",
    "entries": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cleo"}, {"name": "Dan"}],
    "results": [{"match": "W1-2", "winner": "Dan"}],
}


def examples() -> tuple[list[OpenApiExample], list[OpenApiExample]]:
    """The contract's example request with the engine's real answer, and a refused one with its errors."""
    from tournaments.engine import EventError

    try:
        run_event(EXAMPLE_ERROR_REQUEST)
    except EventError as exc:
        refused = exc.as_dict()
    else:  # pragma: no cover - the example is built to be refused
        raise AssertionError("the refused example was accepted")
    return (
        [
            OpenApiExample("Swiss after round 1 (EVENTS.md)", value=EXAMPLE_REQUEST, request_only=True),
            OpenApiExample("A result the bracket refuses", value=EXAMPLE_ERROR_REQUEST, request_only=True),
        ],
        [
            OpenApiExample("Swiss after round 1 (EVENTS.md)", value=run_event(EXAMPLE_REQUEST), response_only=True,
                           status_codes=["200"]),
            OpenApiExample("A result the bracket refuses", value=refused, response_only=True, status_codes=["400"]),
        ],
    )
