"""``make bench``: the engine's speed figures, each beside a reference measured in the same run.

Prints microseconds per hand for ``min_deadwood`` on 10,000 random 10-card hands (fixed seed), on
meld-dense hands and on 11-card hands, and for the full knock analysis with lay-offs. The reference
is a trivial call over the same hands (how much of the time is merely calling a Python function).

OpenSpiel's compiled solver is measured side by side on the very same hands when an interpreter that
has it is given (``OPENSPIEL_PYTHON=/path/to/python make bench``); it is not a project dependency.
Timing: several interleaved rounds, best round kept, so background load shows less.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path

from scoring.engine.cards import ALL_CARDS, RANKS, parse_cards
from scoring.engine.melds import knockers_choice, min_deadwood

SEED = 20261122
HANDS = 10_000
ROUNDS = 7


def random_hands(rng: random.Random, count: int, size: int) -> list[list[str]]:
    deck = [str(c) for c in ALL_CARDS]
    return [rng.sample(deck, size) for _ in range(count)]


def dense_hands(rng: random.Random, count: int, size: int) -> list[list[str]]:
    out = []
    for _ in range(count):
        low = rng.randrange(0, 10)
        pool = [r + s for r in RANKS[low : low + 4] for s in "SHDC"]
        out.append(rng.sample(pool, size))
    return out


def best_time(fn, items, rounds=ROUNDS) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items) * 1e6


def trivial(hand) -> int:
    return hand.mask


OPENSPIEL_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    import pyspiel
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    suits, ranks = "SCDH", "A23456789TJQK"
    sets = json.load(open(sys.argv[1]))
    out = {}
    for name, hands in sets.items():
        ints = [[suits.index(c[1]) * 13 + ranks.index(c[0]) for c in h] for h in hands]
        f = utils.min_deadwood
        best = float("inf")
        for _ in range(int(sys.argv[2])):
            t = time.perf_counter()
            for h in ints:
                f(h)
            best = min(best, time.perf_counter() - t)
        out[name] = best / len(ints) * 1e6
    print(json.dumps(out))
    """
)


def openspiel_times(sets: dict[str, list[list[str]]]) -> dict[str, float] | None:
    python = os.environ.get("OPENSPIEL_PYTHON")
    if not python:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "hands.json"
        data.write_text(json.dumps(sets))
        script = Path(tmp) / "bench_openspiel.py"
        script.write_text(OPENSPIEL_SCRIPT)
        run = subprocess.run([python, str(script), str(data), str(ROUNDS)], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"OpenSpiel not measured: {run.stderr.strip().splitlines()[-1:]}")
        return None
    return json.loads(run.stdout)


def main() -> None:
    rng = random.Random(SEED)
    sets = {
        "random 10 cards": random_hands(rng, HANDS, 10),
        "meld-dense 10 cards": dense_hands(rng, HANDS, 10),
        "random 11 cards": random_hands(rng, HANDS, 11),
        "meld-dense 11 cards": dense_hands(rng, HANDS, 11),
    }
    parsed = {name: [parse_cards(h) for h in hands] for name, hands in sets.items()}

    knocks = []
    for _ in range(2000):
        low = rng.randrange(0, 9)
        pool = [c for c in ALL_CARDS if low <= c.rank < low + 5]
        cards = rng.sample(pool, 20)
        knocks.append((parse_cards(cards[:10]), parse_cards(cards[10:])))

    print(f"ginscore engine benchmark (seed {SEED}, best of {ROUNDS} rounds, µs per hand)")
    reference = best_time(trivial, parsed["random 10 cards"])
    print(f"  reference: a trivial Python call per hand          {reference:7.3f}")
    ours = {}
    for name, hands in parsed.items():
        ours[name] = best_time(min_deadwood, hands)
        print(f"  min_deadwood, {name:<22}               {ours[name]:7.3f}  ({ours[name] / reference:4.1f}x reference)")
    analysis = best_time(lambda pair: knockers_choice(*pair), knocks, rounds=3)
    label = "knock analysis with lay-offs (knocker + opponent)"
    print(f"  {label}  {analysis:7.3f}  ({analysis / reference:4.0f}x reference)")

    theirs = openspiel_times(sets)
    if theirs:
        print("OpenSpiel GinRummyUtils.min_deadwood (compiled C++), same hands, same run:")
        for name, value in theirs.items():
            print(f"  {name:<22} {value:7.3f} µs  ginscore/OpenSpiel = {ours[name] / value:4.2f}")
    else:
        print("(set OPENSPIEL_PYTHON to an interpreter with open-spiel installed to compare side by side)")


if __name__ == "__main__":
    main()
