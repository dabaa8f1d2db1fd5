"""Slow, obviously-correct references for the pairing properties: every perfect matching tried in
turn (fields up to 10), and networkx's blossom over the whole field (no sparse window)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set

import networkx


def perfect_matchings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first = players[0]
    for i in range(1, len(players)):
        rest = [*players[1:i], *players[i + 1:]]
        for m in perfect_matchings(rest):
            yield [(first, players[i]), *m]


def bye_order(order: Sequence[str], mp: Mapping[str, int], had_bye: Set[str]) -> list[str]:
    pool = [p for p in order if p not in had_bye] or list(order)
    position = {p: i for i, p in enumerate(order)}
    return sorted(pool, key=lambda p: (mp[p], -position[p]))


def score(matching, mp, met) -> tuple[int, int]:
    rematches = sum(1 for a, b in matching if b in met.get(a, ()))
    cost = sum((mp[a] - mp[b]) ** 2 for a, b in matching)
    return rematches, cost


def brute_force(order: Sequence[str], mp: Mapping[str, int], met, had_bye) -> tuple[str | None, int, int]:
    """(bye, rematches, cost) of an optimal pairing by the rules as written, trying everything.

    Rule 1: the first candidate in bye order for whom the rest pairs without a rematch; when there is
    none, ginscore's reading: the fewest rematches, then the earliest candidate, then the least cost."""
    if len(order) % 2 == 0:
        return None, *min(score(m, mp, met) for m in perfect_matchings(list(order)))
    candidates = bye_order(order, mp, had_bye)
    fallback = None
    for k, c in enumerate(candidates):
        rest = [p for p in order if p != c]
        best = min(score(m, mp, met) for m in perfect_matchings(rest))
        if best[0] == 0:
            return c, 0, best[1]
        if fallback is None or (best[0], k, best[1]) < fallback[0]:
            fallback = ((best[0], k, best[1]), c)
    assert fallback is not None
    (rematches, _, cost), bye = fallback
    return bye, rematches, cost


def whole_field(order: Sequence[str], mp: Mapping[str, int], met, had_bye) -> tuple[int, int, int]:
    """(rematches, bye's place in bye order or -1, cost) of networkx's optimum on the complete graph."""
    candidates = bye_order(order, mp, had_bye) if len(order) % 2 else []
    spread = max(mp.values()) - min(mp.values()) if mp else 0
    step = len(order) // 2 * spread * spread + 1
    rematch = step * (len(candidates) + 1)
    top = rematch + spread * spread + step * len(candidates) + 1
    graph = networkx.Graph()
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            cost = (mp[a] - mp[b]) ** 2 + (rematch if b in met.get(a, ()) else 0)
            graph.add_edge(a, b, weight=top - cost)
    for k, c in enumerate(candidates):
        graph.add_edge("<bye>", c, weight=top - step * k)
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    bye_place = -1
    pairs = []
    for a, b in matching:
        if "<bye>" in (a, b):
            bye_place = candidates.index(b if a == "<bye>" else a)
        else:
            pairs.append((a, b))
    rematches, cost = score(pairs, mp, met)
    return rematches, bye_place, cost
