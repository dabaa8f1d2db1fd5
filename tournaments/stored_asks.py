"""The stored event's requested byes and pairs to avoid, for the engine's request: loaded in one query (a union
of the two tables), and written as the request's ``requested_byes`` and ``avoid`` (same club added as pairs to
avoid when the event says so). Plain values in, plain values out: ``stored_event`` builds the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import CharField, Value

from tournaments.models import AvoidPair, Event, RequestedBye

if TYPE_CHECKING:
    from tournaments.stored_event import EventState


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


def asks_document(state: EventState) -> dict[str, Any]:
    """The request's ``requested_byes`` and ``avoid`` for the stored event (empty lists left out): byes only
    for rounds the entry plays in and has no match in yet; same club as avoid pairs through
    ``avoid_same_club_rounds`` (a bracket's round 1 only)."""
    event, labels = state.event, state.labels
    out: dict[str, Any] = {}
    if event.format == Event.Format.SWISS and state.requested_byes:
        entries = {e.pk: e for e in state.entries}
        placed = {(m.round_number, e) for m in state.live_matches if m.round_id is not None for e in m.sides}
        byes = [{"round": r, "name": labels[e]} for e, r in state.requested_byes
                if e in entries and r >= entries[e].joined_round and (r, e) not in placed
                and (entries[e].dropped_after_round is None or entries[e].dropped_after_round >= r)
                and (event.rounds is None or r <= event.rounds)]
        if byes:
            out["requested_byes"] = byes
    if event.format == Event.Format.ROUND_ROBIN:
        return out
    avoid = [{"players": [labels[a], labels[b]], "never": strength == AvoidPair.Strength.NEVER}
             for a, b, strength in state.avoid if a in labels and b in labels]
    if event.avoid_same_club_rounds:
        chosen = {frozenset((a, b)) for a, b, _ in state.avoid}
        by_club: dict[str, list[int]] = {}
        for e in state.entries:
            club = (e.player.club or "").strip().casefold()
            if club:
                by_club.setdefault(club, []).append(e.pk)
        through = {} if event.is_elimination else {"through_round": event.avoid_same_club_rounds}
        for members in by_club.values():
            for i, a in enumerate(members):
                avoid.extend({"players": [labels[a], labels[b]], "never": False, **through}
                             for b in members[i + 1:] if frozenset((a, b)) not in chosen)
    if avoid:
        out["avoid"] = avoid
    return out
