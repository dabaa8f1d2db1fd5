"""``make bench``: the event engine's speed, each figure beside a reference measured in the same run.

1. Swiss round 10 of 1,000 entries (and of 1,001, with a bye) after nine rounds played by feeding
   the engine's own pairings back: with random results, and with results that follow the seeds
   (the better-placed player always wins, which spreads the field widely). Timed: the whole
   ``run_event`` answer (parsing, standings, pairing). Reference: rustworkx's blossom over the whole
   field (every pair an edge, the same integer costs, nodes in a fixed shuffle) on the very same
   round, with its rematch count and pairing cost, which ginscore's sparse matching must equal; and
   networkx's whole-field matching on the random rounds (pure Python: about 4.5 minutes a round on
   this machine). ``BENCH_NETWORKX=0`` leaves networkx out, ``BENCH_NETWORKX=all`` runs it on the
   seed-following rounds too.
2. Standings of 1,000 entries after nine rounds with every tiebreak key on (no pairing).

Targets (issue 8): the answer under 0.5 s, the standings under 50 ms. Timing: best of several runs.
"""

from __future__ import annotations

import os
import random
import time

import networkx
import rustworkx

from tournaments.engine import read_event, run_event
from tournaments.engine.document import TIEBREAK_KEYS
from tournaments.engine.event import RoundEvent
from tournaments.engine.swiss import bye_order

SEED = 20261122
RUNS = 5


def nine_rounds(n: int, *, favourites: bool, rng: random.Random) -> dict:
    request = {"format": "swiss", "entries": [{"name": f"P{i:04d}"} for i in range(n)], "rounds": 10, "results": []}
    for _ in range(9):
        upcoming = run_event(request)["next_round"]
        r = upcoming["round"]
        for p in upcoming["pairings"]:
            a, b = p["players"]
            if favourites:
                winner, margin = a, 25
            else:
                winner, margin = rng.choice([a, b]), rng.randrange(1, 200)
            request["results"].append({"round": r, "players": [a, b], "winner": winner, "margin": margin})
        request["results"].extend({"round": r, "bye": name} for name in upcoming["byes"])
    return request


def best_of(fn, runs=RUNS) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def whole_field(request: dict, *, library: str) -> tuple[int, int]:
    """(rematches, cost) of the optimum with every pair an edge and the engine's weights."""
    event = RoundEvent(read_event(request))
    history = event.history(event.played, event.recorded_byes, event.records)
    players = [e for e in event.order if event.is_in(e, event.rounds_played + 1)]
    random.Random(SEED).shuffle(players)
    mp = history.match_points
    candidates = bye_order(players, history) if len(players) % 2 else []
    spread = max(mp[e] for e in players) - min(mp[e] for e in players)
    step = len(players) // 2 * spread * spread + 1
    rematch = step * (len(candidates) + 1)
    top = rematch + spread * spread + step * len(candidates) + 1
    edges = [
        (a, b, top - history.cost(a, b) - (rematch if history.is_rematch(a, b) else 0))
        for i, a in enumerate(players)
        for b in players[i + 1:]
    ]
    edges += [(-1, e, top - step * k) for k, e in enumerate(candidates)]
    if library == "networkx":
        graph = networkx.Graph()
        graph.add_weighted_edges_from(edges)
        matching = networkx.max_weight_matching(graph, maxcardinality=True)
    else:
        nodes = [-1, *players] if candidates else players
        index = {e: i for i, e in enumerate(nodes)}
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(nodes)
        graph.add_edges_from([(index[a], index[b], w) for a, b, w in edges])
        found = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
        matching = {(nodes[i], nodes[j]) for i, j in found}
    pairs = [(a, b) for a, b in matching if -1 not in (a, b)]
    rematches = sum(1 for a, b in pairs if history.is_rematch(a, b))
    return rematches, sum(history.cost(a, b) for a, b in pairs)


def swiss_round_ten() -> None:
    networkx_on = os.environ.get("BENCH_NETWORKX", "random")
    print("Swiss round 10 after nine rounds: the whole event answer vs a whole-field matching of the round")
    print(f"{'entries':>8} {'results':>8} {'ginscore s':>11} {'reference':>10} {'ref s':>8} {'ratio':>7} "
          f"{'rematches':>10} {'cost':>6} {'same cost':>10}")
    rng = random.Random(SEED)
    for favourites in (False, True):
        for n in (1000, 1001):
            request = nine_rounds(n, favourites=favourites, rng=rng)
            took, answer = best_of(lambda request=request: run_event(request))
            upcoming = answer["next_round"]
            kind = "seeds" if favourites else "random"
            with_networkx = networkx_on == "all" or (networkx_on == "random" and not favourites)
            for library in ["rustworkx"] + (["networkx"] if with_networkx else []):
                ref_took, (ref_rematches, ref_cost) = best_of(
                    lambda request=request, library=library: whole_field(request, library=library),
                    runs=1 if library == "networkx" else 3,
                )
                same = (upcoming["rematches"], upcoming["cost"]) == (ref_rematches, ref_cost)
                print(f"{n:>8} {kind:>8} {took:>11.3f} {library:>10} {ref_took:>8.2f} {took / ref_took:>7.3f} "
                      f"{upcoming['rematches']:>10} {upcoming['cost']:>6} {'yes' if same else 'NO':>10}")


def standings_only() -> None:
    rng = random.Random(SEED + 1)
    request = nine_rounds(1000, favourites=False, rng=rng)
    request["tiebreaks"] = list(TIEBREAK_KEYS)
    parse, event = best_of(lambda: read_event(request))
    rank, _ = best_of(lambda: RoundEvent(event).standings)
    print()
    print("Standings of 1,000 entries after 9 rounds, every tiebreak key on (ms)")
    print(f"  read the request: {parse * 1e3:.1f}   records and ranking: {rank * 1e3:.1f}   "
          f"together: {(parse + rank) * 1e3:.1f} (target < 50)")


if __name__ == "__main__":
    swiss_round_ten()
    standings_only()
