"""The event document's records: the typed, validated values ``document.read_event`` makes of an EVENTS.md
request (entries, results, the event's options) and the limits it reads them within. Plain data: the pairing,
brackets and standings work on these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

MAX_ENTRIES = 4096
MAX_NAME_LENGTH = 60
MAX_SWISS_ROUNDS = 100
MAX_MATCH_POINTS = 1000
MAX_MARGIN = 10**9


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"

    @property
    def is_elimination(self) -> bool:
        return self in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)


class GrandFinal(StrEnum):
    RESET = "reset"
    SINGLE = "single"


TIEBREAK_KEYS = (
    "match_points",
    "wins",
    "margin",
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "opponents_margin",
    "head_to_head",
    "seed",
)
DEFAULT_TIEBREAKS = {
    Format.SWISS: ("match_points", "buchholz", "margin", "head_to_head"),
    Format.ROUND_ROBIN: ("match_points", "head_to_head", "margin", "buchholz"),
    Format.SINGLE_ELIMINATION: (),
    Format.DOUBLE_ELIMINATION: (),
}
TOP_LEVEL_FIELDS = (
    "format",
    "entries",
    "rounds",
    "match_points",
    "bye_margin",
    "forfeit_margin",
    "tiebreaks",
    "results",
    "dropped",
    "as_of_round",
    "third_place",
    "grand_final",
    "requested_byes",
    "avoid",
)
MATCH_POINT_KEYS = ("win", "draw", "loss", "bye", "requested_bye")


@dataclass(frozen=True, slots=True)
class MatchPoints:
    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2
    requested_bye: int | None = None  # a bye a player asked for; None: a draw's points

    @property
    def requested_bye_points(self) -> int:
        return self.draw if self.requested_bye is None else self.requested_bye

    def as_dict(self) -> dict[str, int]:
        points = {"win": self.win, "draw": self.draw, "loss": self.loss, "bye": self.bye}
        if self.requested_bye is not None:
            points["requested_bye"] = self.requested_bye
        return points


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry; ``index`` is its 0-based place in the seed order (its seed is ``index + 1``)."""

    index: int
    name: str
    seed: int | None
    joined: int = 1
    position: int = 0  # where the request lists it (error messages point there)


@dataclass(frozen=True, slots=True)
class Played:
    """A Swiss or round robin match: ``players`` as given, ``winner`` None for a draw."""

    number: int
    round: int
    players: tuple[int, int]
    winner: int | None
    margin: int
    forfeit: bool

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.players[1] if self.winner == self.players[0] else self.players[0]


@dataclass(frozen=True, slots=True)
class RecordedBye:
    number: int
    round: int
    entry: int


@dataclass(frozen=True, slots=True)
class RequestedBye:
    """A Swiss round an entry asked to sit out: not paired in it, scored ``match_points.requested_bye``."""

    round: int
    entry: int


@dataclass(frozen=True, slots=True)
class Avoid:
    """Two entries not to pair: ``never`` holds like "no rematch"; otherwise kept unless keeping it would pair
    players further apart in score. ``through_round``: honoured up to that round only (None: every round)."""

    players: tuple[int, int]
    never: bool
    through_round: int | None = None

    def holds_in(self, round_no: int) -> bool:
        return self.through_round is None or round_no <= self.through_round


@dataclass(frozen=True, slots=True)
class BracketResult:
    """An elimination result as recorded; the bracket decides whether it fits its match."""

    number: int
    match: str
    winner: int | None
    winner_name: str
    margin: int
    forfeit: bool


@dataclass(frozen=True, slots=True)
class Event:
    format: Format
    entries: tuple[Entry, ...]  # in seed order
    rounds: int | None  # Swiss and round robin; None for elimination
    match_points: MatchPoints
    bye_margin: int
    forfeit_margin: int
    tiebreaks: tuple[str, ...]
    played: tuple[Played, ...]
    byes: tuple[RecordedBye, ...]
    bracket_results: tuple[BracketResult, ...]
    dropped: Mapping[int, int]  # entry index -> the last round it played (0: withdrew before round 1)
    as_of_round: int | None
    third_place: bool
    grand_final: GrandFinal
    requested_byes: tuple[RequestedBye, ...] = ()
    avoid: tuple[Avoid, ...] = ()

    @property
    def size(self) -> int:
        return len(self.entries)


def round_robin_rounds(entries: int) -> int:
    return entries - 1 if entries % 2 == 0 else entries


def default_swiss_rounds(entries: int) -> int:
    """The least r with 2^r >= the number of entries."""
    return max(1, (entries - 1).bit_length())
