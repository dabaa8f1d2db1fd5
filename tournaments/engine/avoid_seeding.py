"""A bracket's first round with pairs to avoid: the seed order moved as little as possible so that no round 1
match is a "never" pair, and, where a move can keep one apart without making another, no avoid pair.

Round 1 pairs seed s with seed 2^k + 1 - s (a seed beyond the entries being a bye). Going down the round 1
matches from the top, a match that pairs two entries to keep apart has its lower-placed entry exchanged with
the nearest entry in the seed order (the nearer lower seed first at equal distance) whose exchange leaves both
matches it touches free of such a pair: "never" pairs first, over every match, then avoid pairs. A "never" pair
no exchange can separate is refused, naming the two. The bracket is then built on the moved seed order; every
entry keeps the seed it was given (the answer's ``seed``), only its place in the bracket moves.
"""

from __future__ import annotations

from dataclasses import replace

from .bracket import bracket_rounds, standard_order
from .errors import EventError, Problem
from .records import Event


def round_one_places(entries: int) -> list[tuple[int, int]]:
    """Round 1's matches as pairs of 0-based places in the seed order (the second may be a bye: >= entries)."""
    order = standard_order(2 ** bracket_rounds(entries))
    return [(order[2 * i] - 1, order[2 * i + 1] - 1) for i in range(len(order) // 2)]


def moved_order(entries: int, never: set[frozenset[int]], avoid: set[frozenset[int]]) -> list[int]:
    """The seed order with the fewest exchanges found (see the module's docstring): place -> entry."""
    order = list(range(entries))
    matches = round_one_places(entries)
    partner = {}
    for a, b in matches:
        partner[a], partner[b] = b, a

    def level(p: int, q: int) -> int:
        if p >= entries or q >= entries:
            return 0
        pair = frozenset((order[p], order[q]))
        return 2 if pair in never else 1 if pair in avoid else 0

    for at_least in (2, 1):
        for top, bottom in matches:
            if level(top, bottom) < at_least:
                continue
            low = max(top, bottom)  # the lower-placed one moves
            nearest = sorted((t for t in range(entries) if t not in (top, bottom)),
                             key=lambda t: (abs(t - low), t < low))
            for t in nearest:
                order[low], order[t] = order[t], order[low]
                if max(level(top, bottom), level(t, partner[t])) < at_least:
                    break
                order[low], order[t] = order[t], order[low]
    return order


def seeded_avoiding(event: Event) -> Event:
    """The event with its entries in the moved seed order (results and drops renumbered with them); the event
    itself when nothing is to be avoided or the seed order already keeps every pair apart."""
    if not event.avoid:
        return event
    never = {frozenset(a.players) for a in event.avoid if a.never}
    avoid = {frozenset(a.players) for a in event.avoid if not a.never}
    order = moved_order(event.size, never, avoid)
    names = [e.name for e in event.entries]
    refused = [Problem(None, "avoid", f"round 1 of the bracket cannot keep {names[order[p]]} and {names[order[q]]} "
                                      "apart (a \"never\" pair): no exchange of seeds separates them without "
                                      "pairing another")
               for p, q in round_one_places(event.size)
               if q < event.size and frozenset((order[p], order[q])) in never]
    if refused:
        raise EventError(refused)
    if order == list(range(event.size)):
        return event
    place = {entry: p for p, entry in enumerate(order)}
    return replace(
        event,
        entries=tuple(replace(event.entries[entry], index=p) for p, entry in enumerate(order)),
        bracket_results=tuple(replace(r, winner=place[r.winner]) for r in event.bracket_results),
        dropped={place[e]: last for e, last in event.dropped.items()},
        avoid=(),
    )
