"""Swiss pairing by EVENTS.md's rules, strictly in their order of importance.

Round 1 folds the seed order. A later round is one minimum-cost perfect matching (rustworkx's
compiled blossom, ``max_weight_matching``) whose integer edge costs encode the rules as a
lexicographic order, so a single matching settles all of them at once:

1. the bye (an odd number still in) goes, among the entries that have not had one (everyone, when
   all have), to the first in *bye order* (fewest match points, then lowest in the standings) for
   whom the rest can be paired without a rematch: a dummy "bye" node is joined to each candidate
   with cost ``B * k`` for the k-th in bye order;
2. fewest rematches: a rematch edge costs ``R``, more than every bye and difference term together;
3. the least sum of squared match-point differences: each edge costs ``(mp_a - mp_b) ** 2``, and
   ``B`` is more than any sum of those.
When some candidate allows a rematch-free pairing, (1) and (2) agree with the rule as written; when
none does, the bye goes to the first candidate whose rest has the fewest rematches.

The graph is sparse, and still exact: with the entries ordered by match points, an optimal pairing
exists in which partners stand at most ``4d + 2`` places apart, d being the most opponents any entry
has met. (Take a pair (a, b) with more than 4d entries between them. An entry c between them whose
partner e lets a-c and e-b, or a-e and c-b, be played without a rematch can swap partners without
raising the rematch count or the cost, since squared differences favour nested and uncrossed pairs
on a line, and the sum of squared place distances strictly falls. For no c to allow that, every
entry between must be one a or b has met, or be paired with one: at most 4d entries. Removing the
bye's entry moves places by at most one.) Each entry then has about 8d + 4 edges instead of n - 1;
1,000 entries at round 10 pair in tens of milliseconds. The blossom's running time also depends on
the order of its nodes (numbered by score it is many times slower), so nodes are numbered by a
fixed scramble: the same request always gives the same pairing (rule 4).

It must not read the request or compute standings: the caller gives the order and the history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

import rustworkx

SCRAMBLE = 2654435761  # Knuth's multiplicative hash: a fixed, well-spread node numbering


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairs (better-placed first, in table order), who sits out, and what it costs."""

    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]
    rematches: int
    cost: int


@dataclass(frozen=True, slots=True)
class History:
    """What pairing needs to know of the rounds before: match points, opponents met, byes had."""

    match_points: Mapping[int, int]
    met: Mapping[int, Set[int]]
    had_bye: Set[int]

    def cost(self, a: int, b: int) -> int:
        diff = self.match_points[a] - self.match_points[b]
        return diff * diff

    def is_rematch(self, a: int, b: int) -> bool:
        return b in self.met.get(a, ())


def fold(order: Sequence[int]) -> Pairing:
    """Round 1: the top half against the bottom half (1 v n/2+1, ...); with an odd number the last sits out."""
    players = list(order)
    byes: tuple[int, ...] = ()
    if len(players) % 2:
        byes = (players.pop(),)
    half = len(players) // 2
    return Pairing(tuple((players[i], players[half + i]) for i in range(half)), byes, 0, 0)


def bye_order(standings_order: Sequence[int], history: History) -> list[int]:
    """Who may take the bye, first choice first (rule 1 without its rematch condition)."""
    pool = [e for e in standings_order if e not in history.had_bye] or list(standings_order)
    position = {e: i for i, e in enumerate(standings_order)}
    return sorted(pool, key=lambda e: (history.match_points[e], -position[e]))


def pair_round(standings_order: Sequence[int], history: History) -> Pairing:
    """The optimal pairing of the entries still in, given in standings order (see the module's docstring)."""
    n = len(standings_order)
    position = {e: i for i, e in enumerate(standings_order)}
    if n < 2:
        return Pairing((), tuple(standings_order), 0, 0)
    mp = history.match_points
    line = sorted(standings_order, key=lambda e: -mp[e])  # stable: standings order within equal points
    players = set(standings_order)
    most_met = max(len(history.met.get(e, set()) & players) for e in standings_order)
    window = 4 * most_met + 2
    candidates = bye_order(standings_order, history) if n % 2 else []

    spread = max(mp[e] for e in line) - min(mp[e] for e in line)
    largest_total = (n // 2) * spread * spread
    bye_step = largest_total + 1  # B: one step down the bye order outweighs every difference term
    rematch = bye_step * (len(candidates) + 1)  # R: one rematch outweighs the bye order and differences
    top = rematch + spread * spread + bye_step * len(candidates) + 1  # weight = top - cost stays positive

    node_count = n + (1 if candidates else 0)
    node = sorted(range(node_count), key=lambda i: (i * SCRAMBLE) & 0xFFFFFFFF)  # place i -> node id
    edges = []
    for i, a in enumerate(line):
        met_a = history.met.get(a, ())
        mp_a = mp[a]
        for j in range(i + 1, min(n, i + window + 1)):
            b = line[j]
            diff = mp_a - mp[b]
            cost = diff * diff + (rematch if b in met_a else 0)
            edges.append((node[i], node[j], top - cost))
    line_index = {e: i for i, e in enumerate(line)}
    for k, e in enumerate(candidates):
        edges.append((node[n], node[line_index[e]], top - bye_step * k))
    graph = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(node_count))
    graph.add_edges_from(edges)
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)

    entry_of = {node[i]: e for i, e in enumerate(line)}
    pairs = []
    byes: list[int] = []
    for u, v in matching:
        if candidates and node[n] in (u, v):
            byes.append(entry_of[v if u == node[n] else u])
            continue
        a, b = entry_of[u], entry_of[v]
        pairs.append((a, b) if position[a] < position[b] else (b, a))
    if len(pairs) * 2 + len(byes) != n:
        raise AssertionError(f"the matching left entries unpaired: {n} entries, {len(pairs)} pairs, {byes}")
    return finish(pairs, byes, standings_order, history)


def finish(
    pairs: Sequence[tuple[int, int]], byes: Sequence[int], standings_order: Sequence[int], history: History
) -> Pairing:
    """Order the pairs for the tables (better-placed first) and count what the pairing costs."""
    position = {e: i for i, e in enumerate(standings_order)}
    ordered = sorted(((a, b) if position[a] < position[b] else (b, a) for a, b in pairs), key=lambda p: position[p[0]])
    rematches = sum(1 for a, b in ordered if history.is_rematch(a, b))
    cost = sum(history.cost(a, b) for a, b in ordered)
    return Pairing(tuple(ordered), tuple(byes), rematches, cost)
