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

Pairs to avoid (``History.never``, ``History.avoid``) add two terms. A "never" pair costs ``N``, more
than every other term together: the matching has one only when no pairing is without one, and the
caller refuses it (``Pairing.never_broken``). An "avoid" pair costs 1, and every squared difference is
multiplied by ``A``, more than all the avoid pairs together: an avoid pair is kept unless keeping it
would pair players further apart in score. With neither, the costs are those above, unchanged.

The graph is sparse, and still exact: with the entries ordered by match points, an optimal pairing
exists in which partners stand at most ``4d + 2`` places apart, d being the most opponents any entry
has met. (d counts the pairs to avoid as well as the opponents met. Take a pair (a, b) with more than 4d entries
between them. An entry c between them whose partner e lets a-c and e-b, or a-e and c-b, be played without
a rematch or a pair to avoid can swap partners without
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
from dataclasses import dataclass, field

import rustworkx

SCRAMBLE = 2654435761  # Knuth's multiplicative hash: a fixed, well-spread node numbering


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairs (better-placed first, in table order), who sits out, and what it costs."""

    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]
    rematches: int
    cost: int
    never_broken: tuple[tuple[int, int], ...] = ()
    avoids_broken: int = 0


@dataclass(frozen=True, slots=True)
class History:
    """What pairing needs to know of the rounds before: match points, opponents met, byes had."""

    match_points: Mapping[int, int]
    met: Mapping[int, Set[int]]
    had_bye: Set[int]
    never: Mapping[int, Set[int]] = field(default_factory=dict)  # pairs never to pair (both ways)
    avoid: Mapping[int, Set[int]] = field(default_factory=dict)  # pairs to avoid this round (both ways)

    def neighbours(self, a: int) -> Set[int]:
        """Whoever ``a`` has met or is not to meet: what the matching's window must reach past."""
        return set(self.met.get(a, ())) | set(self.never.get(a, ())) | set(self.avoid.get(a, ()))

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
    most_met = max(len(history.neighbours(e) & players) for e in standings_order)
    window = 4 * most_met + 2
    candidates = bye_order(standings_order, history) if n % 2 else []
    never, avoid = history.never, history.avoid
    never_pairs = min(n // 2, sum(len(set(never.get(e, ())) & players) for e in players) // 2)
    avoid_pairs = min(n // 2, sum(len(set(avoid.get(e, ())) & players) for e in players) // 2)

    spread = max(mp[e] for e in line) - min(mp[e] for e in line)
    scale = avoid_pairs + 1  # A: one step of squared difference outweighs every avoid pair (1 each)
    largest_total = (n // 2) * spread * spread * scale + avoid_pairs
    bye_step = largest_total + 1  # B: one step down the bye order outweighs every difference term
    rematch = bye_step * (len(candidates) + 1)  # R: one rematch outweighs the bye order and differences
    never_cost = rematch * (n // 2 + 1) if never_pairs else 0  # N: one "never" pair outweighs all the rest
    top = (never_cost + rematch + spread * spread * scale + (1 if avoid_pairs else 0)
           + bye_step * len(candidates) + 1)  # weight = top - cost stays positive

    node_count = n + (1 if candidates else 0)
    node = sorted(range(node_count), key=lambda i: (i * SCRAMBLE) & 0xFFFFFFFF)  # place i -> node id
    edges = []
    for i, a in enumerate(line):
        met_a = history.met.get(a, ())
        never_a = never.get(a, ())
        avoid_a = avoid.get(a, ())
        mp_a = mp[a]
        for j in range(i + 1, min(n, i + window + 1)):
            b = line[j]
            diff = mp_a - mp[b]
            cost = diff * diff * scale + (rematch if b in met_a else 0)
            if b in never_a:
                cost += never_cost
            if b in avoid_a:
                cost += 1
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
    never = tuple((a, b) for a, b in ordered if b in history.never.get(a, ()))
    avoids = sum(1 for a, b in ordered if b in history.avoid.get(a, ()))
    return Pairing(tuple(ordered), tuple(byes), rematches, cost, never, avoids)


def fold_avoiding(seeded: Sequence[int], order: Sequence[int], history: History) -> Pairing:
    """Round 1 with pairs to avoid: the fold (``fold``) when it keeps them all; otherwise the pairing nearest
    the fold (the least sum over the pairs of twice the square of how far each is from n/2 places apart, plus
    one for each pair within one half) among
    those with the fewest "never" pairs, then the fewest avoid pairs. The last seed still sits out (odd n).
    ``seeded``: the entries in seed order; ``order``: the standings, for the tables.
    Within 64 entries every pairing is weighed; beyond, partners at most 2d + 2 places off the fold's."""
    folded = fold(seeded)
    pairing = finish(folded.pairs, folded.byes, order, history)
    if not pairing.never_broken and not pairing.avoids_broken:
        return pairing
    players = list(seeded)
    byes = (players.pop(),) if len(players) % 2 else ()
    m = len(players)
    half = m // 2
    present = set(players)
    most = max(len(history.neighbours(e) & present) for e in players)
    reach = m if m <= 64 else 2 * most + 2
    spans = [(i, j) for i in range(m) for j in range(i + 1, m) if abs(j - i - half) <= reach]
    def moved(i: int, j: int) -> int:  # how far from the fold; a pair within one half weighs a little more
        return 2 * (j - i - half) ** 2 + ((i < half) == (j < half))

    largest = max(moved(i, j) for i, j in spans)
    avoid_cost = half * largest + 1  # one avoid pair outweighs any distance from the fold
    never_cost = avoid_cost * (half + 1)  # one "never" pair outweighs every avoid pair
    top = never_cost + avoid_cost + largest + 1
    node = sorted(range(m), key=lambda i: (i * SCRAMBLE) & 0xFFFFFFFF)
    edges = []
    for i, j in spans:
        a, b = players[i], players[j]
        cost = moved(i, j)
        if b in history.never.get(a, ()):
            cost += never_cost
        if b in history.avoid.get(a, ()):
            cost += avoid_cost
        edges.append((node[i], node[j], top - cost))
    graph = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(m))
    graph.add_edges_from(edges)
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    entry_of = {node[i]: e for i, e in enumerate(players)}
    pairs = [(entry_of[u], entry_of[v]) for u, v in matching]
    if len(pairs) * 2 != m:
        raise AssertionError(f"round 1 left entries unpaired: {m} entries, {len(pairs)} pairs")
    return finish(pairs, byes, order, history)
