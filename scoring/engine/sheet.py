"""The score-sheet contract of SCORESHEET.md: a request document in, the scored sheet out.

``score_sheet(request)`` takes the decoded JSON request and returns the decoded JSON answer, or
raises :class:`SheetError` naming every problem it found (hand, field, message). It is the only
place that knows the contract's field names; the formats and the ledger work on typed records.

It must not do I/O: the management command and the API view feed it and print its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .cards import CardError, Hand, parse_card, parse_cards
from .conventions import MAX_DEADWOOD, Conventions, resolve_conventions
from .errors import Problem, SheetError
from .formats import (
    JerseyRecord,
    ThreePlayerResult,
    score_hollywood,
    score_jersey,
    score_partnership,
    score_rotation,
    table_players,
    team_of,
)
from .hands import HandRecord, Result
from .ledger import GameResult, SheetRow, score_game
from .melds import (
    Arrangement,
    CardReport,
    best_arrangements,
    best_layoffs,
    check_meld,
    knockers_choice,
    opponent_without_layoffs,
)

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

    def player(
        self, name: str, players: tuple[str, ...], *, required: bool, among: str = "a player of this game"
    ) -> str | None:
        raw = self.data.get(name)
        if raw is None:
            if required:
                self.problem(name, "is required: name the player")
            return None
        if raw not in players:
            self.problem(name, f"{raw!r} is not {among} ({', '.join(players)})")
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
    among: str = "a player of this game",
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

    knocker = r.player("knocker", players, required=True, among=among)
    has_knocker_cards = r.has("knocker_cards") or r.has("knocker_melds")
    knocker_dw = r.integer("knocker_deadwood", required=kind is Result.KNOCK and not has_knocker_cards)
    opponent_dw = r.integer("opponent_deadwood", required=not r.has("opponent_cards"))
    if kind in (Result.GIN, Result.BIG_GIN) and knocker_dw not in (None, 0):
        name = kind.value.replace("_", " ")
        r.problem("knocker_deadwood", f"{name} means no deadwood; {knocker_dw} recorded")
    record = HandRecord(kind, knocker, knocker_dw, opponent_dw, upcard)
    if has_cards and not r.problems:
        record = read_card_level(r, record)
    if kind is not Result.KNOCK and record.knocker_deadwood is None:
        record = HandRecord(kind, record.knocker, 0, record.opponent_deadwood, record.upcard, record.cards)
    return (record if not r.problems else None), r


def _cards_field(r: FieldReader, name: str, sizes: tuple[int, ...] | None) -> Hand | None:
    try:
        return parse_cards(r.data[name], sizes=sizes)
    except CardError as exc:
        r.problem(name, str(exc))
        return None


def _declared_arrangement(r: FieldReader, size: int) -> tuple[Hand, Arrangement] | None:
    raw_melds = r.data.get("knocker_melds")
    if not isinstance(raw_melds, list):
        r.problem("knocker_melds", "must be a list of melds, each a list of cards")
        return None
    melds = []
    for i, raw in enumerate(raw_melds):
        try:
            melds.append(check_meld(parse_cards(raw).cards))
        except CardError as exc:
            r.problem(f"knocker_melds[{i}]", str(exc))
    deadwood = _cards_field(r, "knocker_deadwood_cards", None) if r.has("knocker_deadwood_cards") else Hand.of(())
    if r.problems or deadwood is None:
        return None
    every = [c for m in melds for c in m.cards] + list(deadwood.cards)
    try:
        hand = parse_cards(every, sizes=(size,))
    except CardError as exc:
        r.problem("knocker_melds", f"the declared melds and deadwood: {exc}")
        return None
    return hand, Arrangement(tuple(melds), deadwood.cards)


def _cards_text(cards) -> str:
    return " ".join(str(c) for c in cards) or "none"


def read_card_level(r: FieldReader, record: HandRecord) -> HandRecord:
    """Fill a hand's counts from its cards: the knocker's melds, the opponent's melds and lay-offs.

    Counts entered beside the cards must agree with them.
    """
    kind = record.result
    size = 11 if kind is Result.BIG_GIN else 10
    if r.has("knocker_cards") and (r.has("knocker_melds") or r.has("knocker_deadwood_cards")):
        r.problem("knocker_cards", "give either knocker_cards or knocker_melds with knocker_deadwood_cards, not both")
        return record
    if r.has("knocker_deadwood_cards") and not r.has("knocker_melds"):
        r.problem("knocker_deadwood_cards", "goes with knocker_melds: declare the melds as well")
        return record
    knocker: Hand | None = None
    declared: Arrangement | None = None
    if r.has("knocker_cards"):
        knocker = _cards_field(r, "knocker_cards", (size,))
    elif r.has("knocker_melds"):
        found = _declared_arrangement(r, size)
        if found:
            knocker, declared = found
    opponent = _cards_field(r, "opponent_cards", (10,)) if r.has("opponent_cards") else None
    if r.problems:
        return record
    if knocker is not None and opponent is not None and knocker.mask & opponent.mask:
        both = _cards_text(c for c in knocker.cards if opponent.mask >> c & 1)
        r.problem("opponent_cards", f"{both} cannot be in both hands")
        return record
    if kind is Result.KNOCK and knocker is None:
        r.problem("opponent_cards", "the knocker's cards (knocker_cards or knocker_melds) are needed to work out "
                  "the lay-offs")
        return record

    arrangement = None
    opp_result = None
    if kind is Result.KNOCK:
        if declared is not None:
            arrangement = declared
            opp_result = best_layoffs(declared.melds, opponent) if opponent is not None else None
        else:
            arrangement, opp_result = knockers_choice(knocker, opponent)
    else:
        if knocker is not None:
            arrangement = declared or best_arrangements(knocker.mask)[0]
            if arrangement.deadwood_cards:
                name = "big gin needs all 11 cards" if kind is Result.BIG_GIN else "gin needs all 10 cards"
                field = "knocker_melds" if declared else "knocker_cards"
                r.problem(field, f"{name} melded; these leave {arrangement.deadwood} deadwood "
                          f"({_cards_text(arrangement.deadwood_cards)})")
                return record
        if opponent is not None:
            opp_result = opponent_without_layoffs(opponent)

    knocker_dw = record.knocker_deadwood
    opponent_dw = record.opponent_deadwood
    if arrangement is not None:
        if knocker_dw is not None and knocker_dw != arrangement.deadwood:
            r.problem("knocker_deadwood", f"{knocker_dw} recorded, but the knocker's cards leave "
                      f"{arrangement.deadwood} ({_cards_text(arrangement.deadwood_cards)})")
        knocker_dw = arrangement.deadwood
    if opp_result is not None:
        if opponent_dw is not None and opponent_dw != opp_result.deadwood:
            after = " after lay-offs" if kind is Result.KNOCK else ""
            r.problem("opponent_deadwood", f"{opponent_dw} recorded, but the opponent's cards leave "
                      f"{opp_result.deadwood}{after} ({_cards_text(opp_result.deadwood_cards)})")
        opponent_dw = opp_result.deadwood
    report = CardReport(
        knocker_melds=arrangement.melds if arrangement else None,
        knocker_deadwood_cards=arrangement.deadwood_cards if arrangement else None,
        opponent=opp_result,
    )
    return HandRecord(kind, record.knocker, knocker_dw, opponent_dw, record.upcard, report)


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


def read_seated_game(
    data: Mapping[str, Any], conventions: Conventions, count: int
) -> tuple[tuple[str, ...], str, list[HandRecord]]:
    """Players, first dealer and two-player hands: what standard, Hollywood and rotation sheets share."""
    players = read_players(data, count)
    first_dealer = read_first_dealer(data, players, players[0])
    records = read_hands(
        read_hand_list(data),
        lambda raw, n: read_two_player_hand(raw, number=n, players=players, conventions=conventions),
    )
    return players, first_dealer, records


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


def read_jersey_hand(raw: object, *, number: int, players: tuple[str, ...]) -> tuple[JerseyRecord | None, FieldReader]:
    r = FieldReader(raw, hand=number)
    r.reject_unknown(("result", "knocker", "knocker_deadwood", "deadwood", "upcard"))
    for name in CARD_FIELDS:
        if name in r.data:
            r.problem(name, "Jersey hands are entered as counts: knocker_deadwood and deadwood")
    result = r.choice("result", tuple(m.value for m in Result), required=True)
    upcard = r.card("upcard")
    if result is None:
        return None, r
    kind = Result(result)
    if kind is Result.DEAD:
        for name in ("knocker", "knocker_deadwood", "deadwood"):
            if r.has(name):
                r.problem(name, "a dead hand has no knocker and no deadwood; leave it out")
        return (JerseyRecord(kind, None, None, None, upcard) if not r.problems else None), r
    knocker = r.player("knocker", players, required=True)
    knocker_dw = r.integer("knocker_deadwood", required=kind is Result.KNOCK)
    if kind is not Result.KNOCK:
        if knocker_dw not in (None, 0):
            r.problem("knocker_deadwood", f"{kind.value.replace('_', ' ')} means no deadwood; {knocker_dw} recorded")
        knocker_dw = 0
    raw_dw = r.data.get("deadwood")
    deadwood: dict[str, int] = {}
    if knocker is not None:
        opponents = [p for p in players if p != knocker]
        if not isinstance(raw_dw, Mapping):
            r.problem("deadwood", f"is required: each opponent's deadwood, like {{\"{opponents[0]}\": 12, "
                      f"\"{opponents[1]}\": 20}}")
        else:
            for name in raw_dw:
                if name not in opponents:
                    message = f"{name!r} is not an opponent of the knocker ({', '.join(opponents)})"
                    r.problem(f"deadwood.{name}", message)
            sub = FieldReader(raw_dw, hand=number, prefix="deadwood.")
            for name in opponents:
                value = sub.integer(name, required=True)
                if value is not None:
                    deadwood[name] = value
            r.problems.extend(sub.problems)
    if r.problems:
        return None, r
    return JerseyRecord(kind, knocker, knocker_dw, deadwood, upcard), r


def _score_jersey(data: Mapping[str, Any], conventions: Conventions) -> dict[str, Any]:
    players = read_players(data, 3)
    first_dealer = read_first_dealer(data, players, players[0])
    records = read_hands(read_hand_list(data), lambda raw, n: read_jersey_hand(raw, number=n, players=players))
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
        rows.append(item)
    return {"hands": rows, **_three_player_answer(result)}


def read_teams(data: Mapping[str, Any]) -> tuple[tuple[str, str], tuple[str, str]]:
    if "players" in data:
        raise SheetError.one(None, "players", "the partnership format names its players in teams, not players")
    raw = data.get("teams")
    if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(t, list) and len(t) == 2 for t in raw)):
        raise SheetError.one(None, "teams", 'needs two teams of two players, like [["N", "S"], ["E", "W"]]')
    names = read_names([raw[0][0], raw[0][1], raw[1][0], raw[1][1]], "teams")
    return (names[0], names[1]), (names[2], names[3])


def read_deal(
    raw: object, *, number: int, teams: tuple[tuple[str, str], tuple[str, str]], conventions: Conventions
) -> tuple[tuple[HandRecord, HandRecord] | None, FieldReader]:
    r = FieldReader(raw, hand=number, what="a deal")
    r.reject_unknown(("tables",))
    tables = r.data.get("tables")
    if not isinstance(tables, list) or len(tables) != 2:
        if not r.problems:
            r.problem("tables", "each deal needs its two tables' hands: {\"tables\": [hand, hand]}")
        return None, r
    records = []
    for i, (hand, players) in enumerate(zip(tables, table_players(teams, number), strict=True)):
        record, sub = read_two_player_hand(
            hand, number=number, players=players, conventions=conventions, prefix=f"tables[{i}].",
            among=f"playing at table {i + 1} in deal {number}",
        )
        r.problems.extend(sub.problems)
        records.append(record)
    return ((records[0], records[1]) if not r.problems else None), r


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
