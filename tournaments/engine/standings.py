"""Standings: each entry's record and every tiebreak key of EVENTS.md, ranked with shared ranks.

``rank_entries`` takes the matches that count (already filtered to ``as_of_round`` by the caller),
the byes, which entries are marked dropped and, for elimination, each entry's place (its rank there);
it answers one :class:`Standing` per entry in rank order. Ranking applies the tiebreak keys in their order to the
groups still tied; ``head_to_head`` is worked out for each group at its place in the list. Entries
equal on every key share a rank and are listed in seed order.

It must not decide who plays whom, nor read the request: pairing and the document reader do that.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .records import Event, MatchPoints, Played

ASCENDING_KEYS = frozenset({"seed"})  # every other key ranks the higher value first


@dataclass(slots=True)
class Record:
    """What one entry has done so far; ``meetings`` lists (opponent, match points earned) per match."""

    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    requested_byes: int = 0
    match_points: int = 0
    margin: int = 0
    meetings: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entry: int  # 0-based seed position
    record: Record
    dropped: bool
    tiebreaks: dict[str, int | None]


def build_records(
    size: int,
    matches: Iterable[Played],
    byes: Iterable[int],
    points: MatchPoints,
    *,
    bye_margin: int,
    byes_score: bool,
    requested: Iterable[int] = (),
) -> list[Record]:
    """Every entry's record from the matches (forfeits included) and byes that count.

    ``byes_score``: in Swiss and round robin a bye counts as a win with ``points.bye`` and
    ``bye_margin``; in a bracket it only counts in ``byes``. ``requested``: the Swiss byes players asked
    for (one item per bye), each ``points.requested_bye`` (a draw's points unless set), no margin.
    """
    records = [Record() for _ in range(size)]
    for m in matches:
        a, b = m.players
        ra, rb = records[a], records[b]
        ra.played += 1
        rb.played += 1
        if m.winner is None:
            ra.draws += 1
            rb.draws += 1
            ra.match_points += points.draw
            rb.match_points += points.draw
            ra.meetings.append((b, points.draw))
            rb.meetings.append((a, points.draw))
            continue
        w, lo = (ra, rb) if m.winner == a else (rb, ra)
        w.wins += 1
        lo.losses += 1
        w.match_points += points.win
        lo.match_points += points.loss
        w.margin += m.margin
        lo.margin -= m.margin
        winner, loser = (a, b) if m.winner == a else (b, a)
        w.meetings.append((loser, points.win))
        lo.meetings.append((winner, points.loss))
    for entry in byes:
        r = records[entry]
        r.byes += 1
        if byes_score:
            r.wins += 1
            r.match_points += points.bye
            r.margin += bye_margin
    for entry in requested:
        records[entry].requested_byes += 1
        records[entry].match_points += points.requested_bye_points
    return records


def _key_values(key: str, records: Sequence[Record]) -> list[int]:
    if key in ("match_points", "wins", "margin"):
        return [getattr(r, key) for r in records]
    if key == "seed":
        return [i + 1 for i in range(len(records))]
    mps = [r.match_points for r in records]
    if key == "opponents_margin":
        margins = [r.margin for r in records]
        return [sum(margins[o] for o, _ in r.meetings) for r in records]
    values = []
    for r in records:
        opponents = [mps[o] for o, _ in r.meetings]
        total = sum(opponents)
        if key == "buchholz_cut1":
            total = total - min(opponents) if len(opponents) >= 2 else 0
        elif key == "median_buchholz" and len(opponents) >= 3:
            total -= max(opponents) + min(opponents)
        values.append(total)
    return values


def head_to_head(group: Sequence[int], records: Sequence[Record]) -> list[int] | None:
    """Each member's match points from the matches among the group, or None unless every two have met."""
    members = set(group)
    values = []
    for entry in group:
        met = set()
        earned = 0
        for opponent, points in records[entry].meetings:
            if opponent in members:
                met.add(opponent)
                earned += points
        if len(met) < len(members) - 1:
            return None
        values.append(earned)
    return values


def rank_entries(
    event: Event,
    records: Sequence[Record],
    *,
    dropped: Iterable[int],
    places: Sequence[int] | None = None,
) -> list[Standing]:
    """Every entry once, in rank order (see the module's docstring)."""
    size = len(records)
    keys = event.tiebreaks
    plain = {key: _key_values(key, records) for key in keys if key != "head_to_head"}
    h2h: list[int | None] = [None] * size
    # Groups of entries still tied, each in seed order; splitting one keeps that order inside the parts.
    groups: list[list[int]] = [list(range(size))]
    if places is not None:
        groups = _split(groups, lambda e: places[e], descending=False)
    ordering_keys = keys if places is None else ()
    for key in ordering_keys:
        if key == "head_to_head":
            groups = _split_head_to_head(groups, records, h2h)
        else:
            values = plain[key]
            groups = _split(groups, values.__getitem__, descending=key not in ASCENDING_KEYS)
    if places is not None and "head_to_head" in keys:
        _split_head_to_head(groups, records, h2h)  # reported only: places alone order a bracket
    gone = set(dropped)
    standings = []
    position = 1
    for group in groups:
        for entry in group:
            tiebreaks = {key: (h2h[entry] if key == "head_to_head" else plain[key][entry]) for key in keys}
            rank = places[entry] if places is not None else position  # a bracket ranks by place
            standings.append(Standing(rank, entry, records[entry], entry in gone, tiebreaks))
        position += len(group)
    return standings


def _split(groups: list[list[int]], value, *, descending: bool) -> list[list[int]]:
    out: list[list[int]] = []
    for group in groups:
        if len(group) == 1:
            out.append(group)
            continue
        ordered = sorted(group, key=value, reverse=descending)  # stable: seed order within equal values
        start = 0
        for i in range(1, len(ordered) + 1):
            if i == len(ordered) or value(ordered[i]) != value(ordered[start]):
                out.append(ordered[start:i])
                start = i
    return out


def _split_head_to_head(groups: list[list[int]], records: Sequence[Record], h2h: list[int | None]) -> list[list[int]]:
    out: list[list[int]] = []
    for group in groups:
        values = head_to_head(group, records) if len(group) > 1 else None
        if values is None:
            out.append(group)
            continue
        for entry, v in zip(group, values, strict=True):
            h2h[entry] = v
        out.extend(_split([group], h2h.__getitem__, descending=True))
    return out
