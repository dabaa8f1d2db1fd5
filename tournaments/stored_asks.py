"""The stored event's requested byes and pairs to avoid, for the engine's request: loaded in one query (a union
of the two tables), and written as the request's ``requested_byes`` and ``avoid`` (same club added as pairs to
avoid when the event says so). Plain values in, plain values out: ``stored_event`` builds the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import Any

from django.db.models import CharField, Value

from tournaments.engine.records import default_swiss_rounds
from tournaments.models import AvoidPair, Entry, Event, RequestedBye


def load_asks(event: Event) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """The requested byes and the pairs to avoid, in one query (a union of the two tables)."""
    byes = (RequestedBye.objects.filter(entry__event=event).order_by()
            .annotate(kind=Value("bye", output_field=CharField())).values_list("entry_id", "round", "kind"))
    pairs = AvoidPair.objects.filter(event=event).order_by().values_list("first_id", "second_id", "strength")
    requested, avoid = [], []
    for a, b, kind in byes.union(pairs, all=True):
        if kind == "bye":
            requested.append((a, b))
        else:
            avoid.append((a, b, kind))
    return sorted(requested), sorted(avoid)


def asks_document(event: Event, entries: Sequence[Entry], labels: Mapping[int, str], *,
                  placed: Set[tuple[int, int]], requested: Sequence[tuple[int, int]],
                  avoid: Sequence[tuple[int, int, str]]) -> dict[str, Any]:
    """The request's ``requested_byes`` and ``avoid`` for the stored event (empty lists left out): byes only
    for rounds the entry plays in and has no match in yet; same club as avoid pairs through
    ``avoid_same_club_rounds`` (a bracket's round 1 only). ``placed``: (round, entry id) of every entry in a
    stored round's match."""
    out: dict[str, Any] = {}
    if event.format == Event.Format.SWISS and requested:
        by_id = {e.pk: e for e in entries}
        byes = [{"round": r, "name": labels[e]} for e, r in requested
                if e in by_id and r >= by_id[e].joined_round and (r, e) not in placed
                and (by_id[e].dropped_after_round is None or by_id[e].dropped_after_round >= r)
                and r <= (event.rounds or default_swiss_rounds(max(len(entries), 2)))]
        if byes:
            out["requested_byes"] = byes
    if event.format == Event.Format.ROUND_ROBIN:
        return out
    pairs = [{"players": [labels[a], labels[b]], "never": strength == AvoidPair.Strength.NEVER}
             for a, b, strength in avoid if a in labels and b in labels]
    if event.avoid_same_club_rounds:
        chosen = {frozenset((a, b)) for a, b, _ in avoid}
        by_club: dict[str, list[int]] = {}
        for e in entries:
            club = (e.player.club or "").strip().casefold()
            if club:
                by_club.setdefault(club, []).append(e.pk)
        through = {} if event.is_elimination else {"through_round": event.avoid_same_club_rounds}
        for members in by_club.values():
            for i, a in enumerate(members):
                pairs.extend({"players": [labels[a], labels[b]], "never": False, **through}
                             for b in members[i + 1:] if frozenset((a, b)) not in chosen)
    if pairs:
        out["avoid"] = pairs
    return out
