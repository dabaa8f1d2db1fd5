"""Reading the score-sheet request of SCORESHEET.md: every field of a hand, deal or sheet read into the
engine's typed records (counts or cards, worked out with their melds and lay-offs), every problem
collected with its hand and field instead of stopping at the first.

It must not score anything nor build the answer (``sheet`` does), and must do no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import Card, CardError, Hand, parse_card, parse_cards
from .conventions import MAX_DEADWOOD, Conventions
from .errors import Problem, SheetError
from .formats import (
    JerseyRecord,
    jersey_knockers_pick,
    table_players,
)
from .hands import HandRecord, Result
from .melds import (
    Arrangement,
    CardReport,
    Spread,
    best_arrangements,
    check_meld,
    opponent_without_layoffs,
    spreads,
)

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


# Read once: every hand of every sheet is read against them (an enum's members cost a lookup each).
RESULT_VALUES = tuple(m.value for m in Result)


@dataclass(frozen=True, slots=True)
class HandHead:
    """What every non-dead hand starts with: the result, the upcard, the knocker and the knocker's count."""

    kind: Result
    upcard: Card | None
    knocker: str | None
    knocker_deadwood: int | None


def read_hand_head(
    r: FieldReader, *, players: tuple[str, ...], among: str, dead_fields: tuple[str, ...]
) -> HandHead | None:
    """The result, upcard, knocker and knocker's deadwood of a hand (None when the result is unreadable).

    A dead hand may carry none of ``dead_fields``. The knocker's count is required of a knock
    entered without the knocker's cards, and must be 0 (or left out) for gin and big gin.
    """
    result = r.choice("result", RESULT_VALUES, required=True)
    upcard = r.card("upcard")
    if result is None:
        return None
    kind = Result(result)
    if kind is Result.DEAD:
        for name in dead_fields:
            if r.has(name):
                r.problem(name, "a dead hand has no knocker and no deadwood; leave it out")
        return HandHead(kind, upcard, None, None)
    knocker = r.player("knocker", players, required=True, among=among)
    has_knocker_cards = r.has("knocker_cards") or r.has("knocker_melds")
    knocker_dw = r.integer("knocker_deadwood", required=kind is Result.KNOCK and not has_knocker_cards)
    if kind is not Result.KNOCK and knocker_dw not in (None, 0):
        r.problem("knocker_deadwood", f"{kind.value.replace('_', ' ')} means no deadwood; {knocker_dw} recorded")
    return HandHead(kind, upcard, knocker, knocker_dw)


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
    if "opponents_cards" in r.data:
        r.problem("opponents_cards", "only Jersey hands have two opponents; give this hand's opponent_cards")
    r.reject_unknown(("result", *COUNT_FIELDS, *CARD_FIELDS, *extra_fields, "opponents_cards"))
    not_when_dead = ("knocker", "knocker_deadwood", "opponent_deadwood", *CARD_FIELDS)
    head = read_hand_head(r, players=players, among=among, dead_fields=not_when_dead)
    if head is None:
        return None, r
    if head.kind is Result.DEAD:
        return (HandRecord(head.kind, upcard=head.upcard) if not r.problems else None), r
    opponent_dw = r.integer("opponent_deadwood", required=not r.has("opponent_cards"))
    knocker_dw, report = head.knocker_deadwood, None
    if any(r.has(f) for f in CARD_FIELDS) and not r.problems:
        knocker, declared = read_knocker_cards(r, head.kind)
        opponent = _cards_field(r, "opponent_cards", (10,)) if r.has("opponent_cards") else None
        entry = OpponentEntry(opponent, opponent_dw, "opponent_cards", "opponent_deadwood", "the opponent's")
        found = work_out_cards(r, head.kind, knocker, declared, knocker_dw, {None: entry}, _most_opponent_deadwood)
        if found is not None:
            knocker_dw, opponent_dw, report = found.knocker_deadwood, found.deadwood[None], found.report
    if head.kind is not Result.KNOCK and knocker_dw is None:
        knocker_dw = 0
    record = HandRecord(head.kind, head.knocker, knocker_dw, opponent_dw, head.upcard, report)
    return (record if not r.problems else None), r


def _cards_field(r: FieldReader, name: str, sizes: tuple[int, ...] | None, raw: object = None) -> Hand | None:
    try:
        return parse_cards(r.data[name] if raw is None else raw, sizes=sizes)
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


def read_knocker_cards(r: FieldReader, kind: Result) -> tuple[Hand | None, Arrangement | None]:
    """The knocker's cards (``knocker_cards``) or declared spread (``knocker_melds`` + deadwood cards)."""
    size = 11 if kind is Result.BIG_GIN else 10
    if r.has("knocker_cards") and (r.has("knocker_melds") or r.has("knocker_deadwood_cards")):
        r.problem("knocker_cards", "give either knocker_cards or knocker_melds with knocker_deadwood_cards, not both")
        return None, None
    if r.has("knocker_deadwood_cards") and not r.has("knocker_melds"):
        r.problem("knocker_deadwood_cards", "goes with knocker_melds: declare the melds as well")
        return None, None
    if r.has("knocker_cards"):
        return _cards_field(r, "knocker_cards", (size,)), None
    if r.has("knocker_melds"):
        found = _declared_arrangement(r, size)
        if found:
            return found
    return None, None


@dataclass(frozen=True, slots=True)
class OpponentEntry:
    """One opponent's part of a card-level hand as entered: cards, a count, or both (which must agree)."""

    cards: Hand | None
    count: int | None
    cards_field: str
    count_field: str
    whose: str  # "the opponent's", "B's": for messages


@dataclass(frozen=True, slots=True)
class CardFindings:
    """A card-level hand worked out: what the engine found, and the counts it gives."""

    report: CardReport
    knocker_deadwood: int | None
    deadwood: Mapping[str | None, int | None]  # per opponent key


def _most_opponent_deadwood(options: list[Spread]) -> Spread:
    """Two players: the knocker spreads what leaves the opponent the most deadwood (the first such)."""
    return max(options, key=lambda s: s.opponents[None].deadwood if None in s.opponents else 0)


def work_out_cards(
    r: FieldReader,
    kind: Result,
    knocker: Hand | None,
    declared: Arrangement | None,
    knocker_dw: int | None,
    opponents: Mapping[str | None, OpponentEntry],
    choose: Callable[[list[Spread]], Spread],
) -> CardFindings | None:
    """The melds, lay-offs and deadwood of a card-level hand, for one opponent or two.

    Without a declared spread, ``choose`` picks among the knocker's least-deadwood spreads, after
    keeping those that agree with every count entered (the referee saw which one was spread). Counts
    entered beside the cards must then agree with them, or the difference is reported. None (with
    the problems in ``r``) when the cards cannot be worked out.
    """
    if r.problems:
        return None
    hands = [("the knocker's", "knocker_cards", knocker)]
    hands += [(e.whose, e.cards_field, e.cards) for e in opponents.values()]
    for i, (whose, field, hand) in enumerate(hands):
        for earlier_whose, _, earlier in hands[:i]:
            if hand is not None and earlier is not None and hand.mask & earlier.mask:
                both = _cards_text(c for c in hand.cards if earlier.mask >> c & 1)
                r.problem(field, f"{both} cannot be in both {earlier_whose} and {whose} hands")
    with_cards = {key: e.cards for key, e in opponents.items() if e.cards is not None}
    if kind is Result.KNOCK and knocker is None and with_cards:
        field = next(e.cards_field for e in opponents.values() if e.cards is not None)
        r.problem(field, "the knocker's cards (knocker_cards or knocker_melds) are needed to work out the lay-offs")
    if r.problems:
        return None

    if kind is Result.KNOCK:
        assert knocker is not None
        options = spreads(knocker, with_cards, declared=declared)
    else:  # gin and big gin: all the knocker's cards melded, no lay-offs
        arrangement = None
        if knocker is not None:
            arrangement = declared or best_arrangements(knocker.mask)[0]
            if arrangement.deadwood_cards:
                name = "big gin needs all 11 cards" if kind is Result.BIG_GIN else "gin needs all 10 cards"
                r.problem("knocker_melds" if declared else "knocker_cards", f"{name} melded; these leave "
                          f"{arrangement.deadwood} deadwood ({_cards_text(arrangement.deadwood_cards)})")
                return None
        options = [Spread(arrangement, {key: opponent_without_layoffs(h) for key, h in with_cards.items()})]
    agreeing = [
        s for s in options
        if all(e.count is None or key not in s.opponents or s.opponents[key].deadwood == e.count
               for key, e in opponents.items())
    ]
    chosen = agreeing[0] if len(agreeing) == 1 else choose(agreeing or options)

    arrangement = chosen.arrangement
    if arrangement is not None:
        if knocker_dw is not None and knocker_dw != arrangement.deadwood:
            r.problem("knocker_deadwood", f"{knocker_dw} recorded, but the knocker's cards leave "
                      f"{arrangement.deadwood} ({_cards_text(arrangement.deadwood_cards)})")
        knocker_dw = arrangement.deadwood
    deadwood: dict[str | None, int | None] = {}
    for key, entry in opponents.items():
        found = chosen.opponents.get(key)
        deadwood[key] = entry.count if found is None else found.deadwood
        if found is not None and entry.count is not None and entry.count != found.deadwood:
            after = " after lay-offs" if kind is Result.KNOCK else ""
            r.problem(entry.count_field, f"{entry.count} recorded, but {entry.whose} cards leave "
                      f"{found.deadwood}{after} ({_cards_text(found.deadwood_cards)})")
    report = CardReport(
        knocker_melds=arrangement.melds if arrangement else None,
        knocker_deadwood_cards=arrangement.deadwood_cards if arrangement else None,
        opponents={key: chosen.opponents.get(key) for key in opponents},
    )
    return CardFindings(report, knocker_dw, deadwood)


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
    records = read_hands(read_hand_list(data), lambda raw, n: _read_two_player_once(raw, n, players, conventions))
    return players, first_dealer, records


class _Clean:
    """The reader of a hand read without a problem (all ``read_hands`` asks of it)."""

    problems: tuple[Problem, ...] = ()


_CLEAN = _Clean()


def _read_two_player_once(raw: object, number: int, players: tuple[str, ...],
                          conventions: Conventions) -> tuple[HandRecord | None, FieldReader | _Clean]:
    """``read_two_player_hand``, its answer for a hand already read (the same JSON, between the same
    players under the same conventions) taken from memory: a game's sheet is read whole on every hand
    recorded. The hand's number only ever names it in a problem, and a hand with a problem is read
    afresh every time."""
    try:
        record = _clean_two_player_read(conventions, players, _frozen(raw))
    except TypeError:  # not decoded JSON (something unhashable in it): read it as it is
        record = None
    if record is not None:
        return record, _CLEAN
    return read_two_player_hand(raw, number=number, players=players, conventions=conventions)


# Bounded whatever the requests: a night's tables hold a few thousand distinct hands.
@lru_cache(maxsize=16384)
def _clean_two_player_read(conventions: Conventions, players: tuple[str, ...], frozen: tuple) -> HandRecord | None:
    record, reader = read_two_player_hand(_thawed(frozen), number=1, players=players, conventions=conventions)
    return None if reader.problems else record


def _frozen(value: object) -> tuple:
    """A hashable stand-in for decoded JSON, equal to another's only for the same JSON (types included:
    ``true`` is not ``1``, ``[]`` is not ``{}``); objects' keys in their order."""
    kind = type(value)
    if kind is list:
        return (list, tuple(_frozen(item) for item in value))
    if kind is dict:
        return (dict, tuple((key, _frozen(item)) for key, item in value.items()))
    return (kind, value)


def _thawed(frozen: tuple) -> object:
    kind, value = frozen
    if kind is list:
        return [_thawed(item) for item in value]
    if kind is dict:
        return {key: _thawed(item) for key, item in value}
    return value


JERSEY_CARD_FIELDS = ("knocker_cards", "knocker_melds", "knocker_deadwood_cards", "opponents_cards")


def _by_opponent(r: FieldReader, field: str, opponents: list[str], example: str) -> Mapping[str, Any] | None:
    """A per-opponent object (``deadwood``, ``opponents_cards``), checked to name only the opponents.

    None when it is there but not an object (reported).
    """
    raw = r.data.get(field)
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        r.problem(field, f"must be an object naming each opponent, like {{{example}}}")
        return None
    for name in raw:
        if name not in opponents:
            r.problem(f"{field}.{name}", f"{name!r} is not an opponent of the knocker ({', '.join(opponents)})")
    return raw


def read_jersey_hand(
    raw: object, *, number: int, players: tuple[str, ...], conventions: Conventions
) -> tuple[JerseyRecord | None, FieldReader]:
    """A Jersey hand: the knocker's count or cards, and each opponent's count or cards (or both, agreeing)."""
    r = FieldReader(raw, hand=number)
    for name in ("opponent_deadwood", "opponent_cards"):
        if name in r.data:
            r.problem(name, "a Jersey hand has two opponents: give their counts as deadwood and their cards "
                      "as opponents_cards, each an object by name")
    r.reject_unknown(("result", "knocker", "knocker_deadwood", "deadwood", "upcard", *JERSEY_CARD_FIELDS,
                      "opponent_deadwood", "opponent_cards"))
    head = read_hand_head(r, players=players, among="a player of this game",
                          dead_fields=("knocker", "knocker_deadwood", "deadwood", *JERSEY_CARD_FIELDS))
    if head is None:
        return None, r
    if head.kind is Result.DEAD:
        return (JerseyRecord(head.kind, None, None, None, head.upcard) if not r.problems else None), r
    knocker, knocker_dw = head.knocker, head.knocker_deadwood
    if knocker is None:
        return None, r
    opponents = [p for p in players if p != knocker]
    example = f'"{opponents[0]}": 12, "{opponents[1]}": 20'
    if not r.has("deadwood") and not r.has("opponents_cards"):
        r.problem("deadwood", f"is required: each opponent's deadwood, like {{{example}}}, or their cards "
                  "in opponents_cards")
        return None, r
    raw_counts = _by_opponent(r, "deadwood", opponents, example)
    raw_cards = _by_opponent(r, "opponents_cards", opponents, f'"{opponents[0]}": ["AS", "2S", ...], ...')
    if raw_counts is None or raw_cards is None:
        return None, r
    counts: dict[str, int | None] = {}
    sub = FieldReader(raw_counts, hand=number, prefix="deadwood.")
    for name in opponents:
        counts[name] = sub.integer(name, required=raw_cards.get(name) is None)
    r.problems.extend(sub.problems)

    report = None
    if any(r.has(f) for f in JERSEY_CARD_FIELDS) and not r.problems:
        knocker_hand, declared = read_knocker_cards(r, head.kind)
        entries = {
            name: OpponentEntry(
                None if raw_cards.get(name) is None else _cards_field(
                    r, f"opponents_cards.{name}", (10,), raw_cards[name]),
                counts[name], f"opponents_cards.{name}", f"deadwood.{name}", f"{name}'s",
            )
            for name in opponents
        }

        def knockers_best(options: list[Spread]) -> Spread:
            records = [_jersey_record(head, option, knocker_dw, counts) for option in options]
            return options[jersey_knockers_pick(records, players=players, conventions=conventions, number=number)]

        found = work_out_cards(r, head.kind, knocker_hand, declared, knocker_dw, entries, knockers_best)
        if found is not None:
            knocker_dw, report = found.knocker_deadwood, found.report
            counts = {name: found.deadwood[name] for name in opponents}
    if r.problems:
        return None, r
    deadwood = {name: count for name, count in counts.items() if count is not None}
    assert len(deadwood) == 2, "each opponent was given a count or cards"
    if head.kind is not Result.KNOCK:
        knocker_dw = 0
    return JerseyRecord(head.kind, knocker, knocker_dw, deadwood, head.upcard, report), r


def _jersey_record(
    head: HandHead, option: Spread, knocker_dw: int | None, counts: Mapping[str, int | None]
) -> JerseyRecord:
    """The hand as it scores when the knocker spreads ``option``."""
    if option.arrangement is not None:
        knocker_dw = option.arrangement.deadwood
    deadwood = {name: option.opponents[name].deadwood if name in option.opponents else count or 0
                for name, count in counts.items()}
    return JerseyRecord(head.kind, head.knocker, knocker_dw if head.kind is Result.KNOCK else 0, deadwood, head.upcard)


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

