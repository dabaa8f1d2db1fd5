"""``make bench``: the ratings recompute's speed on 20,000 synthetic results (issue 25: under 2 s).

1. The engine (``ratings.engine.rate``): 20,000 results of 400 players (two-player games, one in ten a
   partnership, one in ten a three-player game, one in twenty drawn), given in shuffled order, sorted
   into date order and rated from scratch. Reference, in the same run: the plain openskill loop alone
   on the same results already in order (``PlackettLuce().rate`` per result), and the ratio.
2. The stored half of a recompute: both tables rewritten whole (``ratings.services.store``: 400 ratings,
   44,000 history points) in a throwaway SQLite database.

Timing: best of three runs.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from openskill.models import PlackettLuce

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ratings.engine import Result, rate

SEED = 20260225
RESULTS = 20_000
PLAYERS = 400
RUNS = 3


def synthetic(rng: random.Random) -> list[Result]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    out = []
    for i in range(RESULTS):
        kind = rng.random()
        if kind < 0.1:
            a, b, c, d = rng.sample(range(1, PLAYERS + 1), 4)
            sides, ranks = ((a, b), (c, d)), rng.choice([(1, 2), (2, 1)])
        elif kind < 0.2:
            sides = tuple((p,) for p in rng.sample(range(1, PLAYERS + 1), 3))
            ranks = tuple(rng.sample([1, 2, 3], 3))
        else:
            a, b = rng.sample(range(1, PLAYERS + 1), 2)
            sides = ((a,), (b,))
            ranks = (1, 1) if kind > 0.95 else rng.choice([(1, 2), (2, 1)])
        out.append(Result(start + timedelta(minutes=i), ("game", i), sides, ranks))
    return out


def plain_loop(results: list[Result]) -> dict:
    model = PlackettLuce()
    held: dict = {}
    for r in results:
        teams = [[held.get(p) or model.rating() for p in side] for side in r.sides]
        for side, team in zip(r.sides, model.rate(teams, ranks=list(r.ranks)), strict=True):
            for p, rating in zip(side, team, strict=True):
                held[p] = rating
    return held


def best_of(fn) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(RUNS):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def stored(standings, points) -> float:
    """The rewrite of both tables in a throwaway SQLite database (migrated here, deleted after)."""
    folder = tempfile.mkdtemp(prefix="ginscore-bench-ratings-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginscore.settings")
    os.environ.setdefault("DEBUG", "1")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from django.db import transaction

    from ratings.services import store
    from scoring.models import Player

    Player.objects.bulk_create(Player(pk=i, display_name=f"P{i:03d}") for i in range(1, PLAYERS + 1))

    def write():
        with transaction.atomic():
            store(standings, points)

    seconds, _ = best_of(write)
    shutil.rmtree(folder, ignore_errors=True)
    return seconds


def main() -> None:
    rng = random.Random(SEED)
    results = synthetic(rng)
    shuffled = results[:]
    rng.shuffle(shuffled)
    engine, (standings, points) = best_of(lambda: rate(shuffled))
    loop, held = best_of(lambda: plain_loop(results))
    assert {p: (s.mu, s.sigma) for p, s in standings.items()} == {p: (r.mu, r.sigma) for p, r in held.items()}
    print(f"Ratings: {RESULTS:,} results of {PLAYERS} players rated from scratch")
    print(f"  engine (sort + rate + history): {engine:.3f} s   plain openskill loop: {loop:.3f} s   "
          f"ratio {engine / loop:.2f}")
    write = stored(standings, points)
    print(f"  stored ({len(standings)} ratings, {len(points):,} points, throwaway SQLite): {write:.3f} s")
    print(f"  recompute (engine + stored): {engine + write:.3f} s   target: under 2 s")


if __name__ == "__main__":
    main()
