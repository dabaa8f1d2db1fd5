"""The score-sheet contract of SCORESHEET.md: a request document in, the scored sheet out.

``score_sheet(request)`` takes the decoded JSON request and returns the decoded JSON answer, or
raises :class:`SheetError` naming every problem it found (hand, field, message). It is the only
place that knows the contract's field names; the formats and the ledger work on typed records.

It must not do I/O: the management command and the API view feed it and print its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .cards import CardError, parse_card
from .conventions import MAX_DEADWOOD, Conventions, resolve_conventions
from .errors import Problem, SheetError
from .hands import HandRecord, Result
from .ledger import GameResult, SheetRow, score_game

FORMATS = ("standard", "hollywood", "rotation", "jersey", "partnership")
MAX_NAME_LENGTH = 60

COUNT_FIELDS = ("knocker", "knocker_deadwood", "opponent_deadwood", "upcard")
CARD_FIELDS = ("knocker_cards", "knocker_melds", "knocker_deadwood_cards", "opponent_cards")


class FieldReader:
    """Reads typed fields out of one JSON object, collecting problems instead of stopping at the first."""

    def __init__(self, data: object, *, hand: int | None, prefix: str = "", what: str = "a hand"):
        self.hand = hand
        self.prefix = prefix
        self.problems: list[Problem] = []
        if isinstance(data, Mapping):
            self.data: Mapping[str, Any] = data
        else:
            self.data = {}
            self.problem(None, f"{what} must be a JSON object, not {type(data).__name__}")

    def problem(self, field: str | None, message: str) -> None:
        name = f"{self.prefix}{field}" if field else (self.prefix.rstrip(".") or None)
        self.problems.append(Problem(self.hand, name, message))

    def reject_unknown(self, allowed: tuple[str, ...] | set[str]) -> None:
        for name in self.data:
            if name not in allowed:
                self.problem(name, f"unknown field {name!r}")

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def integer(self, name: str, *, required: bool, low: int = 0, high: int = MAX_DEADWOOD) -> int | None:
        raw = self.data.get(name)
        if raw is None:
            if required:
                self.problem(name, "is required")
            return None
        if isinstance(raw, bool) or not isinstance(raw, int):
            self.problem(name, f"must be a whole number, not {raw!r}")
            return None
        if raw < low:
            self.problem(name, f"cannot be negative; {raw} given" if low == 0 else f"must be >= {low}")
            return None
        if raw > high:
            self.problem(name, f"cannot be more than {high} (the most deadwood 10 cards can hold); {raw} given")
            return None
        return raw

    def choice(self, name: str, choices: tuple[str, ...], *, required: bool) -> str | None:
        raw = self.data.get(name)
        if raw is None:
            if required:
                self.problem(name, f"is required: one of {', '.join(choices)}")
            return None
        if raw not in choices:
            self.problem(name, f"must be one of {', '.join(choices)}; {raw!r} given")
            return None
        return raw

    def player(self, name: str, players: tuple[str, ...], *, required: bool) -> str | None:
        raw = self.data.get(name)
        if raw is None:
            if required:
                self.problem(name, "is required: name the player")
            return None
        if raw not in players:
            self.problem(name, f"{raw!r} is not a player of this game ({', '.join(players)})")
            return None
        return raw

    def card(self, name: str):
        raw = self.data.get(name)
        if raw is None:
            return None
        try:
            return parse_card(raw)
        except CardError as exc:
            self.problem(name, str(exc))
            return None

    def raise_if_any(self) -> None:
        if self.problems:
            raise SheetError(self.problems)


def read_two_player_hand(
    raw: object,
    *,
    number: int,
    players: tuple[str, ...],
    conventions: Conventions,
    prefix: str = "",
    extra_fields: tuple[str, ...] = (),
) -> tuple[HandRecord | None, FieldReader]:
    """A knock/gin/big-gin/dead hand between two players, from its contract form (counts or cards)."""
    r = FieldReader(raw, hand=number, prefix=prefix)
    r.reject_unknown(("result", *COUNT_FIELDS, *CARD_FIELDS, *extra_fields))
    result = r.choice("result", tuple(m.value for m in Result), required=True)
    upcard = r.card("upcard")
    if result is None:
        return None, r
    kind = Result(result)
    has_cards = any(r.has(f) for f in CARD_FIELDS)
    if kind is Result.DEAD:
        for name in ("knocker", "knocker_deadwood", "opponent_deadwood", *CARD_FIELDS):
            if r.has(name):
                r.problem(name, "a dead hand has no knocker and no deadwood; leave it out")
        return (HandRecord(kind, upcard=upcard) if not r.problems else None), r

    knocker = r.player("knocker", players, required=True)
    knocker_dw = r.integer("knocker_deadwood", required=kind is Result.KNOCK and not has_cards)
    opponent_dw = r.integer("opponent_deadwood", required=not has_cards)
    if kind in (Result.GIN, Result.BIG_GIN) and knocker_dw not in (None, 0):
        r.problem("knocker_deadwood", f"{kind.value.replace('_', ' ')} means no deadwood; {knocker_dw} recorded")
    if kind is not Result.KNOCK and knocker_dw is None and "knocker_deadwood" not in r.data:
        knocker_dw = 0
    record = HandRecord(kind, knocker, knocker_dw, opponent_dw, upcard)
    if has_cards and not r.problems:
        r.problem(None, "card-level hands are not available")
    if kind in (Result.GIN, Result.BIG_GIN) and record.knocker_deadwood is None:
        record = HandRecord(kind, record.knocker, 0, record.opponent_deadwood, record.upcard, record.cards)
    return (record if not r.problems else None), r


def read_players(data: Mapping[str, Any], count: int) -> tuple[str, ...]:
    raw = data.get("players")
    if not isinstance(raw, list) or len(raw) != count:
        got = f"{len(raw)} given" if isinstance(raw, list) else "missing" if raw is None else "not a list"
        raise SheetError.one(None, "players", f"this format needs exactly {count} player names; {got}")
    return read_names(raw, "players")


def read_names(raw: list[Any], field: str) -> tuple[str, ...]:
    problems = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem(None, f"{field}[{i}]", "must be a non-empty name"))
        elif len(name) > MAX_NAME_LENGTH:
            problems.append(Problem(None, f"{field}[{i}]", f"is longer than {MAX_NAME_LENGTH} characters"))
    if problems:
        raise SheetError(problems)
    if len(set(raw)) != len(raw):
        raise SheetError.one(None, field, "each player must have a different name")
    return tuple(raw)


def read_first_dealer(data: Mapping[str, Any], players: tuple[str, ...], default: str) -> str:
    raw = data.get("first_dealer")
    if raw is None:
        return default
    if raw not in players:
        raise SheetError.one(None, "first_dealer", f"{raw!r} is not a player of this game ({', '.join(players)})")
    return raw


def read_hand_list(data: Mapping[str, Any]) -> list[Any]:
    raw = data.get("hands", [])
    if not isinstance(raw, list):
        raise SheetError.one(None, "hands", "must be a list of hands")
    return raw


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


def read_hands(
    raw_hands: list[Any], reader: Callable[[object, int], tuple[Any, FieldReader]]
) -> list[Any]:
    """Read every hand, reporting the problems of all of them at once."""
    records, problems = [], []
    for number, raw in enumerate(raw_hands, start=1):
        record, r = reader(raw, number)
        problems.extend(r.problems)
        records.append(record)
    if problems:
        raise SheetError(problems)
    return records


def _score_standard(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    players = read_players(data, 2)
    first_dealer = read_first_dealer(data, players, players[0])
    records = read_hands(
        read_hand_list(data),
        lambda raw, n: read_two_player_hand(raw, number=n, players=players, conventions=conventions),
    )
    game = score_game(conventions=conventions, players=players, first_dealer=first_dealer, hands=records)
    return game_answer(game)


FormatScorer = Callable[[Mapping[str, Any], Conventions], dict[str, Any]]
format_scorers: dict[str, FormatScorer] = {"standard": _score_standard}
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
