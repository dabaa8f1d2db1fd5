"""A season's ladder (the points race) worked out from plain values: each counted event's final places and
each player's club nights, under the season's points table.

- Placement points: a place's points from the table (place 1 first), every finisher placed beyond the table
  gets ``finisher`` points; players who share a place in an event each get that place's points.
- Night points: ``night`` points per club night attended; with ``best_nights`` N only N nights count (the
  earliest N: a night added later never displaces one already counted), None counts them all.
- ``counts``: "club" (nights only), "events" (placements only) or "both".
- Points only go up: nothing is ever subtracted (no penalty, no decay). A new result only adds points; a
  correction (a place changed) is a new input, so the ladder is simply worked out again from it.
- Ladder places are shared by equal totals ("1, 2, 2, 4"), listed by name within a place.

It must not read the database, know what an event or a game is stored as, or decide which events count:
its callers pass the values.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

COUNTS = ("club", "events", "both")


@dataclass(frozen=True, slots=True)
class PointsTable:
    """``placement``: points for place 1, 2, ... (a place beyond it: ``finisher``); ``night``: per club night;
    ``best_nights``: how many nights count (None: all)."""

    placement: Sequence[int]
    finisher: int
    night: int
    best_nights: int | None = None
    counts: str = "both"

    def __post_init__(self) -> None:
        if self.counts not in COUNTS:
            raise ValueError(f"counts is one of {', '.join(COUNTS)}")
        if self.best_nights is not None and self.best_nights < 1:
            raise ValueError("best_nights is at least 1 (None: every night counts)")
        if min([*self.placement, self.finisher, self.night]) < 0:
            raise ValueError("points are never negative")


@dataclass(frozen=True, slots=True)
class EventPlacings:
    """One counted event: its key (an id), name, date and each player's final place (ties share a place)."""

    key: Hashable
    name: str
    on: date
    places: Mapping[Hashable, int]


@dataclass(frozen=True, slots=True)
class PlacementPoints:
    event: Hashable
    name: str
    on: date
    place: int
    points: int


@dataclass(frozen=True, slots=True)
class NightPoints:
    on: date
    points: int
    counted: bool


@dataclass(slots=True)
class LadderRow:
    place: int
    player: Hashable
    name: str
    placement_points: int = 0
    night_points: int = 0
    results: list[PlacementPoints] = field(default_factory=list)
    nights: list[NightPoints] = field(default_factory=list)

    @property
    def points(self) -> int:
        return self.placement_points + self.night_points

    @property
    def events(self) -> int:
        return len(self.results)

    @property
    def nights_counted(self) -> int:
        return sum(1 for n in self.nights if n.counted)


def placement_points(table: PointsTable, place: int) -> int:
    """The points for a place (1 first): the table's, or ``finisher`` beyond it."""
    return table.placement[place - 1] if 1 <= place <= len(table.placement) else table.finisher


def shared_places(scores: Sequence[int]) -> list[int]:
    """Places for scores listed best first, equal scores sharing a place: [9, 7, 7, 3] -> [1, 2, 2, 4]."""
    places: list[int] = []
    for i, score in enumerate(scores):
        places.append(places[-1] if i and score == scores[i - 1] else i + 1)
    return places


def combine_stages(final: Mapping[Hashable, int], earlier: Mapping[Hashable, int]) -> dict[Hashable, int]:
    """One event's places from two stages (a knockout seeded from a Swiss): the final stage's players keep its
    places; the others follow them in the earlier stage's order, ties still shared."""
    placed = dict(final)
    rest = sorted((place, player) for player, place in earlier.items() if player not in placed)
    after = max(placed.values(), default=0)
    # Knockout places may share a place (two semi-final losers third): the rest start after the last one.
    after = max(after, len(placed))
    for (_, player), shared in zip(rest, shared_places([p for p, _ in rest]), strict=True):
        placed[player] = after + shared
    return placed


def ladder(table: PointsTable, events: Iterable[EventPlacings], nights: Mapping[Hashable, Iterable[date]],
           names: Mapping[Hashable, str]) -> list[LadderRow]:
    """The ladder: every player with a counted result, most points first, places shared by equal totals."""
    rows: dict[Hashable, LadderRow] = {}

    def row(player: Hashable) -> LadderRow:
        if player not in rows:
            rows[player] = LadderRow(place=0, player=player, name=names.get(player, str(player)))
        return rows[player]

    if table.counts in ("events", "both"):
        for event in sorted(events, key=lambda e: (e.on, str(e.key))):
            for player, place in event.places.items():
                points = placement_points(table, place)
                r = row(player)
                r.results.append(PlacementPoints(event.key, event.name, event.on, place, points))
                r.placement_points += points
    if table.counts in ("club", "both"):
        for player, days in nights.items():
            attended = sorted(set(days))
            if not attended:
                continue
            r = row(player)
            for i, on in enumerate(attended):
                counted = table.best_nights is None or i < table.best_nights
                r.nights.append(NightPoints(on, table.night if counted else 0, counted))
                r.night_points += table.night if counted else 0
    ordered = sorted(rows.values(), key=lambda r: (-r.points, r.name.casefold(), str(r.player)))
    for r, place in zip(ordered, shared_places([r.points for r in ordered]), strict=True):
        r.place = place
    return ordered
